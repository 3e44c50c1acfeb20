/**
 * The per-response cap on tool calls (issue 23, cause 9): one model response may ask for at
 * most `max_tool_calls=` calls (`HARNESS_MAX_TOOL_CALLS`, else the provider's `.conf`, else
 * 128). A response over it is refused whole, before it is saved or any of its calls runs:
 * the turn ends with an error naming the cap, the count and how to raise it, and the session
 * stays as it was before the request (it resumes).
 *
 * @module
 */
import { HarnessError, type HarnessEvent } from "../base/mod.ts";
import { DEFAULT_MAX_TOOL_CALLS, type ResolvedLimits } from "../providers/mod.ts";

/**
 * The refusal of a response asking for `count` tool calls, or undefined within the cap.
 * `partial`: the response was not read to its end (it asked for at least `count`).
 */
export function toolCallCapError(
  count: number,
  limits: ResolvedLimits | undefined,
  provider: string,
  partial = false,
): HarnessError | undefined {
  const cap = limits?.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS;
  if (count <= cap) return undefined;
  const from = limits?.maxToolCallsFrom ?? "the default";
  const asked = partial
    ? `at least ${count} tool calls (hs stopped reading it there)`
    : `${count} tool calls`;
  return new HarnessError(
    `the model's response asked for ${asked}, more than the cap of ${cap} ` +
      `(${from}); none of them ran and the response was not saved — if so many are ` +
      `expected, raise max_tool_calls= in the .conf of provider ${provider} or set ` +
      `HARNESS_MAX_TOOL_CALLS=${partial ? "<n>" : count}`,
    "the session is kept: resume it after raising the cap (hs resume)",
  );
}

/**
 * Watches a streaming response's tool calls: past the cap it stops forwarding events and
 * aborts the request, so a response of 20,000 calls costs no more than cap + 1 of them.
 */
export class ToolCallWatch {
  /** The request's signal: the turn's, aborted too once the response is over the cap. */
  readonly signal: AbortSignal;
  #stop = new AbortController();
  #seen = 0;
  #limits: ResolvedLimits | undefined;
  #provider: string;
  /** The refusal, once the response went over the cap. */
  over?: HarnessError;

  /** Watches one request of `provider` under `limits`, within the turn's `signal`. */
  constructor(limits: ResolvedLimits | undefined, provider: string, signal: AbortSignal) {
    this.#limits = limits;
    this.#provider = provider;
    this.signal = AbortSignal.any([signal, this.#stop.signal]);
  }

  /** Passes an event on to `emit` unless the response is over the cap. */
  forward(emit: (e: HarnessEvent) => void): (e: HarnessEvent) => void {
    return (e) => {
      if (this.over) return;
      if (e.type === "tool_call_start") {
        this.over = toolCallCapError(++this.#seen, this.#limits, this.#provider, true);
        if (this.over) {
          this.#stop.abort(this.over);
          return;
        }
      }
      emit(e);
    };
  }
}
