/**
 * Limits of captured command output: the `bash` tool keeps at most 100 KB
 * (`HARNESS_RESULT_LIMIT`) and 2000 lines, head and tail; the capture itself
 * is core's `OutputSpool` (the whole output is saved beside the session).
 *
 * @module
 */
import { DEFAULT_RESULT_LIMIT, type OutputLimits } from "../../core/mod.ts";

export { type OutputLimits, OutputSpool } from "../../core/mod.ts";

/** Default limits: 100 KB and 2000 lines. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = {
  maxBytes: DEFAULT_RESULT_LIMIT,
  maxLines: 2000,
};
