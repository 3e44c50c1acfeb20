/**
 * The per-response cap on tool calls (issue 23, cause 9): one model response may ask for at
 * most `max_tool_calls=` calls (`HARNESS_MAX_TOOL_CALLS`, else the provider's `.conf`, else
 * 128). A response over it is refused whole, before it is saved or any of its calls runs:
 * the turn ends with an error naming the cap, the count and how to raise it, and the session
 * stays as it was before the request (it resumes).
 *
 * @module
 */
import { HarnessError } from "../base/mod.ts";
import { DEFAULT_MAX_TOOL_CALLS, type ResolvedLimits } from "../providers/mod.ts";

/** The refusal of a response asking for `count` tool calls, or undefined within the cap. */
export function toolCallCapError(
  count: number,
  limits: ResolvedLimits | undefined,
  provider: string,
): HarnessError | undefined {
  const cap = limits?.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  if (count <= cap) return undefined;
  const from = limits?.maxToolCallsFrom ?? "the default";
  return new HarnessError(
    `the model's response asked for ${count} tool calls, more than the cap of ${cap} ` +
      `(${from}); none of them ran and the response was not saved — if so many are ` +
      `expected, raise max_tool_calls= in the .conf of provider ${provider} or set ` +
      `HARNESS_MAX_TOOL_CALLS=${count}`,
    "the session is kept: resume it after raising the cap (hs resume)",
  );
}
