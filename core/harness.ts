/**
 * The composition root: one Harness wires the kernel's services — settings,
 * the plugin host and its registries, discovery and trust, child
 * environments, the provider and tool catalogs, the stage runner, the
 * effect seam, the packs — and the services that use them: {@link Runs}
 * (turns, sessions, sub-agents, the drain on close), the {@link SkillCatalog}
 * and {@link Sources}. It holds no logic of its own beyond that wiring; its
 * other members delegate to those services.
 *
 * Built-in plugins come from the caller (core never imports `plugins/`);
 * the root `mod.ts` supplies them.
 *
 * @module
 */
import { join } from "./early/mod.ts";
import {
  type ChildEnvRequest,
  fileLog,
  type LogSink,
  type Paths,
  redactingLog,
  resolvePaths,
  selfCommand,
  yamlLoading,
} from "./base/mod.ts";
import { type HarnessConfig, parseConfig } from "./config/mod.ts";
import { Discovery, walkHarnessDirs } from "./discovery/mod.ts";
import { type RunWatch, TrustStore, watchRun } from "./trust/mod.ts";
import { unconfined } from "./exec/mod.ts";
import { type Dispatcher, EffectFloor } from "./guards/mod.ts";
import { type RunResult, StageRunner } from "./loop/mod.ts";
import { AuditBus, DISPOSE_BOUND_MS, PluginHost, Registries } from "./plugins/mod.ts";
import { type ProviderCatalog, SecretIndex } from "./providers/mod.ts";
import { ExecutableTools } from "./tools/mod.ts";
import type { Packs } from "./packs/mod.ts";
import { ChildEnvironment } from "./child_env.ts";
import { ClaudeCompat } from "./compat/mod.ts";
import { builtinFiles, builtinSourceDir } from "./builtin_source.ts";
import { ensureHarnessRoot } from "./harness_root.ts";
import { ToolCatalog } from "./tool_catalog.ts";
import { type HarnessOptions, pluginEntries } from "./harness_options.ts";
import { providerCatalog } from "./provider_wiring.ts";
import type { Admin, Catalog } from "./facade.ts";
import { type FrontEnd, frontEndOf } from "./front_end.ts";
import type { RunOptions, Runs } from "./runs.ts";
import { wireServices } from "./services.ts";
import type { SkillCatalog } from "./skill_catalog.ts";
import type { Sources } from "./sources.ts";

export type { HarnessOptions } from "./harness_options.ts";
export type { RunOptions } from "./runs.ts";

/** The harness: one per embedding (the CLI makes one per command). */
export class HarnessCore {
  /** Where the harness's files live: working directory, home, sessions, log. */
  readonly paths: Paths;
  /** The environment the harness was created with. */
  readonly env: Record<string, string | undefined>;
  /** `HARNESS_*` settings, parsed once. */
  readonly config: HarnessConfig;
  /** Everything the plugins registered. */
  readonly registries: Registries = new Registries();
  /** The plugin host (plugin status, pages, lifecycle events). */
  readonly host: PluginHost;
  /** The audit bus sinks are registered on. */
  readonly audit: AuditBus;
  /** Finds the tools, hooks, providers, prompts and skills of the `.harness/` sources. */
  readonly discovery: Discovery;
  /** A Claude Code project's files (CLAUDE.md, `.claude/`) as hs sources. */
  readonly claude: ClaudeCompat;
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
  /** Runs, sessions, sub-agents, `/context` and `/compact`. */
  readonly runs: Runs;
  /** The skills catalog (the merge rule of runtime, pack and file skills). */
  readonly skillCatalog: SkillCatalog;
  /** The `sources` chain, the built-ins' directory and the packs' directories. */
  readonly sources: Sources;
  /** Providers, tools, skills, hooks and sources, as front ends list them. */
  readonly catalog: Catalog;
  /** Trust, plugins and pages, as front ends administer them. */
  readonly admin: Admin;
  #log: LogSink;
  #children: ChildEnvironment;
  #frontEnd?: FrontEnd;
  #closing?: Promise<void>;
  /** The control paths' fingerprints at the start (what a run changed is recorded at close). */
  #runWatch?: RunWatch;

