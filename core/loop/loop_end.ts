/**
 * Silent ends (issue 23, cause 10): the loop ends when a chain names no next stage — which
 * is how `done` and `error` end it, and how a user's own stage may. A turn stage whose
 * built-in chain always names the next one (`start`, `assemble`, `send`, `receive`,
 * `tool_exec`, `tool_done`) ending the loop means a hook replaced or broke it; that end is
 * an error naming the stage and the hook (the loop's failure path then answers every call
 * still pending, so the session stays whole and exits non-zero). So is a route to a stage no
 * hook handles (its empty chain would end the loop without a word).
 *
 * @module
 */
import { str } from "./values.ts";

/** Turn stages whose built-in chain always names the next stage. */
export const CONTINUING_STAGES: ReadonlySet<string> = new Set([
  "start",
  "assemble",
  "send",
  "receive",
  "tool_exec",
  "tool_done",
]);

/** Stages that end the loop (they may have no hook of their own). */
const TERMINAL: ReadonlySet<string> = new Set(["done", "error"]);

/** What the loop knows when a chain has run. */
export interface ChainEnd {
  /** The stage that ran. */
  stage: string;
  /** The next stage it named ("" for none). */
  next: string;
  /** The chain's output. */
  output: Record<string, unknown>;
  /** The hook whose output is the chain's, when known. */
  last?: string;
  /** True when the stage had no hook at all. */
  empty: boolean;
}

/** Why the loop may not end (or go on) this way, or undefined when it may. */
export function unexpectedEnd(end: ChainEnd): string | undefined {
  if (end.empty && !CONTINUING_STAGES.has(end.stage) && !TERMINAL.has(end.stage)) {
    return `no hook handles stage "${end.stage}" (a hook routed there with next_state); ` +
      `add hooks.d/${end.stage}/ hooks or fix the next_state that names it`;
  }
  if (end.next !== "" || !CONTINUING_STAGES.has(end.stage)) return undefined;
  const by = end.last && !end.last.startsWith(`${end.stage}/`)
    ? `hook ${end.last}`
    : `the ${end.stage} chain`;
  const said = str(end.output.output);
  const output = said ? ` (its output: ${JSON.stringify(said.slice(0, 200))})` : "";
  return `${by} ended the loop during ${end.stage} without a next_state${output}; ` +
    `every hook of ${end.stage} must pass next_state on (or exit non-zero to fail the turn) — ` +
    `fix or remove the hook`;
}
