/**
 * The state follower for one turn: holds a JSON context and a stage name,
 * re-checks discovery before every stage, runs the stage's chain, follows
 * `next_state`, routes failures to `error`, and stops after
 * `HARNESS_MAX_TURNS` model requests.
 *
 * @module
 */
import {
  type CompactReason,
  HarnessError,
  type HarnessEvent,
  type LifecycleEvent,
  type LifecycleEvents,
  type ModelProvider,
  ownerLabel,
  type ProtocolAdapter,
  readTextOrUndefined,
  type ResolvedTool,
  resultText,
  type SkillInfo,
  statOrUndefined,
  textResult,
  type ToolSchema,
  type Usage,
} from "../base/mod.ts";
import { pointOf } from "../guards/mod.ts";
import type { ResolvedLimits } from "../providers/mod.ts";
import { skillCatalog } from "../skills/mod.ts";
import {
  addUsage,
  type Budget,
  estimateBudget,
  type FixedParts,
  planCompaction,
  type Session,
} from "../session/mod.ts";
import { compactInstruction } from "./compact_hooks.ts";
import { Continuation } from "./continuation.ts";
import { pendingCalls, unexpectedEnd } from "./loop_end.ts";
import { type ContextReport, contextSections } from "./context_report.ts";
import type { TurnContext } from "./stage.ts";
import type { StagePlace } from "./stage_runner.ts";
import { str } from "./values.ts";
import type { ToolCall, TurnApi, TurnHost } from "./turn_host.ts";

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

/** Construction parameters of a {@link Turn}. */
export interface TurnInit {
  /** The harness services the turn uses. */
  host: TurnHost;
  /** The session the turn writes to. */
  session: Session;
  /** The provider's name. */
  provider: string;
  /** The model to request. */
  model: string;
  /** The provider requests go to. */
  modelProvider: ModelProvider;
  /** Who runs the turn ("main", or a bot's principal). */
  principal: string;
  /** Cancels the turn. */
  signal: AbortSignal;
  /** Receives every event of the turn. */
  onEvent?: (event: HarnessEvent) => void;
  /** The model's context window and output limit (absent: unknown, never compacted by size). */
  limits?: ResolvedLimits;
}

/** The outcome of a compaction. */
export type CompactOutcome =
  | {
    ok: true;
    /** Seq of the summary message. */
    summarySeq: number;
    /** Context messages replaced by the summary. */
    messages: number;
    /** Estimated tokens of the next request before and after. */
    before: number;
    after: number;
  }
  | {
    ok: false;
    error: string;
    hint: string;
    /** True when there was nothing to summarize (only what is kept verbatim). */
    nothing?: boolean;
  };

/** Share of the window the verbatim tail of a compaction may hold. */
const TAIL_SHARE = 0.3;

