/**
 * The runs of a harness: a turn prepared (its principal, session, provider,
 * model and limits) and run with its behaviors bound, sub-agents and their
 * depth, the `/context` report and `/compact`, and the drain on close (every
 * run's signal follows the harness's). Handed the services a turn shares;
 * it never sees the harness.
 *
 * @module
 */
import { join } from "./early/mod.ts";
import {
  HarnessError,
  type HarnessEvent,
  type MessageImage,
  type Paths,
  type ResolvedTool,
  settlesWithin,
  type SubAgentRequest,
  type SubAgentResult,
  type ToolEffects,
} from "./base/mod.ts";
import type { HarnessConfig } from "./config/mod.ts";
import type { Discovery, Snapshot } from "./discovery/mod.ts";
import type { AgentLineage, Dispatcher, SubAgentLink } from "./guards/mod.ts";
import type {
  CompactOutcome,
  ContextReport,
  LoopEndInfo,
  RunResult,
  StageRunner,
  TurnHost,
} from "./loop/mod.ts";
import { Turn } from "./loop/mod.ts";
import { botPrincipal, type Packs, type SessionRef } from "./packs/mod.ts";
import {
  dropUnreachedSession,
  type ProviderInfo,
  type ReachWatch,
  resolveLimits,
  watchReach,
} from "./providers/mod.ts";
import { type LifecycleBus, type Registries, safePromptSources } from "./plugins/mod.ts";
import {
  checkedImages,
  findSessionDir,
  recordTurn,
  Session,
  workspaceSessions,
} from "./session/mod.ts";
import type { BoundarySeam } from "./boundaries.ts";
import type { ChildEnvironment } from "./child_env.ts";
import type { SkillCatalog } from "./skill_catalog.ts";
import type { Sources } from "./sources.ts";
import type { ToolCatalog } from "./tool_catalog.ts";

/** Options of one run. */
export interface RunOptions {
  /** The user message (omit to continue a session without a new message). */
  message?: string;
  /**
   * Images sent with the message (PNG, JPEG, GIF, WebP; at most 5 MiB each), kept with the
   * session and passed to the model in its protocol's image form.
   */
  images?: MessageImage[];
  /** Resume this session (id or directory). */
  session?: string;
  /** The provider to use (default: chosen by the `resolve` stage). */
  provider?: string;
  /** The model to use (default: chosen by the `resolve` stage). */
  model?: string;
  /** Cancels the run. */
  signal?: AbortSignal;
  /** Receives the run's events (stream deltas, tool calls, notices). */
  onEvent?: (event: HarnessEvent) => void;
  /** Which agent asks (audit principal). */
  principal?: string;
  /** Run as a named bot of a behavior pack (its prompt, behavior and tool ceiling). */
  bot?: string;
  /**
   * The conversation this run belongs to (a helper keeps the conversation session it was
   * given: its session-scope states are the caller's). Default: the run's own session.
   */
  conversation?: SessionRef;
}

/** A loop-end addendum (see `HarnessOptions.loopEnd`). */
export type LoopEndAddendum = (
  info: LoopEndInfo,
) => string | undefined | Promise<string | undefined>;

/** How deep sub-agents may nest (the main agent is depth 0). */
const MAX_DEPTH = 3;

