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
  parseKeyValues,
  type Paths,
  readTextOrUndefined,
  resolvePaths,
  type SkillInfo,
  statOrUndefined,
  type SubAgentRequest,
  type SubAgentResult,
} from "./base/mod.ts";
import { type HarnessConfig, parseConfig } from "./config/mod.ts";
import { Discovery, type Snapshot, walkHarnessDirs } from "./discovery/mod.ts";
import { TrustStore } from "./trust/mod.ts";
import { unconfined } from "./exec/mod.ts";
import {
  allowAllFloor,
  Dispatcher,
  EffectFloor,
  type Floor,
  type FloorRequest,
  type Guard,
  type Hook,
} from "./guards/mod.ts";
import {
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
  mergePluginEntries,
  PluginHost,
  type PluginStatus,
  readUserPlugins,
  Registries,
  type RuntimePluginEntry,
} from "./plugins/mod.ts";
import {
  ProviderCatalog,
  type ProviderFactory,
  type ProviderInfo,
  SecretIndex,
} from "./providers/mod.ts";
import { listSessions, Session } from "./session/mod.ts";
import { findSkills, type SkillProblem, skillRoots } from "./skills/mod.ts";
import { ExecutableTools } from "./tools/mod.ts";
import { ChildEnvironment } from "./child_env.ts";
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
}

/** Options of one run. */
export interface RunOptions {
  /** The user message (omit to continue a session without a new message). */
  message?: string;
  /** Resume this session (id or directory). */
  session?: string;
  provider?: string;
  model?: string;
  signal?: AbortSignal;
  onEvent?: (event: HarnessEvent) => void;
  /** Which agent asks (audit principal). */
  principal?: string;
}

/** How deep sub-agents may nest (the main agent is depth 0). */
const MAX_DEPTH = 3;

/** The harness: one per embedding (the CLI makes one per command). */
export class HarnessCore {
  readonly paths: Paths;
  readonly env: Record<string, string | undefined>;
  /** `HARNESS_*` settings, parsed once. */
  readonly config: HarnessConfig;
  readonly registries: Registries;
  readonly host: PluginHost;
  readonly audit: AuditBus;
  readonly trust: TrustStore;
  readonly discovery: Discovery;
  /** Providers: registered, `.conf`, executable. */
  readonly providerCatalog: ProviderCatalog;
  /** Tools: registered and executable. */
  readonly tools: ToolCatalog;
  /** Executable tools (schemas, `--describe`). */
  readonly execTools: ExecutableTools;
  /** Runs stage chains with the harness's environment, timeout and sandbox. */
  readonly stages: StageRunner;
  readonly dispatcher: Dispatcher;
  /** The effect floor built from `floorRequest`, if any. */
  readonly effectFloor?: EffectFloor;
  #log: LogSink;
  #children: ChildEnvironment;
  #closed = false;

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
    this.registries = new Registries();
    this.audit = new AuditBus({
      warn: (m) => this.#log(`[audit] ${m}`),
      enabled: opts.audit ?? true,
    });
    this.host = new PluginHost({ registries: this.registries, audit: this.audit, log: this.#log });
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
      });
    }
    const sandbox = this.effectFloor?.sandbox ?? unconfined;
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
    });
    const childEnv = (req: ChildEnvRequest) => this.#children.envFor(req);
    this.providerCatalog = new ProviderCatalog({
      registered: () =>
        this.registries.models.entries().map((e) => ({
          name: e.key,
          provider: e.value.provider,
          owner: e.owner,
          models: e.value.models.map((m) => m.id),
        })),
      factory,
      executables: {
        env: (stage, x) => childEnv({ stage, ...x }),
        cwd,
        log: this.#log,
        timeoutMs: this.config.providerTimeoutMs,
        maxResponseBytes: this.config.hookOutputLimit,
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
    });
    const extraGuards = opts.guards ?? [];
    const extraHooks = opts.effectHooks ?? [];
    this.dispatcher = new Dispatcher({
      guards: () => extraGuards,
      hooks: () => extraHooks,
      floor: opts.floor ?? this.effectFloor ?? allowAllFloor,
      audit: (e) => this.audit.emit(e),
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
    const h = new HarnessCore(opts, env, trust);
    try {
      const configured = opts.userPlugins === false ? [] : readUserPlugins(h.paths.home);
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
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  /** Status of every runtime plugin. */
  runtimePluginStatus(): PluginStatus[] {
    return this.host.status();
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

  /** All skills: runtime ones (lowest), then files under the skill roots. */
  skills(cwd = this.paths.cwd): { skills: SkillInfo[]; problems: SkillProblem[] } {
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
    const byName = new Map<string, SkillInfo>();
    for (const s of this.registries.skills.values()) byName.set(s.name, s);
    for (const s of found.skills) byName.set(s.name, s);
    return { skills: [...byName.values()], problems: found.problems };
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

  /** Runs one turn (a user message until `done`). */
  run(opts: RunOptions): Promise<RunResult> {
    return this.#run(opts, 0);
  }

  async #run(opts: RunOptions, depth: number): Promise<RunResult> {
    if (this.#closed) {
      throw new HarnessError("this harness is closed", "create a new one with Harness.create()");
    }
    let session = opts.session ? this.openSession(opts.session) : undefined;
    const resolved = await this.resolve(
      opts.provider ?? this.config.provider,
      opts.model ?? this.config.model,
    );
    if (!session) {
      session = Session.create(this.paths.sessions, {
        cwd: this.paths.cwd,
        model: resolved.model,
        provider: resolved.provider,
      });
    } else if (
      session.conf.provider !== resolved.provider || session.conf.model !== resolved.model
    ) {
      session.conf.provider = resolved.provider;
      session.conf.model = resolved.model;
      session.writeConf();
    }
    session.resultLimit = this.config.resultLimit;
    session.resultFileLimit = this.config.resultFileLimit;
    const info = (await this.providers()).find((p) => p.name === resolved.provider)!;
    const turn = new Turn({
      host: this.#turnHost(depth),
      session,
      provider: resolved.provider,
      model: resolved.model,
      modelProvider: info.provider,
      principal: opts.principal ?? "main",
      signal: opts.signal ?? new AbortController().signal,
      onEvent: opts.onEvent,
    });
    return await turn.run(opts.message);
  }

  /** The services a turn at `depth` may use. */
  #turnHost(depth: number): TurnHost {
    return {
      config: this.config,
      cwd: this.paths.cwd,
      stages: this.stages,
      effects: this.effectFloor?.effects,
      log: (line) => this.#log(line),
      snapshot: (provider, protocol) => this.discovery.current(provider, protocol),
      protocol: (name) => this.registries.protocols.get(name),
      tools: (snap) => this.tools.resolve(snap),
      dispatch: (call, core) => this.dispatcher.dispatch(call, core),
      childEnv: (req) => this.#children.envFor(req),
      promptSources: () => this.registries.prompts.values(),
      skills: (cwd) => this.skills(cwd).skills,
      runAgent: (req, parent) => this.#subAgent(req, parent, depth + 1),
    };
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
    const r = await this.#run({
      message: req.prompt,
      provider: req.provider || parent.provider,
      model: req.model || (req.provider ? undefined : parent.model),
      signal: req.signal,
      principal: `agent:${parent.session}`,
    }, depth);
    return {
      output: r.error ? `error: ${r.message ?? r.output}` : r.output,
      sessionDir: r.sessionDir,
      error: r.error,
    };
  }

  /** Closes plugins, the floor's worker and the log (idempotent). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.host.close();
    this.effectFloor?.close();
    this.#log.close?.();
  }
}
