/**
 * The composition root: one Harness wires the kernel's services — settings,
 * the plugin host and its registries, discovery and trust, child
 * environments, the provider and tool catalogs, the stage runner, the
 * effect seam — and hands a {@link Turn} the narrow {@link TurnHost} it
 * follows. It holds no logic of its own beyond that wiring.
 *
 * Built-in plugins come from the caller (core never imports `plugins/`);
 * the root `mod.ts` supplies them.
 *
 * @module
 */
import { join } from "node:path";
import {
  type ChildEnvRequest,
  fileLog,
  HarnessError,
  type HarnessEvent,
  type LogSink,
  ownerLabel,
  parseKeyValues,
  type Paths,
  readTextOrUndefined,
  type ResolvedTool,
  resolvePaths,
  resultText,
  settlesWithin,
  type SkillInfo,
  statOrUndefined,
  type SubAgentRequest,
  type SubAgentResult,
  textResult,
} from "./base/mod.ts";
import { type HarnessConfig, parseConfig } from "./config/mod.ts";
import { Discovery, type Snapshot, walkHarnessDirs } from "./discovery/mod.ts";
import { type RunWatch, TrustStore, watchRun } from "./trust/mod.ts";
import { unconfined } from "./exec/mod.ts";
import {
  AgentLineage,
  allowAllFloor,
  Dispatcher,
  EffectFloor,
  type Floor,
  type FloorRequest,
  type Guard,
  type Hook,
  type SubAgentLink,
} from "./guards/mod.ts";
import {
  type CompactOutcome,
  type ContextReport,
  listedSources,
  type LoopEndInfo,
  type ResolveApi,
  resolveProvider,
  type RunResult,
  type StageHook,
  StageRunner,
  Turn,
  type TurnHost,
} from "./loop/mod.ts";
import {
  AuditBus,
  DISPOSE_BOUND_MS,
  foregroundOptOutsOf,
  mergePluginEntries,
  type PageService,
  parsePluginsConfig,
  PluginHost,
  type PluginStatus,
  readForegroundOptOuts,
  readUserPlugins,
  Registries,
  type RuntimePluginEntry,
  safePromptSources,
} from "./plugins/mod.ts";
import {
  credentialLookup,
  dropUnreachedSession,
  ProviderCatalog,
  ProviderCredentials,
  type ProviderFactory,
  type ProviderInfo,
  type ReachWatch,
  resolveLimits,
  SecretIndex,
  sourceAuthFiles,
  watchReach,
} from "./providers/mod.ts";
import { listSessions, recordTurn, Session } from "./session/mod.ts";
import { findSkills, readSkill, type SkillProblem, skillRoots } from "./skills/mod.ts";
import { ExecutableTools } from "./tools/mod.ts";
import {
  botPrincipal,
  GuardApprovals,
  packDirsIn,
  type PackRuntime,
  Packs,
  type ProgramLoader,
  type SessionRef,
} from "./packs/mod.ts";
import { ChildEnvironment } from "./child_env.ts";
import { ensureBuiltinSource } from "./builtin_source.ts";
import { corePlugin } from "./core_plugin.ts";
import { type ExecutableSchemas, ToolCatalog } from "./tool_catalog.ts";