  private constructor(
    opts: HarnessOptions,
    env: Record<string, string | undefined>,
    readonly trust: TrustStore,
    paths: Paths,
  ) {
    this.env = env;
    this.config = parseConfig(env);
    const cwd = paths.cwd;
    this.paths = paths;
    const home = paths.home;
    const isTrusted = (dir: string) => trust.isTrusted(dir);
    // before anything can log: a log line takes a discovery snapshot (its secrets)
    if (opts.trustWorkspace) trust.trustForSession(cwd);
    const discovery = this.discovery = new Discovery({ cwd, home, isTrusted });
    const secrets = new SecretIndex({ env, home, authEnvOf: opts.providerFactory?.authEnvOf });
    // no secret reaches the log: keys of the environment and stored ones are redacted
    const log = this.#log = redactingLog(
      opts.log ?? fileLog(paths.log),
      () => secrets.of(discovery.current()).values,
    );
    const boundMs = opts.cleanupBoundMs ?? DISPOSE_BOUND_MS;
    this.audit = new AuditBus({
      warn: (m) => log(`[audit] ${m}`),
      enabled: opts.audit ?? true,
      boundMs,
    });
    this.claude = new ClaudeCompat({ cwd, userHome: env.HOME ?? "/", isTrusted });
    if (!opts.floor && opts.floorRequest) {
      const req = opts.floorRequest;
      const preset = req.preset ?? this.config.floor;
      const unsandboxed = req.unsandboxed || this.config.unsandboxed;
      const narrowing = [...(req.narrowing ?? []), ...this.claude.permissions().rules];
      this.effectFloor = EffectFloor.build({ ...req, preset, unsandboxed, narrowing }, {
        workspace: cwd,
        home,
        userHome: env.HOME ?? "/",
        env,
        isTrusted,
        state: [this.paths.sessions, this.paths.log],
      });
    }
    const sandbox = this.effectFloor?.sandbox ?? unconfined;
    this.host = new PluginHost({
      registries: this.registries,
      audit: this.audit,
      log,
      sandbox,
      fileSkill: (name) =>
        this.skillCatalog.files(paths.cwd).skills.find((s) => s.name === name)?.path,
      boundMs,
      startBoundMs: opts.startBoundMs,
      reservedCommands: opts.reservedCommands,
    });
    this.#children = new ChildEnvironment({
      env,
      paths,
      config: this.config,
      snapshot: () => discovery.current(),
      secrets: (snap) => secrets.of(snap),
      builtinSource: () => this.sources.builtin,
      root: () => ensureHarnessRoot(home, () => selfCommand(env), log),
    });
    const childEnv = (req: ChildEnvRequest) => this.#children.envFor(req);
    this.claude.attach({ env: (stage, session) => childEnv({ stage, session }), sandbox, log });
    this.providerCatalog = providerCatalog({
      env,
      home,
      cwd,
      registries: this.registries,
      discovery,
      childEnv,
      config: this.config,
      log,
      factory: opts.providerFactory,
    });
    this.execTools = new ExecutableTools({
      cacheFile: join(home, ".cache", "schemas.json"),
      env: () => childEnv({ stage: "tool_exec", tool: true }),
      cwd,
      log,
      sandbox,
    });
    this.tools = new ToolCatalog({
      registered: () => this.registries.tools.entries(),
      executables: this.execTools,
      execTimeoutMs: this.config.execTimeoutMs,
      log,
    });
    this.stages = new StageRunner({
      hooks: (stage) => this.registries.stageHooks.values().filter((h) => h.stage === stage),
      env: childEnv,
      sandbox,
      timeoutMs: this.config.hookTimeoutMs,
      log,
      maxOutputBytes: this.config.hookOutputLimit,
      terminal: opts.terminal,
    });
    ({
      sources: this.sources,
      packs: this.packs,
      skillCatalog: this.skillCatalog,
      catalog: this.catalog,
      admin: this.admin,
      dispatcher: this.dispatcher,
      runs: this.runs,
    } = wireServices(this, opts, { boundMs, children: this.#children }));
  }

  /**
   * Creates a harness and loads its plugins: the kernel's own, the built-ins, the
   * embedder's, then `$HARNESS_HOME/plugins.json` (which may configure or disable any
   * of them but the kernel's). A harness that fails to start releases what it opened.
   */
  static async create(opts: HarnessOptions = {}): Promise<HarnessCore> {
    const env = opts.env ?? Deno.env.toObject();
    const paths = resolvePaths(env, opts.cwd ?? Deno.cwd());
    const trust = opts.trust ?? new TrustStore(paths.home);
    // Control files changed since trust was given: those sources wait for a new answer.
    await trust.verify(
      walkHarnessDirs(paths.cwd, paths.home).filter((d) => d.kind === "project").map((d) => d.dir),
    );
    const watch = await watchRun(trust, paths.cwd, paths.home);
    const h = new HarnessCore(opts, env, trust, paths);
    h.#runWatch = watch;
    try {
      // a SKILL.md's frontmatter is YAML, whose reader loads on first need: list them once,
      // before the plugins, whose runtime skills must not take a file skill's name
      h.skillCatalog.files(h.paths.cwd);
      await yamlLoading();
      await h.host.load(pluginEntries(opts, h.paths.home, [h.claude.plugin()]));
      await h.packs.load();
      // the prompts are rendered now (as they are at the start); the directory is written or
      // checked when first needed (a child's HARNESS_SOURCES, the sources chain, doctor)
      const files = await builtinFiles({
        tools: h.registries.tools.values(),
        prompts: h.registries.prompts.values(),
      });
      h.sources.lazyBuiltin(() => builtinSourceDir(h.paths.home, files, (line) => h.#log(line)));
      await h.sources.refresh();
    } catch (err) {
      await h.close();
      throw err;
    }
    return h;
  }

  /** True once close() was called: runs are refused. */
  get closed(): boolean {
    return this.runs.closed;
  }

  /**
   * What a front end (cli/) is handed: runs, the catalog, sessions, the packs as a view,
   * admin, log and close — none of the kernel's fields. Built on first use.
   */
  get frontEnd(): FrontEnd {
    return this.#frontEnd ??= frontEndOf({
      runs: this.runs,
      dispatcher: this.dispatcher,
      catalog: this.catalog,
      admin: this.admin,
      packs: this.packs,
      paths: this.paths,
      config: this.config,
      env: this.env,
      log: (line) => this.log(line),
      close: () => this.close(),
      closed: () => this.closed,
    });
  }

  /** Appends a line to HARNESS_LOG. */
  log(line: string): void {
    this.#log(line);
  }

  /** Runs one turn (a user message until `done`). Rejects once the harness is closed. */
  run(opts: RunOptions): Promise<RunResult> {
    return this.runs.run(opts);
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
    await this.runs.close();
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
