/**
 * Results of tool calls that ran before `tool_exec`: a reference-style `send/10-send`
 * runs streamed tool calls as they arrive and leaves each result in
 * `$HARNESS_SESSION/.tool_dispatch/<call id>.json` (`{"result": "…", "error": bool}`).
 * The built-in `tool_exec/10-exec` uses such a result instead of running the tool a
 * second time (the call still passes the effect seam).
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { readOwnText } from "../base/mod.ts";

/** A result computed before `tool_exec`. */
export interface DispatchedResult {
  result: string;
  error: boolean;
}

/** Call ids that name a file of `.tool_dispatch/` (no separators, no `..`). */
const SAFE_ID = /^(?!\.{1,2}$)[A-Za-z0-9_.:-]{1,200}$/;

/** The directory the dispatcher writes. */
export function dispatchDir(sessionDir: string): string {
  return join(sessionDir, ".tool_dispatch");
}

/** The pre-computed result of call `id`, if a dispatcher left a well-formed one. */
export function dispatchedResult(sessionDir: string, id: string): DispatchedResult | undefined {
  if (!sessionDir || !SAFE_ID.test(id)) return undefined;
  // session state: never read through a link (a refused file is reported, skipped)
  const text = readOwnText(join(dispatchDir(sessionDir), `${id}.json`));
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || !("result" in data)) return undefined;
  const d = data as { result: unknown; error?: unknown };
  return {
    result: typeof d.result === "string" ? d.result : JSON.stringify(d.result ?? ""),
    error: d.error === true || d.error === "true",
  };
}