/** What the runs service is handed: the services a turn shares, as objects. */
export interface RunsInit {
  /** The settings (default provider/model, result limits). */
  config: HarnessConfig;
  /** The working directory and the sessions directory. */
  paths: Pick<Paths, "cwd" | "sessions">;
  /** HARNESS_LOG. */
  log(line: string): void;
  /** The cleanup bound of the drain on close. */
  boundMs: number;
  /** Behavior packs: bots, their prompts, tools, ceilings and the behaviors bound to runs. */
  packs: Packs;
  /** Runs stage chains. */
  stages: StageRunner;
  /** The `sources` chain (run again before every stage when discovery changed). */
  sources: Pick<Sources, "refresh">;
  /** Discovery snapshots. */
  discovery: Pick<Discovery, "current">;
  /** Protocol adapters, prompt sections, tools scoped to an agent, principals' ceilings. */
  registries: Pick<Registries, "protocols" | "prompts" | "tools" | "principals">;
  /** The tools of a snapshot: registered ones and executables. */
  tools: Pick<ToolCatalog, "resolve">;
  /** The effect seam (tool calls). */
  dispatcher: Pick<Dispatcher, "dispatch">;
  /** The turn and round boundaries' seam (their guards and hooks, never the dispatcher). */
  boundaries: Pick<BoundarySeam, "start" | "end">;
  /** The environments of children. */
  children: Pick<ChildEnvironment, "envFor">;
  /** The skills catalog. */
  skills: Pick<SkillCatalog, "all">;
  /** The floor's file and process runtime for tools, if any. */
  effects?: ToolEffects;
  /** Lifecycle events for plugin observers. */
  lifecycle: Pick<LifecycleBus, "emit">;
  /** Loop-end addenda. */
  loopEnd: LoopEndAddendum[];
  /** Who started whom: the ceiling and behavior each run inherited (ceilings only narrow). */
  lineage: AgentLineage;
  /** Resolves provider and model through the `resolve` stage. */
  resolve(provider: string, model: string): Promise<{ provider: string; model: string }>;
  /** Every provider. */
  providers(): Promise<ProviderInfo[]>;
  /** A named sub-agent of another layout (`.claude/agents/<name>.md`), for `agent {agent}`. */
  namedAgent?(name: string): NamedAgent | undefined;
}

/** A named sub-agent: the instructions leading its task, its tools and model. */
export interface NamedAgent {
  /** Its instructions (they lead the task it is given). */
  prompt: string;
  /** The tools it may use (undefined: what its caller holds); never more than its caller. */
  tools?: string[];
  /** Its model (undefined: its caller's). */
  model?: string;
}

/** Runs turns and tracks them so that close() can cancel and drain them. */
export class Runs {
  #o: RunsInit;
  #closed = false;
  /** Aborted by close(): every run's signal follows it. */
  #stop = new AbortController();
  #inFlight = new Set<Promise<unknown>>();
  /** Whether each turn's requests reached a server (core/providers/reach.ts). */
  #reach = new WeakMap<Turn, { watch: ReachWatch; created: boolean }>();
  #host?: Omit<TurnHost, "runAgent">;

  /** Creates the service. */
  constructor(init: RunsInit) {
    this.#o = init;
  }