/** Options of {@link HarnessCore.create}. */
export interface HarnessOptions {
  /** Working directory (default: Deno.cwd()). */
  cwd?: string;
  /** Environment (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Built-in plugins (providers, core tools, ...), loaded after the core plugin. */
  builtinPlugins?: RuntimePluginEntry[];
  /** Trusted plugins supplied by the embedding application. */
  runtimePlugins?: RuntimePluginEntry[];
  /** Read `plugins.json` from HARNESS_HOME (default true). */
  userPlugins?: boolean;
  /** Trust the working directory's `.harness/` sources for this process. */
  trustWorkspace?: boolean;
  /** Where log lines go (default: append to HARNESS_LOG). */
  log?: (line: string) => void;
  /** The effect floor (default: allow all, or built from `floorRequest`). */
  floor?: Floor;
  /**
   * Build the effect floor from the process permissions, $HARNESS_HOME/floor.json,
   * the project's .harness/floor.json and these CLI wishes (ignored when `floor` is set).
   */
  floorRequest?: FloorRequest;
  /** Extra guards of the effect seam. */
  guards?: Guard[];
  /** Extra observer hooks of the effect seam. */
  effectHooks?: Hook[];
  /** Disable runtime audit events. */
  audit?: boolean;
  /** `.conf` support (from the providers plugin). */
  providerFactory?: ProviderFactory;
  /** Loads behavior programs of packs (from stdlib-harness); absent: bots do not attach. */
  programLoader?: ProgramLoader;
  /** Loads pack state modules and evaluates pack commands (from stdlib-harness). */
  packRuntime?: PackRuntime;
  /**
   * Loop-end addenda: asked when the model ends a round without tool calls; a non-empty
   * text asks for another round (ORed with the behaviors' activating notes).
   */
  loopEnd?: ((info: LoopEndInfo) => string | undefined | Promise<string | undefined>)[];
  /**
   * hs runs on a terminal: hooks of interactive stages (`auth-set`, `tool_exec` gates) get
   * it (`/dev/tty`, their stderr shown); every other child keeps its isolation.
   */
  terminal?: boolean;
  /**
   * Plugin configuration in the shape of `plugins.json` (`{"runtimePlugins": [...]}`),
   * used instead of `$HARNESS_HOME/plugins.json`. Supplying it is the embedding
   * application's explicit trust decision: it may add, configure or disable plugins.
   */
  config?: unknown;
  /**
   * An ephemeral instance (a script, a test, a one-off embedding): hosted connectors
   * (`connector-cloud`) are not registered; local memory stays active.
   */
  ephemeral?: boolean;
  /** False: do not register the hosted `connector-cloud` plugin. */
  cloudConnectors?: boolean;
  /** The cleanup bound of `close()` per step (default 5000 ms, the seed's). */
  cleanupBoundMs?: number;
}

/** Options of one run. */
export interface RunOptions {
  /** The user message (omit to continue a session without a new message). */
  message?: string;
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

/** How deep sub-agents may nest (the main agent is depth 0). */
const MAX_DEPTH = 3;

/** The project root: the directory holding the most local project `.harness`, else `cwd`. */
function projectRoot(cwd: string, home: string): string {
  const project = walkHarnessDirs(cwd, home).filter((d) => d.kind === "project").at(-1);
  return project ? join(project.dir, "..") : cwd;
}

/** A run in flight (drained by close()). */
interface InFlight {
  done: Promise<unknown>;
}

/** The harness: one per embedding (the CLI makes one per command). */
export class HarnessCore {
  /** Where the harness's files live: working directory, home, sessions, log. */
  readonly paths: Paths;
  /** The environment the harness was created with. */
  readonly env: Record<string, string | undefined>;
  /** `HARNESS_*` settings, parsed once. */
  readonly config: HarnessConfig;
  /** Everything the plugins registered. */
  readonly registries: Registries;
  /** The plugin host (plugin status, pages, lifecycle events). */
  readonly host: PluginHost;
  /** The audit bus sinks are registered on. */
  readonly audit: AuditBus;
  /** The trusted workspaces. */
  readonly trust: TrustStore;
  /** Finds the tools, hooks, providers, prompts and skills of the `.harness/` sources. */
  readonly discovery: Discovery;
  /** Providers: registered, `.conf`, executable. */
  readonly providerCatalog: ProviderCatalog;
  /** Tools: registered and executable. */
  readonly tools: ToolCatalog;
  /** Executable tools (schemas, `--describe`). */
  readonly execTools: ExecutableTools;
  /** Runs stage chains with the harness's environment, timeout and sandbox. */
  readonly stages: StageRunner;
  /** Dispatches tool calls through guards, hooks and the floor. */
  readonly dispatcher: Dispatcher;
  /** The effect floor built from `floorRequest`, if any. */
  readonly effectFloor?: EffectFloor;
  /** Behavior packs: their bots, and the behavior attached to agents. */
  readonly packs: Packs;
  /** Who started whom: the ceiling and behavior each run inherited (ceilings only narrow). */
  readonly lineage: AgentLineage = new AgentLineage();
  #log: LogSink;
  #children: ChildEnvironment;
  #closed = false;
  /** The generated directory of the built-ins (first in HARNESS_SOURCES), if written. */
  #builtinSource?: string;
  /** The walk the `sources` chain last ran on (it runs again when that changes). */
  #sourcesWalk?: Snapshot;
  #closing?: Promise<void>;
  /** Aborted by close(): every run's signal follows it. */
  #stop = new AbortController();
  /** Whether each turn's requests reached a server (core/providers/reach.ts). */
  #reach = new WeakMap<Turn, { watch: ReachWatch; created: boolean }>();
  #runs = new Set<InFlight>();
  #boundMs: number;
  #loopEnd: NonNullable<HarnessOptions["loopEnd"]>;
  /** The control paths' fingerprints at the start (what a run changed is recorded at close). */
  #runWatch?: RunWatch;