/** A provider's refusal of a request that does not fit its context window. */
const OVERFLOW =
  /prompt is too long|context[ _-]length|context window|maximum context|context_length_exceeded|too many (input )?tokens|input is too long|exceeds? the (model's )?(context|maximum)/i;

/** Whether an error message is a provider's "the prompt does not fit" refusal. */
export function isContextOverflow(message: string): boolean {
  return OVERFLOW.test(message);
}

const promptCache = new Map<string, { mtime: number; text: string }>();

function readPrompt(path: string): string {
  const mtime = statOrUndefined(path)?.mtime?.getTime() ?? -1;
  const hit = promptCache.get(path);
  if (hit && hit.mtime === mtime) return hit.text;
  const text = (readTextOrUndefined(path) ?? "").replace(/\n+$/, "");
  promptCache.set(path, { mtime, text });
  return text;
}

/** One turn of the agent loop. */
export class Turn implements TurnApi {
  /** The session the turn writes to. */
  readonly session: Session;
  /** The provider's name. */
  readonly provider: string;
  /** The model requested. */
  readonly model: string;
  /** Aborted when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** Notes left for the turn, delivered at round and turn boundaries. */
  readonly continuation: Continuation = new Continuation();
  #h: TurnHost;
  #mp: ModelProvider;
  #principal: string;
  /** Who runs this turn ("main", or a bot's principal). */
  get principal(): string {
    return this.#principal;
  }
  #onEvent?: (event: HarnessEvent) => void;
  #usage: Usage = { input_tokens: 0, output_tokens: 0 };
  #tools?: Map<string, ResolvedTool>;
  #protocol: string;
  #executableRan = false;
  #executed = new Set<string>();
  #turnNo = 0;
  /** The model's limits (window, output). */
  readonly limits: ResolvedLimits;
  /** The last calibration of the token estimate (reported ÷ estimated). */
  #ratio = 1;
  /** What asked for the current round when a note reactivated the loop (consumed once). */
  #activation?: string[];
  /** A round started and has not ended yet. */
  #roundOpen = 0;

  /** Creates a turn; `run` runs it. */
  constructor(init: TurnInit) {
    this.#h = init.host;
    this.session = init.session;
    this.provider = init.provider;
    this.model = init.model;
    this.#mp = init.modelProvider;
    this.#principal = init.principal;
    this.signal = init.signal;
    this.#onEvent = init.onEvent;
    this.#protocol = init.modelProvider.protocol;
    this.limits = init.limits ?? { source: "unknown" };
  }

  /**
   * Records an event in the session's `.stream` (text, thinking, tool starts) and passes it to
   * `onEvent`.
   */
  emit(event: HarnessEvent): void {
    if ((event.type === "text" || event.type === "thinking") && event.recorded) {
      // already in .stream (an executable provider writes its own events)
    } else if (event.type === "text") this.session.streamEvent({ type: "text", text: event.text });
    else if (event.type === "thinking") {
      this.session.streamEvent({ type: "thinking", text: event.text });
    } else if (event.type === "tool_call_end") {
      this.session.streamEvent({
        type: "tool_start",
        id: event.id,
        name: event.name,
        input: event.input,
      });
    }
    try {
      this.#onEvent?.(event);
    } catch (err) {
      this.#h.log(`[events] listener failed: ${(err as Error).message}`);
    }
  }

  /** A lifecycle event for plugin observers, scoped to this turn's session and principal. */
  #life<E extends LifecycleEvent>(
    event: E,
    payload: Omit<LifecycleEvents[E], "sessionId" | "principal">,
  ): void {
    this.#h.lifecycle?.(
      event,
      {
        ...payload,
        sessionId: this.session.id,
        principal: this.#principal,
      } as LifecycleEvents[E],
    );
  }

  adapter(): ProtocolAdapter {
    const a = this.#h.protocol(this.#protocol);
    if (!a) {
      throw new HarnessError(
        `no adapter for protocol "${this.#protocol}" (provider ${this.provider})`,
        "use protocol=anthropic, openai or openai-responses",
      );
    }
    return a;
  }

  modelProvider(): ModelProvider {
    return this.#mp;
  }

  noteUsage(usage: Usage): void {
    addUsage(this.#usage, usage);
  }

  async #resolveTools(): Promise<Map<string, ResolvedTool>> {
    this.#tools ??= await this.#h.tools(
      this.#h.snapshot(this.provider, this.#protocol),
      this.#principal,
    );
    return this.#tools;
  }

  async toolSchemas(): Promise<ToolSchema[]> {
    const tools = await this.#resolveTools();
    return [...tools.values()].map((t) => t.schema).sort((
      a,
      b,
    ) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async executeTool(
    call: ToolCall,
    dispatched?: { result: string; error: boolean },
  ): Promise<{ result: string; error: boolean }> {
    const tools = await this.#resolveTools();
    const tool = tools.get(call.name);
    // Only an executable can have run outside hs; a built-in or plugin tool always runs here.
    const pre = tool?.owner.kind === "executable" ? dispatched : undefined;
    if (pre) this.#h.log(`[harness] tool pre-dispatched: ${call.name}`);
    this.#executed.add(call.id);
    this.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const owner = tool ? ownerLabel(tool.owner) : "";
    this.#life("tool_start", { callId: call.id, tool: call.name, owner });
    const started = performance.now();
    let result: string;
    let error: boolean;
    if (!tool) {
      result = `error: tool '${call.name}' not found`;
      error = true;
    } else {
      const cwd = this.#cwd();
      const env = this.#h.childEnv({
        stage: "tool_exec",
        session: this.session.dir,
        provider: this.provider,
        model: this.model,
        cwd,
      });
      const r = await this.#h.dispatch(
        {
          point: tool.def.point ?? pointOf(call.name),
          tool: call.name,
          owner: tool.owner,
          principal: this.#principal,
          callId: call.id,
          input: call.input,
          session: this.session.id,
        },
        (input) =>
          pre ? Promise.resolve(textResult(pre.result, pre.error)) : tool.def.execute(input, {
            cwd,
            env,
            signal: this.signal,
            sessionDir: this.session.dir,
            callId: call.id,
            log: (line) => this.#h.log(line),
            runAgent: (req) =>
              this.#h.runAgent(req, {
                session: this.session.id,
                provider: this.provider,
                model: this.model,
              }),
            skills: () => Promise.resolve(this.#skills()),
            effects: this.#h.effects,
            settings: this.#h.config,
          }),
      );
      result = resultText(r);
      error = r.isError === true;
    }
    const ms = performance.now() - started;
    this.session.streamEvent({ type: "tool_output", text: toolDisplay(call, result, error) });
    this.emit({ type: "tool_done", id: call.id, name: call.name, error, result, ms });
    this.#life("tool_done", { callId: call.id, tool: call.name, owner, error, durationMs: ms });
    return { result, error };
  }

  noteResult(call: ToolCall, result: string, error: boolean): void {
    if (this.#executed.has(call.id)) return;
    this.#executed.add(call.id);
    this.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    this.emit({ type: "tool_done", id: call.id, name: call.name, error, result, ms: 0 });
  }

  async systemParts(): Promise<string[]> {
    const sources = this.#h.promptSources(this.#principal).sort((a, b) =>
      (a.order ?? 100) - (b.order ?? 100)
    );
    const parts: string[] = [];
    for (const s of sources) parts.push(await s.render());
    const snap = this.#h.snapshot(this.provider, this.#protocol);
    for (const f of snap.promptFiles) parts.push(readPrompt(f));
    return parts;
  }

  #cwd(): string {
    return this.session.conf.cwd || this.#h.cwd;
  }

  #skills(): SkillInfo[] {
    return this.#h.skills(this.#cwd());
  }

  /** Skills visible from the turn's session. */
  skills(): Promise<SkillInfo[]> {
    return Promise.resolve(this.#skills());
  }

  /** Gives tool calls left without a result (a crash or cancel) an error result. */
  #repairDangling(reason: string | ((callId: string) => string)): void {
    this.session.refresh(true);
    const msgs = this.session.messages();
    const answered = new Set<string>();
    for (let i = msgs.length - 1; i >= 0; i--) {
      const m = msgs[i];
      if (m.role === "tool_result") answered.add(m.callId);
      else if (m.role === "assistant") {
        for (const b of m.blocks) {
          if (b.type === "tool_call" && !answered.has(b.id)) {
            const text = typeof reason === "string" ? reason : reason(b.id);
            this.session.appendToolResult(b.id, b.name, true, text);
          }
        }
        return;
      } else return;
    }
  }

  /** Where this turn's stages run. */
  #place(): StagePlace {
    return {
      snapshot: this.#h.snapshot(this.provider, this.#protocol),
      cwd: this.#cwd(),
      signal: this.signal,
      session: this.session.dir,
      provider: this.provider,
      model: this.model,
      onExecutable: () => {
        this.#executableRan = true;
      },
    };
  }

  /** The budget of the next request, given the sizes of its system prompt and tools. */
  budget(fixed: FixedParts): Budget {
    const b = estimateBudget(this.session.contextEntries(), fixed, {
      provider: this.provider,
      model: this.model,
    }, this.#ratio);
    this.#ratio = b.ratio;
    return b;
  }

  /** Tokens the next request may hold before it is compacted (undefined: never by size). */
  compactLimit(): number | undefined {
    const share = this.#h.config.compactAt;
    const window = this.limits.context;
    if (!share || !window) return undefined;
    const room = window - (this.limits.maxOutput ?? 0);
    return Math.floor(Math.min(share * window, room > 0 ? room : window));
  }

  /** The system prompt and tools as the built-in assemble hooks make them (no notes used). */
  async #fixedParts(): Promise<{ system: string; tools: unknown[]; skills: string }> {
    const parts = (await this.systemParts()).filter((p) => p.trim() !== "");
    const skills = skillCatalog(this.#skills()) ?? "";
    const tools = this.adapter().buildTools(await this.toolSchemas());
    return { system: [...parts, ...(skills ? [skills] : [])].join("\n\n"), tools, skills };
  }

  /** What the next request holds, by section, with token counts (for /context). */
  async contextReport(): Promise<ContextReport> {
    await this.#detectProtocol();
    const fixed = await this.#fixedParts();
    const toolsChars = JSON.stringify(fixed.tools).length;
    const budget = this.budget({ systemChars: fixed.system.length, toolsChars });
    return contextSections({
      provider: this.provider,
      model: this.model,
      limits: this.limits,
      compactAt: this.compactLimit(),
      budget,
      system: fixed.system.length - fixed.skills.length,
      skills: fixed.skills.length,
      toolsChars,
      tools: fixed.tools.length,
      view: this.session.contextEntries(),
      compacted: this.session.entries().filter((e) => e.compacted !== undefined).length,
    });
  }

  /**
   * Compacts the session: the older part of the context is summarized by the `compact`
   * stage (built-in `10-summarize`: one model request) into one message; the last turns
   * stay verbatim; the replaced files stay on disk, marked. `parts`: the system prompt and
   * tools of the request being prepared (default: assembled as for a request).
   */
  async compact(
    reason: CompactReason,
    opts: { focus?: string; system?: string; tools?: unknown[] } = {},
  ): Promise<CompactOutcome> {
    const hint = reason === "manual"
      ? "the session is unchanged; try again, or start a new session with /new"
      : "the session is unchanged (nothing was marked compacted); retry, compact with /compact, or set HARNESS_COMPACT_AT=off";
    try {
      if (opts.system === undefined) await this.#detectProtocol();
      this.session.refresh(true);
      let system = opts.system;
      let tools = opts.tools;
      if (system === undefined || tools === undefined) {
        const fixed = await this.#fixedParts();
        system ??= fixed.system;
        tools ??= fixed.tools;
      }
      const fixed = { systemChars: system.length, toolsChars: JSON.stringify(tools).length };
      const before = this.budget(fixed);
      const window = this.limits.context;
      const tailTokens = window
        ? TAIL_SHARE * window
        : reason === "overflow"
        ? TAIL_SHARE * before.tokens
        : Number.POSITIVE_INFINITY;
      const view = this.session.contextEntries();
      const plan = planCompaction(view, {
        keepTurns: this.#h.config.compactKeep,
        tailTokens,
        ratio: before.ratio,
      });
      if (!plan) {
        return {
          ok: false,
          error: "nothing to compact: the context holds only what is kept verbatim",
          nothing: true,
          hint:
            `the last ${this.#h.config.compactKeep} turn(s) stay verbatim (HARNESS_COMPACT_KEEP)`,
        };
      }
      const headTokens = before.tokens - Math.round(
        estimateBudget(plan.tail, { systemChars: 0, toolsChars: 0 }, {
          provider: "",
          model: "",
        }, before.ratio).tokens,
      );
      this.emit({
        type: "compact_start",
        reason,
        messages: plan.head.length,
        tokens: Math.max(0, headTokens),
      });
      const instruction = compactInstruction(opts.focus);
      const pad = (n: number) => String(n).padStart(4, "0");
      const input: Record<string, unknown> = {
        reason,
        focus: opts.focus ?? "",
        provider: this.provider,
        model: this.model,
        system,
        tools,
        messages: this.adapter().buildMessages([
          ...plan.head.map((e) => e.message),
          { role: "user", seq: 0, text: instruction },
        ]),
        instruction,
        compact: {
          from: pad(plan.head[0].summarizes?.[0] ?? plan.head[0].seq),
          to: pad(plan.head.at(-1)!.seq),
          keep_from: pad(plan.tail[0].seq),
          messages: plan.head.length,
          tokens: before.tokens,
          window: window ?? null,
        },
      };
      const ctx: TurnContext = { kind: "turn", turn: this as TurnApi, signal: this.signal };
      const r = await this.#h.stages.run("compact", input, ctx, this.#place());
      if (this.#executableRan) {
        this.session.refresh(true);
        this.#executableRan = false;
      }
      if (!r.ok) {
        const why = str(r.output.error) || "the compact stage failed";
        return { ok: false, error: `compaction failed: ${why}`, hint };
      }
      const summary = str(r.output.summary).trim();
      if (!summary) {
        return {
          ok: false,
          error: 'compaction failed: the compact stage printed no "summary"',
          hint,
        };
      }
      const u = r.output.usage as Usage | undefined;
      const usage = u && typeof u.input_tokens === "number" && typeof u.output_tokens === "number"
        ? u
        : undefined;
      if (usage) this.noteUsage(usage);
      const summarySeq = this.session.writeSummary({
        summary,
        replaces: plan.head,
        reason,
        provider: this.provider,
        model: str(r.output.model) || this.model,
        usage,
      });
      const after = this.budget(fixed);
      this.emit({
        type: "compact_done",
        reason,
        messages: plan.head.length,
        before: before.tokens,
        after: after.tokens,
        summarySeq,
      });
      return {
        ok: true,
        summarySeq,
        messages: plan.head.length,
        before: before.tokens,
        after: after.tokens,
      };
    } catch (err) {
      return { ok: false, error: `compaction failed: ${(err as Error).message}`, hint };
    }
  }

  /** True when the request in `context` (assembled) would pass the compaction threshold. */
  #overThreshold(context: Record<string, unknown>): boolean {
    const limit = this.compactLimit();
    if (limit === undefined) return false;
    const b = this.budget({
      systemChars: str(context.system).length,
      toolsChars: JSON.stringify(context.tools ?? []).length,
    });
    return b.tokens > limit;
  }

  /** The end of a boundary through the seam's hooks (fail open). */
  async #boundaryEnd(
    kind: "turn" | "round",
    record: Record<string, unknown>,
    outcome: { stop: string; error: boolean; output?: string },
  ): Promise<void> {
    try {
      await this.#h.boundaryEnd?.(kind, record, this.#principal, outcome);
    } catch (err) {
      this.#h.log(`[loop] ${kind} end: ${(err as Error).message}`);
    }
  }

  /** Ends the open round. */
  async #roundEnd(record: Record<string, unknown>, stop: string, error: boolean): Promise<void> {
    const round = this.#roundOpen;
    if (!round) return;
    this.#roundOpen = 0;
    await this.#boundaryEnd("round", { ...record, round }, { stop, error });
  }

  /**
   * At the end of a round the model ended: the loop-end addenda join the notes, and one
   * decision says whether another round runs. A cancelled turn is never reactivated.
   */
  async #reactivate(
    record: Record<string, unknown>,
    round: number,
    result: Record<string, unknown>,
  ): Promise<boolean> {
    if (this.signal.aborted || this.continuation.cancelled) return false;
    let addenda: string[] = [];
    try {
      addenda = (await this.#h.loopEnd?.({
        session: String(record.session ?? this.session.id),
        principal: this.#principal,
        round,
        output: typeof result.output === "string" ? result.output : "",
      })) ?? [];
    } catch (err) {
      this.#h.log(`[loop] loop-end addenda failed: ${(err as Error).message}`);
    }
    for (const a of addenda) this.continuation.addendum(a);
    if (this.signal.aborted || !this.continuation.shouldContinue()) return false;
    this.#activation = this.continuation.activate();
    return true;
  }

  /**
   * The request of a round with what was left for it at its start: ambient notes join the
   * system prompt; the messages that reactivated the loop close the conversation as a
   * user message of this request only (each consumed once).
   */
  #withNotes(context: Record<string, unknown>): Record<string, unknown> {
    const late = this.continuation.takeContext();
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
        messages: [...messages, ...this.adapter().buildMessages([{ role: "user", seq: 0, text }])],
      };
    }
    return out;
  }

  /** An executable provider's declared protocol (its `--defaults`), once. */
  async #detectProtocol(): Promise<void> {
    const detect = (this.#mp as { detectProtocol?: () => Promise<string> }).detectProtocol;
    if (detect) this.#protocol = await detect.call(this.#mp);
  }

  /**
   * Runs the loop, holding the session's lock (another process's turn in the same
   * session is waited for, up to HARNESS_SESSION_WAIT, then "session busy").
   */
  async run(message?: string): Promise<RunResult> {
    await this.session.lock({
      waitMs: this.#h.config.sessionWaitMs,
      signal: this.signal,
      onWait: (holder) =>
        this.emit({
          type: "notice",
          message: `session ${this.session.id} is busy (${holder} is running a turn in it); ` +
            `waiting up to ${Math.round(this.#h.config.sessionWaitMs / 1000)} s…`,
        }),
      onUnsupported: (reason) =>
        this.emit({ type: "notice", message: `${reason}; this turn runs without the lock` }),
    });
    try {
      return await this.#run(message);
    } finally {
      this.session.unlock();
    }
  }

  async #run(message?: string): Promise<RunResult> {
    const h = this.#h;
    await this.#detectProtocol();
    this.#repairDangling(
      "error: no result was recorded for this call (the previous run was interrupted)",
    );
    if (message !== undefined && message !== "") this.session.appendUser(message);
    this.emit({ type: "session", id: this.session.id, dir: this.session.dir });
    this.emit({ type: "turn_start", turn: this.session.count, message: message ?? "" });
    this.#turnNo = this.session.count;
    this.#life("turn_start", {
      turn: this.#turnNo,
      message: message ?? "",
      provider: this.provider,
      model: this.model,
    });

    const maxTurns = h.config.maxTurns;
    let state = "start";
    let context: Record<string, unknown> = {};
    let result: Record<string, unknown> = {};
    let requests = 0;
    let failed = false;
    let failure = "";
    let round = 0;
    let sendStarted = 0;
    let sendMs = 0;
    const ctx: TurnContext = { kind: "turn", turn: this as TurnApi, signal: this.signal };
    const record = { session: this.session.id, turn: this.session.count, message: message ?? "" };
    // A guard/turn may refuse the turn; hooks of the turn see its record.
    const turnRefused = await h.boundary("turn", record, this.#principal);
    if (turnRefused) {
      state = "error";
      context = { error: turnRefused };
      failed = true;
      failure = turnRefused;
    }

    // one compaction per round at most (by size before the request, or after an overflow)
    let compactedThisRound = false;
    const compactOrFail = async (reason: CompactReason, refusal = ""): Promise<boolean> => {
      compactedThisRound = true;
      const c = await this.compact(reason, {
        system: str(context.system),
        tools: Array.isArray(context.tools) ? context.tools : [],
      });
      if (c.ok) {
        state = "assemble";
        context = {};
        return true;
      }
      if (c.nothing && reason === "threshold") {
        // only the verbatim tail is left (e.g. one long first message): send it as it is
        h.log(`[loop] past the compaction threshold, but ${c.error}; sending as is`);
        return false;
      }
      failure = refusal
        ? `${refusal} — and compacting did not help: ${c.error} — ${c.hint}`
        : `${c.error} — ${c.hint}`;
      state = "error";
      context = { error: failure };
      failed = true;
      return false;
    };

    while (state) {
      if (this.signal.aborted) {
        failed = true;
        failure = "cancelled";
        break;
      }
      if (state === "send" && !compactedThisRound && this.#overThreshold(context)) {
        await compactOrFail("threshold");
        continue;
      }
      if (state === "send") {
        requests++;
        if (requests > maxTurns) {
          state = "error";
          failure = `stopped after ${maxTurns} model requests (HARNESS_MAX_TURNS=${maxTurns})`;
          context = { error: failure };
          failed = true;
          continue;
        }
        round++;
        this.#tools = undefined;
        this.emit({ type: "round_start", round });
        const roundRefused = await h.boundary("round", { ...record, round }, this.#principal);
        if (roundRefused) {
          state = "error";
          failure = roundRefused;
          context = { error: roundRefused };
          failed = true;
          continue;
        }
        this.#roundOpen = round;
        context = this.#withNotes(context);
        this.#life("round_start", { turn: this.#turnNo, round });
        this.#life("model_request", {
          round,
          provider: this.provider,
          model: this.model,
          messages: Array.isArray(context.messages) ? context.messages.length : 0,
          tools: Array.isArray(context.tools) ? context.tools.length : 0,
        });
        sendStarted = performance.now();
      }
      if (state === "assemble") this.#tools = undefined;
      await h.refreshSources?.(this.signal);
      // the place (and its snapshot of the sources) is taken after the refresh above
      const place = this.#place();
      if (this.#executableRan) {
        this.session.refresh(true);
        this.#executableRan = false;
      }
      this.emit({ type: "stage", stage: state });
      const r = await h.stages.run(state, context, ctx, place);
      if (state === "send") {
        sendMs = performance.now() - sendStarted;
        if (
          !r.ok && !compactedThisRound && !this.signal.aborted &&
          isContextOverflow(str(r.output.error))
        ) {
          h.log(`[loop] the provider refused the request as too long; compacting`);
          await compactOrFail("overflow", str(r.output.error));
          continue;
        }
        if (r.ok) compactedThisRound = false;
        if (!r.ok) {
          this.#life("model_response", {
            round,
            provider: this.provider,
            model: this.model,
            stop: "error",
            usage: { input_tokens: 0, output_tokens: 0 },
            durationMs: sendMs,
          });
        }
      }
      if (state === "receive" && r.ok) {
        const next = r.output.next_state;
        const stop = next === "tool_exec" ? "tool_calls" : "end";
        const u = r.output.usage as Usage | undefined;
        this.#life("model_response", {
          round,
          provider: this.provider,
          model: typeof r.output.model === "string" ? r.output.model : this.model,
          stop,
          usage: {
            input_tokens: Number(u?.input_tokens ?? 0),
            output_tokens: Number(u?.output_tokens ?? 0),
          },
          durationMs: sendMs,
        });
        this.emit({ type: "round_end", round, stop });
        this.#life("round_end", { turn: this.#turnNo, round, stop });
      }
      if (!r.ok) {
        if (this.signal.aborted) {
          failed = true;
          failure = "cancelled";
          break;
        }
        if (state === "error") {
          failed = true;
          failure = typeof r.output.error === "string" ? r.output.error : failure;
          result = r.output;
          break;
        }
        failed = true;
        failure = typeof r.output.error === "string" ? r.output.error : `stage ${state} failed`;
        h.log(`[loop] ${r.hook} failed during ${state}: ${failure}`);
        state = "error";
        context = r.output;
        continue;
      }
      result = r.output;
      const ran = state;
      state = typeof result.next_state === "string" ? result.next_state : "";
      context = { ...result };
      delete context.next_state;
      const empty = h.stages.isEmpty(ran, place.snapshot);
      const pending = () => pendingCalls(this.session);
      const wrong = unexpectedEnd({
        stage: ran,
        next: state,
        output: result,
        last: r.last,
        empty,
        pending,
      });
      if (wrong) {
        [failed, failure, state, context] = [true, wrong, "error", { error: wrong }];
        h.log(`[loop] ${wrong}`);
        continue;
      }
      // The round ends: its hooks may leave notes; when the model ended it, the notes of
      // every plugin and the loop-end addenda decide together whether another round runs.
      if (
        (ran === "receive" && state === "done") || (ran === "tool_done" && state === "assemble")
      ) {
        const ended = ran === "receive" ? "end" : "tool_calls";
        await this.#roundEnd(record, ended, false);
        if (ended === "end" && await this.#reactivate(record, round, result)) {
          state = "assemble";
          context = {};
        }
      }
    }

    const cancelled = failure === "cancelled";
    if (cancelled) {
      this.continuation.cancel();
      this.#repairDangling("error: cancelled by the user");
    } else if (failed) {
      // Say now why a call got no result (a gate refused it, a hook failed), not
      // "interrupted" at the next run.
      this.#repairDangling((id) =>
        this.#executed.has(id)
          ? `error: the result of this call was not saved: ${failure}`
          : `error: this call was not run: ${failure}`
      );
    }
    if (this.#roundOpen) await this.#roundEnd(record, cancelled ? "cancelled" : "error", true);
    const output = typeof result.output === "string" ? result.output : "";
    await this.#boundaryEnd("turn", record, {
      stop: cancelled ? "cancelled" : failed ? "error" : "end",
      error: failed,
      output: cancelled ? "" : output,
    });
    this.continuation.expire();
    this.session.streamEvent({ type: "done" });
    this.session.closeStream();
    this.emit({ type: "turn_end", output, error: failed });
    this.#life("turn_end", {
      turn: this.#turnNo,
      error: failed,
      cancelled,
      rounds: round,
      usage: { ...this.#usage },
    });
    return {
      output: cancelled ? "" : output,
      error: failed,
      message: failed ? failure : undefined,
      sessionId: this.session.id,
      sessionDir: this.session.dir,
      provider: this.provider,
      model: this.model,
      usage: { ...this.#usage },
      cancelled,
    };
  }
}

/** The short display of a tool call written to `.stream` as `tool_output`. */
function toolDisplay(call: ToolCall, result: string, error: boolean): string {
  const head = `── ${call.name} ${"─".repeat(Math.max(3, 50 - call.name.length))}`;
  const input = call.input as Record<string, unknown> | undefined;
  const args = call.name === "bash" && typeof input?.command === "string"
    ? `  ${input.command}`
    : Object.entries(input ?? {}).map(([k, v]) =>
      `  ${k}=${typeof v === "string" ? v : JSON.stringify(v)}`
    )
      .join("\n");
  const lines = result.split("\n");
  const shown = lines.slice(0, 30).map((l) => `  ${l}`).join("\n");
  const more = lines.length > 30 ? `\n  ... (${lines.length - 30} more lines)` : "";
  return `${head}\n${args}\n${shown}${more}${error ? "\n  (error)" : ""}`;
}
