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
import type { Session } from "../session/mod.ts";
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
  /** The tool calls of the last model answer that have no result yet. */
  pending(): { id: string; name: string }[];
}

/**
 * The tool calls of a session's last assistant message that have no result yet. `reread`:
 * read every message file again (after an executable hook may have rewritten one), not only
 * the new ones.
 */
export function pendingCalls(session: Session, reread = false): { id: string; name: string }[] {
  session.refresh(reread);
  const msgs = session.messages();
  const answered = new Set<string>();
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m.role === "tool_result") answered.add(m.callId);
    else if (m.role === "assistant") {
      return m.blocks.flatMap((b) =>
        b.type === "tool_call" && !answered.has(b.id) ? [{ id: b.id, name: b.name }] : []
      );
    } else return [];
  }
  return [];
}

/** Why the loop may not end (or go on) this way, or undefined when it may. */
export function unexpectedEnd(end: ChainEnd): string | undefined {
  if (end.empty && !CONTINUING_STAGES.has(end.stage) && !TERMINAL.has(end.stage)) {
    return `no hook handles stage "${end.stage}" (a hook routed there with next_state); ` +
      `add hooks.d/${end.stage}/ hooks or fix the next_state that names it`;
  }
  const by = end.last && !end.last.startsWith(`${end.stage}/`)
    ? `hook ${end.last}`
    : `the ${end.stage} chain`;
  if (end.next === "" && CONTINUING_STAGES.has(end.stage)) {
    const said = str(end.output.output);
    const output = said ? ` (its output: ${JSON.stringify(said.slice(0, 200))})` : "";
    return `${by} ended the loop during ${end.stage} without a next_state${output}; ` +
      `every hook of ${end.stage} must pass next_state on (or exit non-zero to fail the turn) — ` +
      `fix or remove the hook`;
  }
  if (end.stage === "tool_exec" && end.next === "tool_done") {
    const id = str(end.output.call_id);
    const pending = end.pending();
    if (!pending.some((c) => c.id === id)) {
      return `${by} passed a result on to tool_done during tool_exec for call_id ` +
        `${JSON.stringify(id)}, which is no pending tool call (pending: ${listed(pending)}); ` +
        `a tool_exec hook must pass call_id, name and result on — fix or remove the hook`;
    }
  }
  if ((end.stage === "tool_exec" || end.stage === "tool_done") && end.next === "assemble") {
    const pending = end.pending();
    if (pending.length > 0) {
      return `${by} went on to assemble during ${end.stage} leaving tool call(s) ` +
        `${listed(pending)} neither run nor answered — fix or remove the hook`;
    }
  }
  return undefined;
}

function listed(calls: { id: string; name: string }[]): string {
  if (calls.length === 0) return "none";
  const shown = calls.slice(0, 5).map((c) => `${c.id} (${c.name})`).join(", ");
  return calls.length > 5 ? `${shown} and ${calls.length - 5} more` : shown;
}
