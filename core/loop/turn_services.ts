/**
 * What the hooks of a turn reach ({@link TurnApi}): the session, the adapter,
 * the tool schemas, the system parts and skills, the event sink — and one
 * {@link ToolRunner} that owns the tool context and every `.stream` and
 * lifecycle write of a tool call. Built from a {@link TurnHost} and the
 * turn's own facts; the follower and its observers are handed this, never
 * the harness.
 *
 * @module
 */
import {
  checkedToolResult,
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
  yamlLoading,
} from "../base/mod.ts";
import { pointOf } from "../guards/mod.ts";
import { skillCatalog } from "../skills/mod.ts";
import type { ResolvedLimits } from "../providers/mod.ts";
import { addUsage, type Session } from "../session/mod.ts";
import type { ChainResult } from "./chain.ts";
import { Continuation } from "./continuation.ts";
import { pendingCalls } from "./loop_end.ts";
import type { TurnContext } from "./stage.ts";
import type { StagePlace } from "./stage_runner.ts";
import type { ToolCall, TurnApi, TurnHost } from "./turn_host.ts";

/** The facts of one turn its services are built from. */
export interface TurnFacts {
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
}

/** Construction parameters of a `Turn`: the facts of its services, and the model's limits. */
export interface TurnInit extends TurnFacts {
  /** The model's context window and output limit (absent: unknown, never compacted by size). */
  limits?: ResolvedLimits;
}

/** The system prompt and tools as the built-in assemble hooks make them (no notes used). */
export interface FixedRequestParts {
  /** The system prompt, skills included. */
  system: string;
  /** The tools in the protocol's shape. */
  tools: unknown[];
  /** The skills block alone (part of `system`). */
  skills: string;
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

/** The services of one running turn: what its hooks reach through `ctx.turn`. */
export class TurnServices implements TurnApi {
  /** The session the turn writes to. */
  readonly session: Session;
  /** The provider's name. */
  readonly provider: string;
  /** The model requested. */
  readonly model: string;
  /** Aborted when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** Who runs this turn ("main", or a bot's principal). */
  readonly principal: string;
  /** Notes left for the turn, delivered at round and turn boundaries. */
  readonly continuation: Continuation = new Continuation();
  /** The harness services (for the turn's observers). */
  readonly host: TurnHost;
  /** Runs, announces and records the turn's tool calls. */
  readonly tools: ToolRunner;
  /** The model's limits (window, output, tool calls per response); absent: the defaults. */
  readonly limits?: ResolvedLimits;
  #mp: ModelProvider;
  #protocol: string;
  #onEvent?: (event: HarnessEvent) => void;
  #usage: Usage = { input_tokens: 0, output_tokens: 0 };
  #resolved?: Map<string, ResolvedTool>;
  #executableRan = false;
  #lastEmpty = false;

  /** Creates the services of a turn. */
  constructor(facts: TurnInit) {
    this.host = facts.host;
    this.limits = facts.limits;
    this.session = facts.session;
    this.provider = facts.provider;
    this.model = facts.model;
    this.signal = facts.signal;
    this.principal = facts.principal;
    this.#mp = facts.modelProvider;
    this.#protocol = facts.modelProvider.protocol;
    this.#onEvent = facts.onEvent;
    this.tools = new ToolRunner({
      host: facts.host,
      session: facts.session,
      facts: { provider: facts.provider, model: facts.model, principal: facts.principal },
      signal: facts.signal,
      resolve: () => this.#resolveTools(),
      cwd: () => this.cwd(),
      skills: () => this.#skills(),
      emit: (e) => this.#deliver(e),
      life: (e, p) => this.life(e, p),
    });
  }

  /**
   * Records an event in the session's `.stream` (text, thinking; a tool call's start is the
   * {@link ToolRunner}'s) and passes it to `onEvent`.
   */
  emit(event: HarnessEvent): void {
    if ((event.type === "text" || event.type === "thinking") && event.recorded) {
      // already in .stream (an executable provider writes its own events)
    } else if (event.type === "text") this.session.streamEvent({ type: "text", text: event.text });
    else if (event.type === "thinking") {
      this.session.streamEvent({ type: "thinking", text: event.text });
    } else if (event.type === "tool_call_end") this.tools.announced(event);
    this.#deliver(event);
  }

  /** Passes an event to `onEvent` (a failing listener goes to the log). */
  #deliver(event: HarnessEvent): void {
    try {
      this.#onEvent?.(event);
    } catch (err) {
      this.host.log(`[events] listener failed: ${(err as Error).message}`);
    }
  }

  /** A lifecycle event for plugin observers, scoped to this turn's session and principal. */
  life<E extends LifecycleEvent>(
    event: E,
    payload: Omit<LifecycleEvents[E], "sessionId" | "principal">,
  ): void {
    this.host.lifecycle?.(
      event,
      { ...payload, sessionId: this.session.id, principal: this.principal } as LifecycleEvents[E],
    );
  }

