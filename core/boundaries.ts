/**
 * The turn and round boundaries' seam: a turn or a round starting (guards may
 * refuse it: `guard/turn`, `guard/round`) and ending (hooks observe it, and
 * may leave notes: `hook/round :post`). A boundary is not a tool call: it
 * never enters the dispatcher, so no ceiling, floor, permission record or
 * `tool_execution` audit event applies to it. Its guards and hooks are those
 * of the effect seam (the embedder's, then `registries.guards` and
 * `registries.effectHooks`), run by the same chains (`guards/chain.ts`) with
 * the same semantics: the guards in order (a refusal's text, `guard/retry`,
 * a failing guard refuses), the hooks in parallel (fail open).
 *
 * - start: the guards of the point around the `:pre` hooks; the refusal's
 *   reason stops the turn (or round).
 * - end: the `:post` hooks (`:post-fail` when the turn or round ended in an
 *   error); guards do not gate an end.
 *
 * @module
 */
import { resultText, textResult } from "./base/mod.ts";
import {
  type EffectCall,
  type Guard,
  guardsFor,
  type Hook,
  hooksAt,
  type SeamChains,
} from "./guards/mod.ts";

/** The boundary kinds. */
export type BoundaryKind = "turn" | "round";

/** How a turn or a round ended, as its end hooks see it. */
export interface BoundaryOutcome {
  /** Why it stopped (`end`, `tool_calls`, `error`, `cancelled`, …). */
  stop: string;
  /** True when it ended in an error. */
  error: boolean;
  /** The turn's output (the stop reason when absent). */
  output?: string;
}

/** What the boundary seam is built from (the effect seam's own sources). */
export interface BoundarySeamInit {
  /** The guards, read at each boundary. */
  guards: () => Guard[];
  /** The hooks, read at each boundary. */
  hooks: () => Hook[];
  /** The chains, shared with the dispatcher (one re-entrancy count). */
  chains: SeamChains;
}

/** The call a boundary's guards and hooks see: its record as the input, with its phase. */
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

/** Turn and round boundaries through their guards and hooks (never the dispatcher). */
export class BoundarySeam {
  #o: BoundarySeamInit;

  /** Creates the seam from the effect seam's guards, hooks and chains. */
  constructor(init: BoundarySeamInit) {
    this.#o = init;
  }

  /**
   * A turn or a round starts: resolves to the refusal when a guard refuses it — the reason the
   * turn (or round) fails with, without the `error: ` of a tool result (the turn's error display
   * adds it).
   */
  async start(
    kind: BoundaryKind,
    record: Record<string, unknown>,
    principal: string,
  ): Promise<string | undefined> {
    const call = boundaryCall(kind, "start", record, principal);
    const hooks = hooksAt(this.#o.hooks(), kind);
    const { chains } = this.#o;
    const { result } = await chains.guard(
      guardsFor(this.#o.guards(), call),
      call,
      async (value) => {
        await chains.observe(hooks, (h) => h.pre?.(value, { ...call, input: value }));
        return textResult("");
      },
    );
    return result.isError ? resultText(result).replace(/^error: /, "") : undefined;
  }

  /** A turn or a round ended: its hooks observe the outcome (fail open; notes they leave stay). */
  async end(
    kind: BoundaryKind,
    record: Record<string, unknown>,
    principal: string,
    outcome: BoundaryOutcome,
  ): Promise<void> {
    const call = boundaryCall(kind, "end", record, principal, { stop: outcome.stop });
    const hooks = hooksAt(this.#o.hooks(), kind);
    const result = textResult(outcome.output ?? outcome.stop, outcome.error);
    if (result.isError) {
      await this.#o.chains.observe(
        hooks,
        (h) => h.postFail?.(call.input, resultText(result), call),
      );
    } else {
      await this.#o.chains.observe(hooks, (h) => h.post?.(call.input, result, call));
    }
  }
}