  private constructor(
    opts: HarnessOptions,
    env: Record<string, string | undefined>,
    trust: TrustStore,
  ) {
    this.env = env;
    this.config = parseConfig(this.env);
    const cwd = opts.cwd ?? Deno.cwd();
    this.paths = resolvePaths(this.env, cwd);
    this.#log = opts.log ?? fileLog(this.paths.log);
    this.#boundMs = opts.cleanupBoundMs ?? DISPOSE_BOUND_MS;
    this.#loopEnd = opts.loopEnd ?? [];
    this.registries = new Registries();
    this.audit = new AuditBus({
      warn: (m) => this.#log(`[audit] ${m}`),
      enabled: opts.audit ?? true,
      boundMs: this.#boundMs,
    });
    this.trust = trust;
    if (opts.trustWorkspace) this.trust.trustForSession(cwd);
    this.discovery = new Discovery({
      cwd,
      home: this.paths.home,
      isTrusted: (dir) => this.trust.isTrusted(dir),
    });
    if (!opts.floor && opts.floorRequest) {
      const req = opts.floorRequest;
      const settings = {
        preset: req.preset ?? this.config.floor,
        unsandboxed: req.unsandboxed || this.config.unsandboxed,
      };
      this.effectFloor = EffectFloor.build({ ...req, ...settings }, {
        workspace: cwd,
        home: this.paths.home,
        userHome: this.env.HOME ?? "/",
        env: this.env,
        isTrusted: (dir) => this.trust.isTrusted(dir),
        state: [this.paths.sessions, this.paths.log],
      });
    }
    const sandbox = this.effectFloor?.sandbox ?? unconfined;
    this.host = new PluginHost({
      registries: this.registries,
      audit: this.audit,
      log: this.#log,
      sandbox,
      fileSkill: (name) => this.#fileSkills().skills.find((s) => s.name === name)?.path,
      boundMs: this.#boundMs,
    });
    const factory = opts.providerFactory;
    const secrets = new SecretIndex({
      env: this.env,
      home: this.paths.home,
      authEnvOf: factory?.authEnvOf,
    });
    this.#children = new ChildEnvironment({
      env: this.env,
      paths: this.paths,
      config: this.config,
      snapshot: () => this.discovery.current(),
      secrets: (snap) => secrets.of(snap),
      builtinSource: () => this.#builtinSource,
    });
    const childEnv = (req: ChildEnvRequest) => this.#children.envFor(req);
    // an executable provider's own key (and .auth-cache.json for those that read it)
    const credentials = new ProviderCredentials({
      env: this.env,
      home: this.paths.home,
      authFiles: () => sourceAuthFiles(this.discovery.current(), this.paths.home),
      lookup: credentialLookup(this.env, cwd, () => this.registries.auth.values()),
    });
    this.providerCatalog = new ProviderCatalog({
      registered: () =>
        this.registries.models.entries().map((e) => ({
          name: e.key,
          provider: e.value.provider,
          owner: e.owner,
          models: e.value.models.map((m) => m.id),
          modelDefs: e.value.models,
        })),
      factory,
      executables: {
        env: (stage, x) => childEnv({ stage, ...x }),
        cwd,
        log: this.#log,
        timeoutMs: this.config.providerTimeoutMs,
        maxResponseBytes: this.config.hookOutputLimit,
        credentials: (name, names) => credentials.envFor(name, names),
      },
    });
    this.execTools = new ExecutableTools({
      cacheFile: join(this.paths.home, ".cache", "schemas.json"),
      env: () => childEnv({ stage: "tool_exec" }),
      cwd,
      log: this.#log,
      sandbox,
    });
    this.tools = new ToolCatalog({
      registered: () => this.registries.tools.entries(),
      executables: this.execTools,
      execTimeoutMs: this.config.execTimeoutMs,
      log: this.#log,
    });
    this.stages = new StageRunner({
      hooks: (stage) => this.builtinHooks(stage),
      env: childEnv,
      sandbox,
      timeoutMs: this.config.hookTimeoutMs,
      log: this.#log,
      maxOutputBytes: this.config.hookOutputLimit,
      terminal: opts.terminal,
    });
    this.packs = new Packs({
      dirs: () => this.#packDirs(),
      dataDir: join(this.paths.home, "plugin-data"),
      approvals: new GuardApprovals(this.paths.home),
      loader: opts.programLoader,
      places: { workspace: cwd, home: this.paths.home, userHome: this.env.HOME ?? "/" },
      foregroundOff: opts.config !== undefined
        ? foregroundOptOutsOf(opts.config)
        : readForegroundOptOuts(this.paths.home),
      log: this.#log,
      home: this.paths.home,
      project: projectRoot(cwd, this.paths.home),
      runtime: opts.packRuntime,
      behaviorOf: (p) => this.lineage.behaviorOf(p),
    });
    const extraGuards = opts.guards ?? [];
    const extraHooks = opts.effectHooks ?? [];
    this.dispatcher = new Dispatcher({
      guards: () => [...extraGuards, ...this.packs.guards()],
      hooks: () => [...extraHooks, ...this.packs.hooks()],
      // a tool its bot's ceiling omits does not enter (checked before any guard)
      ceiling: (call) =>
        call.point === "turn" || call.point === "round" ||
        (this.lineage.ceilingOf(call.session, this.packs.ceiling(call.principal))?.has(call.tool) ??
          true),
      floor: opts.floor ?? this.effectFloor ?? allowAllFloor,
      audit: (e) => this.audit.emit(e),
      record: (e) => {
        if (this.audit.hasFailClosed) return this.audit.record(e);
        this.audit.emit(e);
        return Promise.resolve(true);
      },
      onHookError: (id, m) => this.#log(`[seam] ${id}: ${m}`),
    });
  }

  /**
   * Creates a harness and loads its plugins: the kernel's own, the built-ins, the
   * embedder's, then `$HARNESS_HOME/plugins.json` (which may configure or disable any
   * of them but the kernel's). A harness that fails to start releases what it opened.
   */
  static async create(opts: HarnessOptions = {}): Promise<HarnessCore> {
    const env = opts.env ?? Deno.env.toObject();
    const paths = resolvePaths(env, opts.cwd ?? Deno.cwd());
    const trust = new TrustStore(paths.home);
    // Control files changed since trust was given: those sources wait for a new answer.
    await trust.verify(
      walkHarnessDirs(paths.cwd, paths.home).filter((d) => d.kind === "project").map((d) => d.dir),
    );
    const watch = await watchRun(trust, paths.cwd, paths.home);
    const h = new HarnessCore(opts, env, trust);
    h.#runWatch = watch;
    try {
      const configured = opts.config !== undefined
        ? parsePluginsConfig(opts.config, "HarnessOptions.config")
        : opts.userPlugins === false
        ? []
        : readUserPlugins(h.paths.home);
      if (configured.some((c) => c.id === corePlugin.id)) {
        throw new HarnessError(
          `plugins.json: the "${corePlugin.id}" plugin is the kernel's loop and cannot be configured`,
          `remove the "${corePlugin.id}" entry`,
        );
      }
      const builtins = (opts.builtinPlugins ?? []).map((e) => ({ ...e, builtin: true }));
      const entries = [
        { plugin: corePlugin as RuntimePluginEntry["plugin"], required: true, builtin: true },
        ...mergePluginEntries([...builtins, ...(opts.runtimePlugins ?? [])], configured),
      ];
      await h.host.load(entries);
      await h.packs.load();
      h.#builtinSource = await ensureBuiltinSource({
        home: h.paths.home,
        tools: h.registries.tools.values(),
        prompts: h.registries.prompts.values(),
      }, (line) => h.#log(line));
      await h.refreshSources();
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  /** Pack directories: `$HARNESS_HOME/packs`, trusted `.harness/packs` (more local later). */
  #packDirs(): { dir: string; source: string }[] {
    const out: { dir: string; source: string }[] = [];
    for (const e of this.registries.packs.entries()) {
      out.push({ dir: e.value, source: ownerLabel(e.owner) });
    }
    for (const d of packDirsIn(this.paths.home)) out.push({ dir: d, source: this.paths.home });
    for (const { dir, kind } of walkHarnessDirs(this.paths.cwd, this.paths.home)) {
      if (kind !== "project" || !this.trust.isTrusted(dir)) continue;
      for (const d of packDirsIn(dir)) out.push({ dir: d, source: dir });
    }
    return out;
  }

  /** The generated source directory of the built-ins (first in `HARNESS_SOURCES`), if any. */
  get builtinSource(): string | undefined {
    return this.#builtinSource;
  }

  /**
   * Runs the `sources` stage when the walk changed since it last ran (and only when it has
   * executable hooks): their `{"sources": [...]}` replaces the walk's source list. A chain
   * that fails, or prints no list, leaves hs's own list (the failure goes to the log).
   */
  async refreshSources(signal: AbortSignal = new AbortController().signal): Promise<void> {
    const walk = this.discovery.walk();
    if (walk === this.#sourcesWalk) return;
    this.#sourcesWalk = walk;
    if (!walk.hooks.get("sources")?.size) {
      this.discovery.setListed(undefined);
      return;
    }
    const own = [
      ...(this.#builtinSource ? [this.#builtinSource] : []),
      ...walk.allSources.map((x) => x.dir),
    ];
    const r = await this.stages.run("sources", {}, {
      kind: "sources",
      signal,
      walk: () => [...own],
    }, { snapshot: walk, cwd: this.paths.cwd, signal });
    const listed = r.ok ? listedSources(r.output) : undefined;
    if (!listed) {
      const why = r.ok ? 'printed no {"sources": [absolute paths]}' : String(r.output.error);
      this.#log(`[sources] ${r.ok ? "the sources chain" : r.hook} ${why}; using hs's own list`);
      this.discovery.setListed(undefined);
      return;
    }
    // the built-ins' directory stands for what is registered in-process: not a source to scan
    this.discovery.setListed(listed.filter((d) => d !== this.#builtinSource));
  }

  /** Status of every runtime plugin. */
  runtimePluginStatus(): PluginStatus[] {
    return this.host.status();
  }

  /** Pages registered by plugins: listed, read and acted on with the host's signal. */
  get pages(): PageService {
    return this.host.pages;
  }

  /** True once close() was called: runs are refused. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Appends a line to HARNESS_LOG. */
  log(line: string): void {
    this.#log(line);
  }

  /** The current discovery snapshot. */
  snapshot(provider = "", protocol = ""): Snapshot {
    return this.discovery.current(provider, protocol);
  }

  /** Stage hooks registered in-process for a stage. */
  builtinHooks(stage: string): StageHook[] {
    return this.registries.stageHooks.values().filter((h) => h.stage === stage);
  }

  /** The environment of a child process (hook, tool, provider, command): no credentials. */
  childEnv(req: ChildEnvRequest): Record<string, string> {
    return this.#children.envFor(req);
  }

  /** Every provider: registered ones first, then discovered (more local later). */
  providers(snap: Snapshot = this.discovery.current()): Promise<ProviderInfo[]> {
    return Promise.resolve(this.providerCatalog.list(snap.providers.values()));
  }

  /** Problems with `.conf` files (for `hs doctor`). */
  confProblems(): { path: string; reason: string }[] {
    return this.providerCatalog.problems();
  }

  /** Resolves provider and model through the `resolve` stage chain. */
  resolve(provider = "", model = ""): Promise<{ provider: string; model: string }> {
    const snapshot = this.discovery.current();
    const api: ResolveApi = {
      providers: () => this.providers(snapshot),
      settings: () => {
        if (!snapshot.settingsFile) return {};
        const kv = parseKeyValues(readTextOrUndefined(snapshot.settingsFile) ?? "");
        return { provider: kv.provider || undefined, model: kv.model || undefined };
      },
      problem: (name) => this.confProblems().find((p) => p.path.endsWith(`/${name}.conf`))?.reason,
    };
    return resolveProvider(this.stages, api, { provider, model }, {
      snapshot,
      cwd: this.paths.cwd,
    });
  }

  /**
   * All skills: runtime ones, then packs' skills and files under the skill roots. A runtime
   * skill never replaces a file skill of the same name: the file skill is used and the
   * conflict is reported. A file skill replaces a pack's skill of the same name.
   */
  skills(cwd = this.paths.cwd): { skills: SkillInfo[]; problems: SkillProblem[] } {
    const found = this.#fileSkills(cwd);
    const byName = new Map<string, SkillInfo>();
    const problems = [...found.problems];
    for (const s of found.skills) byName.set(s.name, s);
    const runtime: SkillInfo[] = [];
    for (const s of this.registries.skills.values()) {
      const file = byName.get(s.name);
      if (file) {
        problems.push({
          path: file.path,
          reason: `runtime skill "${s.name}" of ${s.source} conflicts with this file; ignored`,
        });
      } else runtime.push(s);
    }
    return { skills: [...runtime, ...found.skills], problems };
  }

  #fileSkills(cwd = this.paths.cwd): { skills: SkillInfo[]; problems: SkillProblem[] } {
    const snap = this.discovery.current();
    const packRoots = snap.sources.filter((s) => s.kind === "pack").map((s) =>
      join(s.dir, "skills")
    );
    const roots = skillRoots({
      packRoots,
      cwd,
      userHome: this.env.HOME ?? "/",
      harnessHome: this.paths.home,
      excluded: (dir) => snap.untrusted.includes(dir),
    });
    const found = findSkills(roots);
    const names = new Set(found.skills.map((s) => s.name));
    const skills = [...found.skills];
    const problems = [...found.problems];
    for (const p of this.packs.list()) {
      for (const dir of p.manifest?.skills ?? []) {
        const r = readSkill(join(dir, "SKILL.md"), `pack:${p.manifest!.name}`);
        if (r.info && !names.has(r.info.name)) {
          names.add(r.info.name);
          skills.push(r.info);
        } else if (r.problem) problems.push({ path: join(dir, "SKILL.md"), reason: r.problem });
      }
    }
    return { skills, problems };
  }

  /** Executable tool schemas plus the problems found (for `hs tools` / `hs doctor`). */
  executableToolSchemas(snap: Snapshot = this.discovery.current()): Promise<ExecutableSchemas> {
    return this.tools.executableSchemas(snap);
  }

  /** Opens a session by id or directory. */
  openSession(idOrDir: string): Session {
    const dir = idOrDir.includes("/") ? idOrDir : join(this.paths.sessions, idOrDir);
    if (!statOrUndefined(join(dir, "session.conf"))) {
      throw new HarnessError(
        `no session "${idOrDir}" in ${this.paths.sessions}`,
        "list them with: hs session list",
      );
    }
    return Session.open(dir);
  }

  /** Session ids, newest first. */
  sessions(): string[] {
    return listSessions(this.paths.sessions);
  }

  /** Runs one turn (a user message until `done`). Rejects once the harness is closed. */
  run(opts: RunOptions): Promise<RunResult> {
    return this.#track(opts, 0);
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
    const signal = opts.signal
      ? AbortSignal.any([opts.signal, this.#stop.signal])
      : this.#stop.signal;
    const done = this.#run({ ...opts, signal }, depth, parent).then((r) =>
      r.cancelled && this.#stop.signal.aborted && !opts.signal?.aborted
        ? { ...r, message: "the harness was closed during the run" }
        : r
    );
    const entry: InFlight = { done };
    this.#runs.add(entry);
    const untrack = () => this.#runs.delete(entry);
    done.then(untrack, untrack);
    return done;
  }

  async #run(opts: RunOptions, depth: number, parent?: SubAgentLink): Promise<RunResult> {
    const turn = await this.#prepare(opts, depth, "run", parent);
    const session = turn.session;
    const principal = turn.principal;
    const own = { id: session.id, dir: session.dir };
    // behaviors reach this run: notes into its turn, its conversation's session states
    const unbind = this.packs.runs.bind({
      session: own,
      conversation: opts.conversation ?? own,
      principal,
      note: (n) => turn.continuation.add(n),
      emit: (e) => turn.emit(e),
    });
    let result: RunResult | undefined;
    try {
      return result = await turn.run(opts.message);
    } finally {
      unbind();
      this.lineage.leave(session.id);
      await this.packs.settle();
      try {
        recordTurn(session.dir, { private: this.packs.privateRevisions(principal) });
      } catch (err) {
        this.#log(
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

  /**
   * What the next request of a session holds, by section, with token counts and the
   * model's window (`/context`, the REPL's status line, `hs session show`). Without a
   * session: what the first request would hold. Nothing is written.
   */
  async contextReport(
    opts: Pick<RunOptions, "session" | "provider" | "model" | "bot">,
  ): Promise<ContextReport> {
    const turn = await this.#prepare(opts, 0, "inspect");
    return await turn.contextReport();
  }

  /**
   * Compacts a session now (`/compact [focus]`): the older turns are summarized by the
   * `compact` stage into one message, the last turns stay verbatim, the originals stay on
   * disk marked compacted. A failure changes nothing and comes back with a hint.
   */
  async compact(
    opts: Pick<RunOptions, "session" | "provider" | "model" | "bot" | "signal" | "onEvent"> & {
      session: string;
      focus?: string;
    },
  ): Promise<CompactOutcome> {
    const signal = opts.signal
      ? AbortSignal.any([opts.signal, this.#stop.signal])
      : this.#stop.signal;
    const turn = await this.#prepare({ ...opts, signal }, 0, "compact");
    return await turn.compact("manual", { focus: opts.focus });
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
    let principal = opts.principal ?? "main";
    if (opts.bot) {
      const bot = await this.packs.named(opts.bot);
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
      principal = botPrincipal(opts.bot);
    }
    let session = opts.session ? this.openSession(opts.session) : undefined;
    const resolved = await this.resolve(
      opts.provider ?? this.config.provider,
      opts.model ?? this.config.model,
    );
    if (!session && mode !== "run") {
      session = Session.detached({
        cwd: this.paths.cwd,
        model: resolved.model,
        provider: resolved.provider,
      });
    } else if (!session) {
      session = Session.create(this.paths.sessions, {
        cwd: this.paths.cwd,
        model: resolved.model,
        provider: resolved.provider,
      });
      this.host.lifecycle.emit("session_created", {
        sessionId: session.id,
        sessionDir: session.dir,
        principal,
        provider: resolved.provider,
        model: resolved.model,
      });
    } else if (
      mode !== "inspect" &&
      (session.conf.provider !== resolved.provider || session.conf.model !== resolved.model)
    ) {
      session.conf.provider = resolved.provider;
      session.conf.model = resolved.model;
      session.writeConf();
    }
    session.resultLimit = this.config.resultLimit;
    session.resultFileLimit = this.config.resultFileLimit;
    const info = (await this.providers()).find((p) => p.name === resolved.provider)!;
    const own = { id: session.id, dir: session.dir };
    const runPrincipal = principal;
    if (mode === "run") {
      const ceiling = this.packs.ceiling(principal);
      this.lineage.enter({
        session: session.id,
        principal,
        own: ceiling,
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
        this.packs.outbound(runPrincipal, own, e);
      },
      limits: await resolveLimits(
        info.provider,
        resolved.model,
        info.modelDefs,
        this.config.maxToolCalls,
      ),
    });
    this.#reach.set(turn, { watch, created: !opts.session && mode === "run" });
    return turn;
  }

  /** The services a turn at `depth` may use. */
  #turnHost(depth: number, session?: string): TurnHost {
    return {
      config: this.config,
      cwd: this.paths.cwd,
      stages: this.stages,
      refreshSources: (signal) => this.refreshSources(signal),
      effects: this.effectFloor?.effects,
      log: (line) => this.#log(line),
      snapshot: (provider, protocol) => this.discovery.current(provider, protocol),
      protocol: (name) => this.registries.protocols.get(name),
      tools: (snap, principal) => this.#toolsFor(snap, principal, session),
      dispatch: (call, core) => this.dispatcher.dispatch(call, core),
      childEnv: (req) => this.#children.envFor(req),
      promptSources: (principal) => {
        const all = safePromptSources(this.registries.prompts, this.#log);
        const bot = this.packs.prompt(principal);
        return bot ? [...all, bot] : all;
      },
      lifecycle: (event, payload) => this.host.lifecycle.emit(event, payload),
      boundary: async (kind, record, principal) => {
        const r = await this.dispatcher.dispatch({
          point: kind,
          tool: kind,
          owner: { kind: "builtin", id: "core" },
          principal,
          callId: `${kind}-${crypto.randomUUID().slice(0, 8)}`,
          input: { ...record, phase: "start" },
          session: typeof record.session === "string" ? record.session : undefined,
        }, () => Promise.resolve(textResult("")));
        return r.isError ? resultText(r) : undefined;
      },
      boundaryEnd: async (kind, record, principal, outcome) => {
        await this.dispatcher.dispatch({
          point: kind,
          tool: kind,
          owner: { kind: "builtin", id: "core" },
          principal,
          callId: `${kind}-end-${crypto.randomUUID().slice(0, 8)}`,
          input: { ...record, phase: "end", stop: outcome.stop },
          session: typeof record.session === "string" ? record.session : undefined,
        }, () => Promise.resolve(textResult(outcome.output ?? outcome.stop, outcome.error)));
      },
      loopEnd: async (info) => {
        const out: string[] = [];
        for (const f of this.#loopEnd) {
          try {
            const t = await f(info);
            if (t) out.push(t);
          } catch (err) {
            this.#log(`[loop] a loop-end addendum failed: ${(err as Error).message}`);
          }
        }
        return out;
      },
      skills: (cwd) => this.skills(cwd).skills,
      runAgent: (req, parent) => this.#subAgent(req, parent, depth + 1),
    };
  }

  /** The tools an agent may call: its bot's own, the rest, within its bot's ceiling. */
  async #toolsFor(
    snap: Snapshot,
    principal: string,
    session?: string,
  ): Promise<Map<string, ResolvedTool>> {
    const all = await this.tools.resolve(snap);
    for (const t of this.packs.tools()) {
      if (t.principal !== principal) continue;
      all.set(t.def.name, {
        def: t.def,
        owner: t.owner,
        schema: {
          name: t.def.name,
          description: t.def.description,
          input_schema: t.def.inputSchema,
        },
      });
    }
    const ceiling = this.lineage.ceilingOf(session, this.packs.ceiling(principal));
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
    const caller = this.packs.runs.find(parent.session);
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

  /**
   * Closes the harness (seed 002): refuses new runs, cancels the runs in flight (their
   * model streams and tools see the signal) and drains them within the cleanup bound,
   * then aborts plugin signals, drains audit queues, unregisters contributions and
   * disposes plugins in reverse order; finally the floor's worker and the log.
   * Idempotent; goes on after failures.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    if (this.#runs.size > 0) {
      this.#stop.abort(new HarnessError("the harness was closed"));
      const drained = await settlesWithin(
        Promise.allSettled([...this.#runs].map((r) => r.done)),
        this.#boundMs,
      );
      if (!drained) {
        this.#log(`[harness] close: runs still in flight after ${this.#boundMs} ms; going on`);
      }
    } else this.#stop.abort(new HarnessError("the harness was closed"));
    try {
      await this.host.close();
    } finally {
      await this.#runWatch?.finish(this.effectFloor).catch((e) =>
        this.#log(`[trust] cannot record what the run changed: ${(e as Error).message}`)
      );
      this.effectFloor?.close();
      this.#log.close?.();
    }
  }
}
