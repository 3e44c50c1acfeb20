/**
 * The observer of a turn that knows what the built-in stages mean: `send` is
 * a model request (counted against the cap, preceded by compaction past the
 * threshold, opening a round through the `round` boundary), `receive` ends
 * the model's part of a round, `receive → done` and `tool_done → assemble`
 * end a round (its boundary's hooks may leave notes), a note or a loop-end
 * addendum reactivates the loop; lifecycle events and the turn's own
 * boundaries at its start and end. The follower (`Turn`) only calls
 * it; it is handed the turn's services and budget, never the Turn.
 *
 * @module
 */
import type { CompactReason, MessageImage, Usage } from "../base/mod.ts";
import type { ChainResult } from "./chain.ts";
import { type Compaction, isContextOverflow } from "./compaction.ts";
import { pendingCalls, unexpectedEnd } from "./loop_end.ts";
import type { TurnServices } from "./turn_services.ts";
import type { Step, TurnEnd, TurnObserver } from "./turn_observer.ts";
import { str } from "./values.ts";

/** The rounds of one turn, observed. */
export class Rounds implements TurnObserver {
  #s: TurnServices;
  #c: Compaction;
  /** The turn's record, as its boundaries see it. */
  #record: Record<string, unknown> = {};
  #turnNo = 0;
  /** Rounds started (model requests admitted). */
  #round = 0;
  /** A round started and has not ended yet. */
  #roundOpen = 0;
  /** One compaction per round at most (by size before the request, or after an overflow). */
  #compacted = false;
  #sendStarted = 0;
  #sendMs = 0;
  /** What asked for the current round when a note reactivated the loop (consumed once). */
  #activation?: string[];

  /** Creates the observer of one turn from its services and budget. */
  constructor(services: TurnServices, compaction: Compaction) {
    this.#s = services;
    this.#c = compaction;
  }