  /** True once close() was called: runs are refused. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Opens a session by id or directory (core/session/groups.ts finds an id). */
  openSession(idOrDir: string): Session {
    const dir = findSessionDir(this.#o.paths, idOrDir);
    if (!dir) {
      throw new HarnessError(
        `no session "${idOrDir}" in ${this.#o.paths.sessions}`,
        "list them with: hs session list (every workspace's: hs session list --all)",
      );
    }
    return Session.open(dir);
  }

  /** The directory of session `id`: where it was found, else where a new one goes. */
  sessionDir(id: string): string {
    return findSessionDir(this.#o.paths, id) ?? join(this.#o.paths.sessions, id);
  }

  /** This workspace's session ids, newest first. */
  sessions(): string[] {
    return workspaceSessions(this.#o.paths).map((s) => s.id);
  }

  /** Runs one turn (a user message until `done`). Rejects once closed. */
  run(opts: RunOptions): Promise<RunResult> {
    return this.#track(opts, 0);
  }

  /** What the next request of a session holds (see `HarnessCore.contextReport`). */
  async contextReport(
    opts: Pick<RunOptions, "session" | "provider" | "model" | "bot">,
  ): Promise<ContextReport> {
    const turn = await this.#prepare(opts, 0, "inspect");
    return await turn.contextReport();
  }

  /** Compacts a session now (see `HarnessCore.compact`). */
  async compact(
    opts: Pick<RunOptions, "session" | "provider" | "model" | "bot" | "signal" | "onEvent"> & {
      session: string;
      focus?: string;
    },
  ): Promise<CompactOutcome> {
    const turn = await this.#prepare({ ...opts, signal: this.#signal(opts.signal) }, 0, "compact");
    return await turn.compact("manual", { focus: opts.focus });
  }

  /** Refuses new runs, cancels the runs in flight and drains them within the bound. */
  async close(): Promise<void> {
    this.#closed = true;
    const stop = () => this.#stop.abort(new HarnessError("the harness was closed"));
    if (this.#inFlight.size === 0) return stop();
    stop();
    const bound = this.#o.boundMs;
    const drained = await settlesWithin(Promise.allSettled([...this.#inFlight]), bound);
    if (!drained) this.#o.log(`[harness] close: runs still in flight after ${bound} ms; going on`);
  }

  #signal(own?: AbortSignal): AbortSignal {
    return own ? AbortSignal.any([own, this.#stop.signal]) : this.#stop.signal;
  }

  /** Runs and tracks a turn so that close() can cancel and drain it. */
  #track(opts: RunOptions, depth: number, parent?: SubAgentLink): Promise<RunResult> {
    if (this.#closed) {
      return Promise.reject(
        new HarnessError(
          "this harness is closed: it runs nothing more",
          "create a new one with Harness.create()",
        ),
      );
    }
    const done = this.#run({ ...opts, signal: this.#signal(opts.signal) }, depth, parent).then((
      r,
    ) =>
      r.cancelled && this.#stop.signal.aborted && !opts.signal?.aborted
        ? { ...r, message: "the harness was closed during the run" }
        : r
    );
    this.#inFlight.add(done);
    const untrack = () => this.#inFlight.delete(done);
    done.then(untrack, untrack);
    return done;
  }

  async #run(opts: RunOptions, depth: number, parent?: SubAgentLink): Promise<RunResult> {
    const packs = this.#o.packs;
    const turn = await this.#prepare(opts, depth, "run", parent);
    const session = turn.session;
    const principal = turn.principal;
    const own = { id: session.id, dir: session.dir };
    // behaviors reach this run: notes into its turn, its conversation's session states
    const unbind = packs.runs.bind({
      session: own,
      conversation: opts.conversation ?? own,
      principal,
      note: (n) => turn.continuation.add(n),
      emit: (e) => turn.emit(e),
    });
    let result: RunResult | undefined;
    try {
      return result = await turn.run(opts.message, checkedImages(opts.images));
    } finally {
      unbind();
      this.#o.lineage.leave(session.id);
      await packs.settle();
      try {
        recordTurn(session.dir, { private: packs.privateRevisions(principal) });
      } catch (err) {
        this.#o.log(
          `[session] the turn record of ${session.id} was not written: ${(err as Error).message}`,
        );
      }
      // a session this run created whose requests reached no server is empty: not kept
      const reach = this.#reach.get(turn);
      if (reach) {
        await dropUnreachedSession(session.dir, reach.created, reach.watch, !!result?.error);
      }
    }
  }

  /** The principal of a run: a bot's (it must be usable), else the caller's or "main". */
  async #principal(opts: RunOptions): Promise<string> {
    if (!opts.bot) return opts.principal ?? "main";
    const bot = await this.#o.packs.named(opts.bot);
    if (!bot) {
      throw new HarnessError(
        `no bot named "${opts.bot}"`,
        "list the packs and their bots: hs packs",
      );
    }
    if (bot.status !== "attached" && bot.status !== "no behavior") {
      throw new HarnessError(
        `bot "${opts.bot}" is ${bot.status}${bot.reason ? `: ${bot.reason}` : ""}`,
        bot.status === "awaiting approval" ? "hs packs approve" : "see: hs packs",
      );
    }
    return botPrincipal(opts.bot);
  }

  /** The session of a run: opened, created for a run, detached otherwise. */
  #session(
    session: Session | undefined,
    mode: "run" | "inspect" | "compact",
    resolved: { provider: string; model: string },
    principal: string,
  ): Session {
    const o = this.#o;
    const conf = { cwd: o.paths.cwd, model: resolved.model, provider: resolved.provider };
    if (!session && mode !== "run") return Session.detached(conf);
    if (!session) {
      const created = Session.create(o.paths.sessions, conf);
      o.lifecycle.emit("session_created", {
        sessionId: created.id,
        sessionDir: created.dir,
        principal,
        provider: resolved.provider,
        model: resolved.model,
      });
      return created;
    }
    if (
      mode !== "inspect" &&
      (session.conf.provider !== resolved.provider || session.conf.model !== resolved.model)
    ) {
      session.conf.provider = resolved.provider;
      session.conf.model = resolved.model;
      session.writeConf();
    }
    return session;
  }

  /**
   * The turn of a run: the principal (a bot's), the session (opened, or created for a
   * run), provider and model resolved, the model's limits. `inspect` creates nothing.
   */
  async #prepare(
    opts: RunOptions,
    depth: number,
    mode: "run" | "inspect" | "compact",
    parent?: SubAgentLink,
  ): Promise<Turn> {
    const o = this.#o;
    // a broken foreground pack fails closed: the main agent does not run without it
    const refused = mode === "run" && depth === 0 && !opts.bot ? o.packs.refusal() : undefined;
    if (refused) throw refused;
    const principal = await this.#principal(opts);
    const opened = opts.session ? this.openSession(opts.session) : undefined;
    const resolved = await o.resolve(
      opts.provider ?? o.config.provider,
      opts.model ?? o.config.model,
    );
    const session = this.#session(opened, mode, resolved, principal);
    session.resultLimit = o.config.resultLimit;
    session.resultFileLimit = o.config.resultFileLimit;
    const info = (await o.providers()).find((p) => p.name === resolved.provider)!;
    const own = { id: session.id, dir: session.dir };
    if (mode === "run") {
      o.lineage.enter({
        session: session.id,
        principal,
        own: o.registries.principals.get(principal)?.ceiling,
        parent: parent?.session,
        worker: !opts.bot,
        asked: parent?.tools,
      });
    }
    const watch = watchReach(info.provider);
    const turn = new Turn({
      host: this.#turnHost(depth, session.id),
      session,
      provider: resolved.provider,
      model: resolved.model,
      modelProvider: watch.provider,
      principal,
      signal: opts.signal ?? this.#stop.signal,
      onEvent: (e) => {
        opts.onEvent?.(e);
        o.packs.outbound(principal, own, e);
      },
      limits: await resolveLimits(
        info.provider,
        resolved.model,
        info.modelDefs,
        o.config.maxToolCalls,
      ),
    });
    this.#reach.set(turn, { watch, created: !opts.session && mode === "run" });
    return turn;
  }

