/**
 * The state follower for one turn: holds a JSON context and a stage name,
 * runs the stage's chain, follows `next_state`, routes failures to `error`,
 * stops after `HARNESS_MAX_TURNS` model requests and at cancellation. It
 * knows the stages `start` and `error` only: what the others mean (rounds,
 * model requests, compaction, notes) is its observer's ({@link Rounds}),
 * which it asks before and after each stage and at each transition
 * `(from, to, output)`. What hooks reach is {@link TurnServices}.
 *
 * @module
 */
import type { CompactReason, HarnessEvent, MessageImage, Usage } from "../base/mod.ts";
import type { ResolvedLimits } from "../providers/mod.ts";
import type { Session } from "../session/mod.ts";
import { Compaction, type CompactOutcome } from "./compaction.ts";
import type { Continuation } from "./continuation.ts";
import type { ContextReport } from "./context_report.ts";
import { Rounds } from "./rounds.ts";
import type { TurnObserver } from "./turn_observer.ts";
import { type TurnInit, TurnServices } from "./turn_services.ts";

export { type CompactOutcome, isContextOverflow } from "./compaction.ts";

/** The result of one run (a user message until `done`). */
export interface RunResult {
  /** The model's final answer (or the error text). */
  output: string;
  /** True when the run ended in an error. */
  error: boolean;
  /** The error message when `error`. */
  message?: string;
  /** The session's id. */
  sessionId: string;
  /** The session's directory. */
  sessionDir: string;
  /** The provider used. */
  provider: string;
  /** The model used. */
  model: string;
  /** Tokens used by all the run's model requests. */
  usage: Usage;
  /** True when the run was cancelled. */
  cancelled: boolean;
}

/** One turn of the agent loop. */
export class Turn {
  /** What the turn's hooks reach (session, adapter, tools, prompts, events). */
  readonly services: TurnServices;
  /** The model's limits (window, output). */
  readonly limits: ResolvedLimits;
  #budget: Compaction;
  #observer: TurnObserver;

  /** Creates a turn; `run` runs it. */
  constructor(init: TurnInit) {
    const s = new TurnServices(init);
    this.services = s;
    this.limits = init.limits ?? { source: "unknown" };
    this.#budget = new Compaction({
      session: s.session,
      provider: s.provider,
      model: s.model,
      adapter: () => s.adapter(),
      stages: (stage, input) => s.runStageSynced(stage, input),
      config: init.host.config,
      limits: this.limits,
      emit: (e) => s.emit(e),
      parts: async () => {
        await s.detectProtocol();
        return await s.fixedParts();
      },
      noteUsage: (u) => s.noteUsage(u),
    });
    this.#observer = new Rounds(s, this.#budget);
  }

  /** The session the turn writes to. */
  get session(): Session {
    return this.services.session;
  }
  /** Who runs this turn ("main", or a bot's principal). */
  get principal(): string {
    return this.services.principal;
  }
  /** Notes left for the turn, delivered at round and turn boundaries. */
  get continuation(): Continuation {
    return this.services.continuation;
  }

  /** Records an event of the turn (`.stream`) and passes it to `onEvent`. */
  emit(event: HarnessEvent): void {
    this.services.emit(event);
  }

  /** What the next request holds, by section, with token counts (for /context). */
  contextReport(): Promise<ContextReport> {
    return this.#budget.report();
  }

  /** Compacts the session now (see {@link Compaction.compact}). */
  compact(
    reason: CompactReason,
    opts: { focus?: string; system?: string; tools?: unknown[] } = {},
  ): Promise<CompactOutcome> {
    return this.#budget.compact(reason, opts);
  }

  /**
   * Runs the loop, holding the session's lock (another process's turn in the same
   * session is waited for, up to HARNESS_SESSION_WAIT, then "session busy").
   */
  async run(message?: string, images?: MessageImage[]): Promise<RunResult> {
    const s = this.services;
    const waitMs = s.host.config.sessionWaitMs;
    await s.session.lock({
      waitMs,
      signal: s.signal,
      onWait: (holder) =>
        this.emit({
          type: "notice",
          message: `session ${s.session.id} is busy (${holder} is running a turn in it); ` +
            `waiting up to ${Math.round(waitMs / 1000)} s…`,
        }),
      onUnsupported: (reason) =>
        this.emit({ type: "notice", message: `${reason}; this turn runs without the lock` }),
    });
    try {
      return await this.#follow(message, images);
    } finally {
      s.session.unlock();
    }
  }

  /** Follows `next_state` from `start` until no state is left. */
  async #follow(message?: string, images?: MessageImage[]): Promise<RunResult> {
    const s = this.services;
    const o = this.#observer;
    const maxTurns = s.host.config.maxTurns;
    let state = "start";
    let context: Record<string, unknown> = {};
    let result: Record<string, unknown> = {};
    let failure: string | undefined;
    const fail = (error: string) => {
      failure = error;
      state = "error";
      context = { error };
    };
    let requests = 0;
    const admit = () =>
      ++requests > maxTurns
        ? `stopped after ${maxTurns} model requests (HARNESS_MAX_TURNS=${maxTurns})`
        : undefined;
    const refused = await o.begin(message, images);
    if (refused) fail(refused);
    while (state) {
      if (s.signal.aborted) {
        failure = "cancelled";
        break;
      }
      const step = await o.enter(state, context, admit);
      if (step.go === "fail") fail(step.error);
      else if (step.go === "to") [state, context] = [step.state, step.context];
      if (step.go !== "run") continue;
      context = step.context;
      await s.host.refreshSources?.(s.signal);
      s.emit({ type: "stage", stage: state });
      const r = await s.runStage(state, context);
      const redirect = await o.ran(state, context, r);
      if (redirect?.go === "fail") fail(redirect.error);
      else if (redirect?.go === "to") [state, context] = [redirect.state, redirect.context];
      if (redirect) continue;
      const error = typeof r.output.error === "string" ? r.output.error : undefined;
      if (!r.ok && s.signal.aborted) {
        failure = "cancelled";
        break;
      }
      if (!r.ok && state === "error") {
        failure = error ?? failure ?? "";
        result = r.output;
        break;
      }
      if (!r.ok) {
        failure = error ?? `stage ${state} failed`;
        s.host.log(`[loop] ${r.hook} failed during ${state}: ${failure}`);
        [state, context] = ["error", r.output];
        continue;
      }
      result = r.output;
      const from = state;
      state = typeof result.next_state === "string" ? result.next_state : "";
      context = { ...result };
      delete context.next_state;
      const next = await o.transition(from, state, result);
      if (next) [state, context] = [next.state, next.context];
    }
    const failed = failure !== undefined;
    const cancelled = failure === "cancelled";
    const output = typeof result.output === "string" ? result.output : "";
    await o.end({ failed, failure: failure ?? "", cancelled, output });
    return {
      output: cancelled ? "" : output,
      error: failed,
      message: failed ? failure : undefined,
      sessionId: s.session.id,
      sessionDir: s.session.dir,
      provider: s.provider,
      model: s.model,
      usage: s.usage(),
      cancelled,
    };
  }
}
