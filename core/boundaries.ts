/**
 * The turn and round boundaries' seam: a turn or a round starting (guards may
 * refuse it: `guard/turn`, `guard/round`) and ending (hooks observe it, and
 * may leave notes: `hook/round :post`). A boundary is not a tool: it passes
 * the ceiling unasked and its core runs nothing; the guards and hooks of its
 * point are the dispatcher's, with their semantics.
 *
 * @module
 */
import { resultText, textResult } from "./base/mod.ts";
import type { Dispatcher, EffectCall } from "./guards/mod.ts";
import type { TurnHost } from "./loop/mod.ts";

/** The boundary kinds. */
export type BoundaryKind = "turn" | "round";

/** True when an effect call is a boundary (not a tool call: no ceiling applies). */
export function isBoundary(call: EffectCall): boolean {
  return call.point === "turn" || call.point === "round";
}

/** The call of one boundary phase. */
function boundaryCall(
  kind: BoundaryKind,
  phase: "start" | "end",
  record: Record<string, unknown>,
  principal: string,
  extra: Record<string, unknown> = {},
): EffectCall {
  return {
    point: kind,
    tool: kind,
    owner: { kind: "builtin", id: "core" },
    principal,
    callId: `${kind}-${phase === "end" ? "end-" : ""}${crypto.randomUUID().slice(0, 8)}`,
    input: { ...record, phase, ...extra },
    session: typeof record.session === "string" ? record.session : undefined,
  };
}

/** The boundary start and end a turn is given, through `dispatcher`. */
export function boundarySeam(
  dispatcher: Pick<Dispatcher, "dispatch">,
): Pick<TurnHost, "boundary" | "boundaryEnd"> {
  return {
    boundary: async (kind, record, principal) => {
      const r = await dispatcher.dispatch(
        boundaryCall(kind, "start", record, principal),
        () => Promise.resolve(textResult("")),
      );
      return r.isError ? resultText(r) : undefined;
    },
    boundaryEnd: async (kind, record, principal, outcome) => {
      await dispatcher.dispatch(
        boundaryCall(kind, "end", record, principal, { stop: outcome.stop }),
        () => Promise.resolve(textResult(outcome.output ?? outcome.stop, outcome.error)),
      );
    },
  };
}