  /** The services a turn at `depth` of `session` may use (its tools within its lineage). */
  #turnHost(depth: number, session: string): TurnHost {
    return {
      ...this.#shared(),
      tools: (snap, principal) => this.#toolsFor(snap, principal, session),
      runAgent: (req, parent) => this.#subAgent(req, parent, depth + 1),
    };
  }

  /** What every turn shares (built once). */
  #shared(): Omit<TurnHost, "runAgent"> {
    if (this.#host) return this.#host;
    const o = this.#o;
    const lifecycle = o.lifecycle;
    return this.#host = {
      config: o.config,
      cwd: o.paths.cwd,
      stages: o.stages,
      refreshSources: (signal) => o.sources.refresh(signal),
      effects: o.effects,
      log: o.log,
      snapshot: (provider, protocol) => o.discovery.current(provider, protocol),
      protocol: (name) => o.registries.protocols.get(name),
      tools: (snap, principal) => this.#toolsFor(snap, principal),
      dispatch: (call, core) => o.dispatcher.dispatch(call, core),
      childEnv: (req) => o.children.envFor(req),
      promptSources: (principal) => {
        const prompts = o.registries.prompts;
        const own = prompts.scoped(principal);
        const all = safePromptSources(prompts, o.log);
        return own.length ? [...all, ...own.map((e) => e.value)] : all;
      },
      lifecycle: (event, payload) => lifecycle.emit(event, payload),
      boundary: (kind, record, principal) => o.boundaries.start(kind, record, principal),
      boundaryEnd: (kind, record, principal, outcome) =>
        o.boundaries.end(kind, record, principal, outcome),
      loopEnd: loopEndOf(o.loopEnd, o.log),
      skills: (dir) => o.skills.all(dir).skills,
    };
  }

  /** The tools an agent may call: its own (scoped to it), the rest, within its ceiling. */
  async #toolsFor(
    snap: Snapshot,
    principal: string,
    session?: string,
  ): Promise<Map<string, ResolvedTool>> {
    const { registries } = this.#o;
    const all = await this.#o.tools.resolve(snap);
    for (const { value: def, owner } of registries.tools.scoped(principal)) {
      all.set(def.name, {
        def,
        owner,
        schema: { name: def.name, description: def.description, input_schema: def.inputSchema },
      });
    }
    const ceiling = this.#o.lineage.ceilingOf(
      session,
      registries.principals.get(principal)?.ceiling,
    );
    if (ceiling) { for (const name of [...all.keys()]) if (!ceiling.has(name)) all.delete(name); }
    return all;
  }

  /** A child agent loop on this same harness: same plugins, floor, consent and audit sinks. */
  async #subAgent(
    req: SubAgentRequest,
    parent: { session: string; provider: string; model: string },
    depth: number,
  ): Promise<SubAgentResult> {
    if (depth > MAX_DEPTH) {
      return { output: "error: sub-agents are nested too deep", sessionDir: "", error: true };
    }
    // one name for "run as": a pack's bot, else a project agent (.claude/agents) of that name
    if (req.bot && !req.agent && !this.#o.packs.bots().some((b) => b.spec.name === req.bot)) {
      if (this.#o.namedAgent?.(req.bot)) req = { ...req, agent: req.bot, bot: undefined };
    }
    const named = req.agent ? this.#o.namedAgent?.(req.agent) : undefined;
    if (req.agent && !named) {
      return {
        output: `error: no agent named "${req.agent}" (hs doctor lists the agents)`,
        sessionDir: "",
        error: true,
      };
    }
    if (named) req = withNamedAgent(req, named);
    const caller = this.#o.packs.runs.find(parent.session);
    const r = await this.#track(
      {
        message: req.prompt,
        bot: req.bot,
        provider: req.provider || parent.provider,
        model: req.model || (req.provider ? undefined : parent.model),
        signal: req.signal,
        principal: `agent:${parent.session}`,
        // a helper keeps the conversation session it was given
        conversation: caller?.conversation,
      },
      depth,
      { session: parent.session, tools: req.tools },
    );
    return {
      output: r.error ? `error: ${r.message ?? r.output}` : r.output,
      sessionDir: r.sessionDir,
      error: r.error,
    };
  }
}

/** The loop-end addenda as one call (a failing one goes to the log, the others count). */
export function loopEndOf(
  addenda: LoopEndAddendum[],
  log: (line: string) => void,
): (info: LoopEndInfo) => Promise<string[]> {
  return async (info) => {
    const out: string[] = [];
    for (const f of addenda) {
      try {
        const t = await f(info);
        if (t) out.push(t);
      } catch (err) {
        log(`[loop] a loop-end addendum failed: ${(err as Error).message}`);
      }
    }
    return out;
  };
}

/** A request run as a named agent: its instructions lead the task; its tools narrow. */
function withNamedAgent(req: SubAgentRequest, a: NamedAgent): SubAgentRequest {
  const tools = a.tools && req.tools
    ? req.tools.filter((t) => a.tools!.includes(t))
    : (a.tools ?? req.tools);
  return {
    ...req,
    prompt: `<agent name="${req.agent}">\n${a.prompt}\n</agent>\n\n${req.prompt}`,
    tools,
    model: req.model || (req.provider ? undefined : a.model),
  };
}