  adapter(): ProtocolAdapter {
    const a = this.host.protocol(this.#protocol);
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

  /** Tokens used by the turn's model requests so far (a copy). */
  usage(): Usage {
    return { ...this.#usage };
  }

  /**
   * An executable provider's declared protocol (its `--defaults`), once per call; then that
   * protocol's adapter loaded (an adapter may load on first use: its synchronous methods follow).
   */
  async detectProtocol(): Promise<void> {
    const detect = (this.#mp as { detectProtocol?: () => Promise<string> }).detectProtocol;
    if (detect) this.#protocol = await detect.call(this.#mp);
    await this.host.protocol(this.#protocol)?.load?.();
  }

  /** Forgets the resolved tools: the next schemas and calls resolve them again. */
  invalidateTools(): void {
    this.#resolved = undefined;
  }

  async #resolveTools(): Promise<Map<string, ResolvedTool>> {
    this.#resolved ??= await this.host.tools(
      this.host.snapshot(this.provider, this.#protocol),
      this.principal,
    );
    return this.#resolved;
  }

  async toolSchemas(): Promise<ToolSchema[]> {
    const tools = await this.#resolveTools();
    return [...tools.values()].map((t) => t.schema).sort((
      a,
      b,
    ) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  executeTool(
    call: ToolCall,
    dispatched?: { result: string; error: boolean },
  ): Promise<{ result: string; error: boolean }> {
    return this.tools.run(call, dispatched);
  }

  noteResult(call: ToolCall, result: string, error: boolean, seq?: number): void {
    this.tools.saved(call, result, error, seq);
  }

  async systemParts(): Promise<string[]> {
    const sources = this.host.promptSources(this.principal).sort((a, b) =>
      (a.order ?? 100) - (b.order ?? 100)
    );
    const parts: string[] = [];
    for (const s of sources) parts.push(await s.render());
    const snap = this.host.snapshot(this.provider, this.#protocol);
    for (const f of snap.promptFiles) parts.push(readPrompt(f));
    return parts;
  }

  /** The turn's working directory: the session's own `cwd=`, else the harness's. */
  cwd(): string {
    return this.session.conf.cwd || this.host.cwd;
  }

  #skills(): SkillInfo[] {
    return this.host.skills(this.cwd());
  }

  /** Skills visible from the turn's session (a SKILL.md read first waits for the YAML reader). */
  async skills(): Promise<SkillInfo[]> {
    const skills = this.#skills();
    const loading = yamlLoading();
    if (!loading) return skills;
    await loading;
    return this.#skills();
  }

  /** The system prompt and tools as the built-in assemble hooks make them (no notes used). */
  async fixedParts(): Promise<FixedRequestParts> {
    const parts = (await this.systemParts()).filter((p) => p.trim() !== "");
    const skills = skillCatalog(await this.skills()) ?? "";
    const tools = this.adapter().buildTools(await this.toolSchemas());
    return { system: [...parts, ...(skills ? [skills] : [])].join("\n\n"), tools, skills };
  }

  /** Where this turn's stages run. */
  #place(): StagePlace {
    return {
      snapshot: this.host.snapshot(this.provider, this.#protocol),
      cwd: this.cwd(),
      signal: this.signal,
      session: this.session.dir,
      provider: this.provider,
      model: this.model,
      onExecutable: () => {
        this.#executableRan = true;
      },
    };
  }

  /**
   * Runs one stage of this turn: the place (and its snapshot of the sources) is taken now;
   * after an executable hook ran the session is read again from disk.
   */
  async runStage(state: string, context: Record<string, unknown>): Promise<ChainResult> {
    const place = this.#place();
    this.#syncAfterExecutable();
    this.#lastEmpty = this.host.stages.isEmpty(state, place.snapshot);
    const ctx: TurnContext = { kind: "turn", turn: this, signal: this.signal };
    const r = await this.host.stages.run(state, context, ctx, place);
    return r;
  }

  /** True when the stage last run by {@link runStage} had no hook at all. */
  lastStageWasEmpty(): boolean {
    return this.#lastEmpty;
  }

  /** Re-reads the session when an executable hook may have changed it on disk. */
  #syncAfterExecutable(): void {
    if (this.#executableRan) {
      this.session.refresh(true);
      this.#executableRan = false;
    }
  }

  /** Runs one stage and re-reads the session at once if an executable hook ran (compaction). */
  async runStageSynced(state: string, context: Record<string, unknown>): Promise<ChainResult> {
    const r = await this.runStage(state, context);
    this.#syncAfterExecutable();
    return r;
  }
}

/** What a {@link ToolRunner} is handed. */
export interface ToolRunnerInit {
  /** The harness services (dispatch, child environment, sub-agents, log). */
  host: TurnHost;
  /** The session results are recorded in. */
  session: Session;
  /** Provider, model and principal of the turn. */
  facts: { provider: string; model: string; principal: string };
  /** Cancels a running tool. */
  signal: AbortSignal;
  /** The tools the turn may call (resolved once per round). */
  resolve(): Promise<Map<string, ResolvedTool>>;
  /** The working directory of tools. */
  cwd(): string;
  /** Skills visible to tools. */
  skills(): SkillInfo[];
  /** Passes an event to the turn's listener (no `.stream` write). */
  emit(event: HarnessEvent): void;
  /** A lifecycle event of the turn. */
  life<E extends LifecycleEvent>(
    event: E,
    payload: Omit<LifecycleEvents[E], "sessionId" | "principal">,
  ): void;
}

/**
 * Runs a turn's tool calls through the effect seam (ceiling → guards → floor → tool) and
 * owns every `.stream` line and lifecycle event of a tool call: its start when the model
 * announced it, its output, its saved result; and repairs calls left without a result.
 */
export class ToolRunner {
  #o: ToolRunnerInit;
  #executed = new Set<string>();

  /** Creates the runner of one turn. */
  constructor(init: ToolRunnerInit) {
    this.#o = init;
  }

  /** True when `id` ran (or was reported) in this turn. */
  ran(id: string): boolean {
    return this.#executed.has(id);
  }

  /** The model announced a call (streamed): its `.stream` start line. */
  announced(event: Extract<HarnessEvent, { type: "tool_call_end" }>): void {
    this.#o.session.streamEvent({
      type: "tool_start",
      id: event.id,
      name: event.name,
      input: event.input,
    });
  }

  /**
   * Runs one call through the seam. `dispatched`: an executable tool already ran (a
   * dispatching `send` hook left its result); the seam decides on it as usual.
   */
  async run(
    call: ToolCall,
    dispatched?: { result: string; error: boolean },
  ): Promise<{ result: string; error: boolean }> {
    const h = this.#o.host;
    const tools = await this.#o.resolve();
    const tool = tools.get(call.name);
    // Only an executable can have run outside hs; a built-in or plugin tool always runs here.
    const pre = tool?.owner.kind === "executable" ? dispatched : undefined;
    if (pre) h.log(`[harness] tool pre-dispatched: ${call.name}`);
    this.#executed.add(call.id);
    this.#o.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
    const owner = tool ? ownerLabel(tool.owner) : "";
    this.#o.life("tool_start", { callId: call.id, tool: call.name, owner });
    const started = performance.now();
    let result: string;
    let error: boolean;
    if (!tool) {
      result = `error: tool '${call.name}' not found`;
      error = true;
    } else {
      const r = await h.dispatch(
        {
          point: tool.def.point ?? pointOf(call.name),
          tool: call.name,
          owner: tool.owner,
          principal: this.#o.facts.principal,
          callId: call.id,
          input: call.input,
          session: this.#o.session.id,
        },
        (input) =>
          pre
            ? Promise.resolve(textResult(pre.result, pre.error))
            : tool.def.execute(input, this.#context(call)).then((v) =>
              checkedToolResult(call.name, v)
            ),
      );
      result = resultText(r);
      error = r.isError === true;
    }
    const ms = performance.now() - started;
    this.#o.session.streamEvent({ type: "tool_output", text: toolDisplay(call, result, error) });
    this.#o.emit({ type: "tool_done", id: call.id, name: call.name, error, result, ms });
    this.#o.life("tool_done", { callId: call.id, tool: call.name, owner, error, durationMs: ms });
    return { result, error };
  }

  /** What a tool's `execute` reaches. */
  #context(call: ToolCall) {
    const h = this.#o.host;
    const { provider, model } = this.#o.facts;
    const session = this.#o.session;
    const cwd = this.#o.cwd();
    let env: Record<string, string> | undefined;
    return {
      cwd,
      /** Built on first read: most tools start no child and never read it. */
      get env(): Record<string, string> {
        return env ??= h.childEnv({
          stage: "tool_exec",
          session: session.dir,
          provider,
          model,
          cwd,
          tool: true,
        });
      },
      signal: this.#o.signal,
      sessionDir: session.dir,
      callId: call.id,
      log: (line: string) => h.log(line),
      runAgent: (req: Parameters<TurnHost["runAgent"]>[0]) =>
        h.runAgent(req, { session: session.id, provider, model }),
      skills: () => Promise.resolve(this.#o.skills()),
      effects: h.effects,
      settings: h.config,
    };
  }

  /**
   * A result was saved as message `seq`: its `.stream` line; a result that did not come
   * from {@link run} (a gate answered the call) also gets its tool events.
   */
  saved(call: ToolCall, result: string, error: boolean, seq?: number): void {
    if (!this.#executed.has(call.id)) {
      this.#executed.add(call.id);
      this.#o.emit({ type: "tool_start", id: call.id, name: call.name, input: call.input });
      this.#o.emit({ type: "tool_done", id: call.id, name: call.name, error, result, ms: 0 });
    }
    if (seq === undefined) return;
    this.#o.session.streamEvent({
      type: "tool_done",
      id: call.id,
      name: call.name,
      seq: String(seq).padStart(4, "0"),
      error: String(error),
    });
  }

  /** Gives tool calls left without a result (a crash or cancel) an error result. */
  repairDangling(reason: string | ((callId: string) => string)): void {
    const session = this.#o.session;
    for (const c of pendingCalls(session, true)) {
      session.appendToolResult(
        c.id,
        c.name,
        true,
        typeof reason === "string" ? reason : reason(c.id),
      );
    }
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