  /** The turn starts: dangling calls repaired, the message saved, the `turn` boundary asked. */
  async begin(message?: string, images?: MessageImage[]): Promise<string | undefined> {
    const s = this.#s;
    await s.detectProtocol();
    s.tools.repairDangling(
      "error: no result was recorded for this call (the previous run was interrupted)",
    );
    if ((message !== undefined && message !== "") || images?.length) {
      s.session.appendUser(message ?? "", images);
    }
    s.emit({ type: "session", id: s.session.id, dir: s.session.dir });
    s.emit({ type: "turn_start", turn: s.session.count, message: message ?? "" });
    this.#turnNo = s.session.count;
    s.life("turn_start", {
      turn: this.#turnNo,
      message: message ?? "",
      provider: s.provider,
      model: s.model,
    });
    this.#record = { session: s.session.id, turn: s.session.count, message: message ?? "" };
    // A guard/turn may refuse the turn; hooks of the turn see its record.
    return await s.host.boundary("turn", this.#record, s.principal);
  }

  /** Before a stage: a new round opens at `send` (compaction first when past the threshold). */
  async enter(
    state: string,
    context: Record<string, unknown>,
    admit: () => string | undefined,
  ): Promise<Step> {
    const s = this.#s;
    if (state === "assemble") s.invalidateTools();
    if (state !== "send") return { go: "run", context };
    if (!this.#compacted && this.#c.overThreshold(context)) {
      return await this.#compactOrFail("threshold", context);
    }
    const capped = admit();
    if (capped) return { go: "fail", error: capped };
    const round = ++this.#round;
    s.invalidateTools();
    s.emit({ type: "round_start", round });
    const refused = await s.host.boundary("round", { ...this.#record, round }, s.principal);
    if (refused) return { go: "fail", error: refused };
    this.#roundOpen = round;
    const sent = this.#withNotes(context);
    s.life("round_start", { turn: this.#turnNo, round });
    s.life("model_request", {
      round,
      provider: s.provider,
      model: s.model,
      messages: Array.isArray(sent.messages) ? sent.messages.length : 0,
      tools: Array.isArray(sent.tools) ? sent.tools.length : 0,
    });
    this.#sendStarted = performance.now();
    return { go: "run", context: sent };
  }

  /** After a stage: the model's response observed; a "too long" refusal compacts once. */
  async ran(state: string, context: Record<string, unknown>, r: ChainResult): Promise<Step | void> {
    const s = this.#s;
    if (state === "send") {
      this.#sendMs = performance.now() - this.#sendStarted;
      const refusal = str(r.output.error);
      if (!r.ok && !this.#compacted && !s.signal.aborted && isContextOverflow(refusal)) {
        s.host.log(`[loop] the provider refused the request as too long; compacting`);
        return await this.#compactOrFail("overflow", context, refusal);
      }
      if (r.ok) this.#compacted = false;
      else this.#response("error", s.model, undefined);
    }
    if (state === "receive" && r.ok) {
      const stop = r.output.next_state === "tool_exec" ? "tool_calls" : "end";
      const model = typeof r.output.model === "string" ? r.output.model : s.model;
      this.#response(stop, model, r.output.usage as Usage | undefined);
      s.emit({ type: "round_end", round: this.#round, stop });
      s.life("round_end", { turn: this.#turnNo, round: this.#round, stop });
    }
    if (r.ok) {
      // a turn stage that ends the loop, drops a call or routes nowhere is an error (cause 10)
      const wrong = unexpectedEnd({
        stage: state,
        next: str(r.output.next_state),
        output: r.output,
        last: r.last,
        empty: s.lastStageWasEmpty(),
        pending: () => pendingCalls(s.session),
      });
      if (wrong) {
        s.host.log(`[loop] ${wrong}`);
        return { go: "fail", error: wrong };
      }
    }
  }

  /**
   * A transition: a round ends at `receive → done` (the model ended it) and at
   * `tool_done → assemble`; when the model ended it, the notes of every plugin and the
   * loop-end addenda decide together whether another round runs.
   */
  async transition(
    from: string,
    to: string,
    output: Record<string, unknown>,
  ): Promise<{ state: string; context: Record<string, unknown> } | void> {
    if (!((from === "receive" && to === "done") || (from === "tool_done" && to === "assemble"))) {
      return;
    }
    const ended = from === "receive" ? "end" : "tool_calls";
    await this.#roundEnd(ended, false);
    if (ended === "end" && await this.#reactivate(output)) {
      return { state: "assemble", context: {} };
    }
  }

  /** The turn ends: calls without a result answered, the open round and the turn closed. */
  async end(e: TurnEnd): Promise<void> {
    const s = this.#s;
    if (e.cancelled) {
      s.continuation.cancel();
      s.tools.repairDangling("error: cancelled by the user");
    } else if (e.failed) {
      // Say now why a call got no result (a gate refused it, a hook failed), not
      // "interrupted" at the next run.
      s.tools.repairDangling((id) =>
        s.tools.ran(id)
          ? `error: the result of this call was not saved: ${e.failure}`
          : `error: this call was not run: ${e.failure}`
      );
    }
    if (this.#roundOpen) await this.#roundEnd(e.cancelled ? "cancelled" : "error", true);
    await this.#boundaryEnd("turn", this.#record, {
      stop: e.cancelled ? "cancelled" : e.failed ? "error" : "end",
      error: e.failed,
      output: e.cancelled ? "" : e.output,
    });
    s.continuation.expire();
    s.session.streamEvent({ type: "done" });
    s.session.closeStream();
    s.emit({ type: "turn_end", output: e.output, error: e.failed });
    s.life("turn_end", {
      turn: this.#turnNo,
      error: e.failed,
      cancelled: e.cancelled,
      rounds: this.#round,
      usage: s.usage(),
    });
  }

  /** The model's response of the current round, for lifecycle observers. */
  #response(stop: string, model: string, u: Usage | undefined): void {
    const s = this.#s;
    s.life("model_response", {
      round: this.#round,
      provider: s.provider,
      model,
      stop,
      usage: {
        input_tokens: Number(u?.input_tokens ?? 0),
        output_tokens: Number(u?.output_tokens ?? 0),
      },
      durationMs: this.#sendMs,
    });
  }

  /** Compacts once this round; the request is assembled again, or the turn fails. */
  async #compactOrFail(
    reason: CompactReason,
    context: Record<string, unknown>,
    refusal = "",
  ): Promise<Step> {
    this.#compacted = true;
    const c = await this.#c.compact(reason, {
      system: str(context.system),
      tools: Array.isArray(context.tools) ? context.tools : [],
    });
    if (c.ok) return { go: "to", state: "assemble", context: {} };
    if (c.nothing && reason === "threshold") {
      // only the verbatim tail is left (e.g. one long first message): send it as it is
      this.#s.host.log(`[loop] past the compaction threshold, but ${c.error}; sending as is`);
      return { go: "to", state: "send", context };
    }
    const error = refusal
      ? `${refusal} — and compacting did not help: ${c.error} — ${c.hint}`
      : `${c.error} — ${c.hint}`;
    return { go: "fail", error };
  }

  /** The end of a boundary through the boundary seam's hooks (fail open). */
  async #boundaryEnd(
    kind: "turn" | "round",
    record: Record<string, unknown>,
    outcome: { stop: string; error: boolean; output?: string },
  ): Promise<void> {
    try {
      await this.#s.host.boundaryEnd?.(kind, record, this.#s.principal, outcome);
    } catch (err) {
      this.#s.host.log(`[loop] ${kind} end: ${(err as Error).message}`);
    }
  }

  /** Ends the open round. */
  async #roundEnd(stop: string, error: boolean): Promise<void> {
    const round = this.#roundOpen;
    if (!round) return;
    this.#roundOpen = 0;
    await this.#boundaryEnd("round", { ...this.#record, round }, { stop, error });
  }

  /**
   * At the end of a round the model ended: the loop-end addenda join the notes, and one
   * decision says whether another round runs. A cancelled turn is never reactivated.
   */
  async #reactivate(result: Record<string, unknown>): Promise<boolean> {
    const s = this.#s;
    if (s.signal.aborted || s.continuation.cancelled) return false;
    let addenda: string[] = [];
    try {
      addenda = (await s.host.loopEnd?.({
        session: String(this.#record.session ?? s.session.id),
        principal: s.principal,
        round: this.#round,
        output: typeof result.output === "string" ? result.output : "",
      })) ?? [];
    } catch (err) {
      s.host.log(`[loop] loop-end addenda failed: ${(err as Error).message}`);
    }
    for (const a of addenda) s.continuation.addendum(a);
    if (s.signal.aborted || !s.continuation.shouldContinue()) return false;
    this.#activation = s.continuation.activate();
    return true;
  }

  /**
   * The request of a round with what was left for it at its start: ambient notes join the
   * system prompt; the messages that reactivated the loop close the conversation as a
   * user message of this request only (each consumed once).
   */
  #withNotes(context: Record<string, unknown>): Record<string, unknown> {
    const s = this.#s;
    const late = s.continuation.takeContext();
    let out = context;
    if (late.length) {
      const system = typeof out.system === "string" ? out.system : "";
      out = { ...out, system: [system, ...late].filter((p) => p.trim() !== "").join("\n\n") };
    }
    if (this.#activation?.length) {
      const text = this.#activation.join("\n\n");
      this.#activation = undefined;
      const messages = Array.isArray(out.messages) ? out.messages : [];
      out = {
        ...out,
        messages: [...messages, ...s.adapter().buildMessages([{ role: "user", seq: 0, text }])],
      };
    }
    return out;
  }
}
