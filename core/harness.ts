/**
 * The Harness: one PluginHost, the registries, discovery, providers and the
 * state follower. `HarnessCore.create` takes the built-in plugins from its
 * caller (core never imports `plugins/` by path); the root `mod.ts` supplies
 * them.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { AuditBus } from "./plugins/audit.ts";
import { Discovery, type Snapshot } from "./discovery/discovery.ts";
import { childEnv, harnessVars, type Paths, resolvePaths } from "./base/paths.ts";
import { HarnessError } from "./base/errors.ts";
import { ExecutableTools, type ToolProblem } from "./tools/executable_tools.ts";
import { dirEntries, readTextOrUndefined, statOrUndefined } from "./base/fsutil.ts";
import { allowAllFloor, Dispatcher, type Floor, type Guard, type Hook } from "./guards/mod.ts";
import { EffectFloor, type FloorRequest } from "./guards/floor.ts";
import { PluginHost, Registries } from "./plugins/host.ts";
import type { AuditEvent, PluginStatus, RuntimePluginEntry, StageHook } from "./plugins/types.ts";
import { listSessions, parseKeyValues, Session } from "./session/session.ts";
import { findSkills, skillRoots } from "./skills/skills.ts";
import { TrustStore } from "./discovery/trust.ts";
import type { HarnessEvent, ModelProvider, SkillInfo, ToolSchema, Usage } from "./base/types.ts";
import { corePlugin } from "./loop/core_plugin.ts";
import type { ProviderInfo, ResolveApi } from "./loop/turn_host.ts";
import { chainFor, runChain } from "./loop/chain.ts";
import { Turn } from "./loop/turn.ts";
import { executableProvider } from "./providers/executable_provider.ts";

/** Builds providers from `.conf` files and stored keys (supplied by the providers plugin). */
export interface ProviderFactory {
  /** A provider from a `.conf` variant file's text. Throws a HarnessError on a bad file. */
  fromConf(name: string, text: string, path: string): ModelProvider;
  /** `auth_env` named by a `.conf` text, if any (to keep it out of child environments). */
  authEnvOf?(text: string): string | undefined;
}

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
  /** Extra guards and hooks of the effect seam. */
  guards?: Guard[];
  effectHooks?: Hook[];
  /** Disable runtime audit events. */
  audit?: boolean;
  /** `.conf` support (from the providers plugin). */
  providerFactory?: ProviderFactory;
  /** Agent nesting depth (sub-agents). */
  depth?: number;
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

/** The result of one run. */
export interface RunResult {
  output: string;
  error: boolean;
  /** The error message when `error`. */
  message?: string;
  sessionId: string;
  sessionDir: string;
  provider: string;
  model: string;
  usage: Usage;
  cancelled: boolean;
}

/** Maximum sub-agent nesting. */
const MAX_DEPTH = 4;

/** The harness. */
export class HarnessCore {
  readonly paths: Paths;
  readonly env: Record<string, string | undefined>;
  readonly registries: Registries;
  readonly host: PluginHost;
  readonly audit: AuditBus;
  readonly trust: TrustStore;
  readonly discovery: Discovery;
  readonly execTools: ExecutableTools;
  readonly dispatcher: Dispatcher;
  readonly providerFactory?: ProviderFactory;
  readonly depth: number;
  /** The effect floor built from `floorRequest`, if any. */
  readonly effectFloor?: EffectFloor;
  #log: (line: string) => void;
  #options: HarnessOptions;
  #confCache = new Map<string, { mtime: number; provider?: ModelProvider; error?: string }>();
  #execProviders = new Map<string, ModelProvider>();

  private constructor(opts: HarnessOptions) {
    this.#options = opts;
    this.env = opts.env ?? Deno.env.toObject();
    const cwd = opts.cwd ?? Deno.cwd();
    this.paths = resolvePaths(this.env, cwd);
    this.depth = opts.depth ?? 0;
    this.#log = opts.log ?? fileLogger(this.paths.log);
    this.registries = new Registries();
    this.audit = new AuditBus({
      warn: (m) => this.#log(`[audit] ${m}`),
      enabled: opts.audit ?? true,
    });
    this.host = new PluginHost({ registries: this.registries, audit: this.audit, log: this.#log });
    this.trust = new TrustStore(this.paths.home);
    if (opts.trustWorkspace) this.trust.trustForSession(cwd);
    this.discovery = new Discovery({
      cwd,
      home: this.paths.home,
      isTrusted: (dir) => this.trust.isTrusted(dir),
    });
    this.execTools = new ExecutableTools({
      cacheFile: join(this.paths.home, ".cache", "schemas.json"),
      env: () => this.childEnv({ stage: "tool_exec" }),
      cwd,
      log: this.#log,
      sandbox: () => this.effectFloor?.sandbox,
    });
    this.providerFactory = opts.providerFactory;
    if (!opts.floor && opts.floorRequest) {
      this.effectFloor = EffectFloor.build(opts.floorRequest, {
        workspace: cwd,
        home: this.paths.home,
        userHome: this.env.HOME ?? "/",
        env: this.env,
        isTrusted: (dir) => this.trust.isTrusted(dir),
      });
    }
    const extraGuards = opts.guards ?? [];
    const extraHooks = opts.effectHooks ?? [];
    this.dispatcher = new Dispatcher({
      guards: () => extraGuards,
      hooks: () => extraHooks,
      floor: opts.floor ?? this.effectFloor ?? allowAllFloor,
      audit: (e: AuditEvent) => this.audit.emit(e),
      onHookError: (id, m) => this.#log(`[seam] ${id}: ${m}`),
    });
  }

  /** Creates a harness and loads its plugins (core, built-ins, embedder's, plugins.json). */
  static async create(opts: HarnessOptions = {}): Promise<HarnessCore> {
    const h = new HarnessCore(opts);
    const entries: RuntimePluginEntry[] = [
      { plugin: corePlugin as never, required: true },
      ...(opts.builtinPlugins ?? []),
    ];
    entries.push(
      ...mergeConfigured(
        opts.runtimePlugins ?? [],
        opts.userPlugins === false ? [] : h.#userPlugins(),
      ),
    );
    await h.host.load(entries);
    return h;
  }

  /** Entries of `$HARNESS_HOME/plugins.json` (user-level only; never from a project). */
  #userPlugins(): RuntimePluginEntry[] {
    const path = join(this.paths.home, "plugins.json");
    const text = readTextOrUndefined(path);
    if (text === undefined) return [];
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new HarnessError(`${path} is not valid JSON`, "fix the file or remove it");
    }
    const list = (data as { runtimePlugins?: unknown })?.runtimePlugins;
    if (list === undefined) return [];
    if (!Array.isArray(list)) {
      throw new HarnessError(`${path}: "runtimePlugins" must be a list`, "see docs/plugins.md");
    }
    return list.map((e, i) => {
      if (typeof e !== "object" || e === null || typeof (e as { id?: unknown }).id !== "string") {
        throw new HarnessError(
          `${path}: runtimePlugins[${i}] needs an "id"`,
          "see docs/plugins.md",
        );
      }
      const entry = e as RuntimePluginEntry;
      if (entry.module && !entry.module.startsWith("/")) {
        throw new HarnessError(`${path}: runtimePlugins[${i}].module must be an absolute path`);
      }
      return { ...entry, module: entry.module ? `file://${entry.module}` : undefined };
    });
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

  #secretsMemo = new WeakMap<Snapshot, { names: string[]; values: string[]; stamp: string }>();

  /** Secret variable names and values (kept out of child environments), per snapshot. */
  #secrets(snap: Snapshot): { names: string[]; values: string[] } {
    // Stored keys can change without a rescan (`hs auth set` mid-session): stamp the auth files.
    const stamp = [...snap.authFiles, join(this.paths.home, ".auth.json")]
      .map((f) => {
        const info = dirEntries(dirname(f))?.files.has(".auth.json")
          ? statOrUndefined(f)
          : undefined;
        return `${info?.mtime?.getTime() ?? 0}:${info?.size ?? 0}`;
      }).join(",");
    let hit = this.#secretsMemo.get(snap);
    if (!hit || hit.stamp !== stamp) {
      hit = { ...this.#computeSecrets(snap), stamp };
      this.#secretsMemo.set(snap, hit);
    }
    return hit;
  }

  #computeSecrets(snap: Snapshot): { names: string[]; values: string[] } {
    const names = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"];
    for (const p of snap.providers.values()) {
      if (p.kind !== "conf") continue;
      const text = readTextOrUndefined(p.path) ?? "";
      const ae = this.providerFactory?.authEnvOf?.(text) ?? parseKeyValues(text).auth_env;
      if (ae) names.push(ae);
    }
    const values: string[] = [];
    const homeAuth = dirEntries(this.paths.home)?.files.has(".auth.json")
      ? [join(this.paths.home, ".auth.json")]
      : [];
    for (const f of [...snap.authFiles, ...homeAuth]) {
      const text = readTextOrUndefined(f);
      if (!text) continue;
      try {
        const data = JSON.parse(text) as Record<string, { key?: string; access_token?: string }[]>;
        for (const list of Object.values(data)) {
          for (const c of Array.isArray(list) ? list : []) {
            if (c.key) values.push(c.key);
            if (c.access_token) values.push(c.access_token);
          }
        }
      } catch { /* malformed auth files are reported by hs auth */ }
    }
    for (const n of names) if (this.env[n]) values.push(this.env[n]!);
    return { names, values };
  }

  /** The environment of a child process (hook, tool, provider, command). */
  childEnv(p: {
    stage: string;
    session?: string;
    provider?: string;
    model?: string;
    cwd?: string;
  }): Record<string, string> {
    const snap = this.discovery.current();
    const { names, values } = this.#secrets(snap);
    const maxTurns = Number.parseInt(this.env.HARNESS_MAX_TURNS ?? "", 10) || 100;
    return childEnv(
      this.env,
      harnessVars({
        paths: this.paths,
        session: p.session ?? "",
        stage: p.stage,
        provider: p.provider ?? "",
        model: p.model ?? "",
        maxTurns,
        sources: snap.sources.map((s) => s.dir),
        cwd: p.cwd ?? this.paths.cwd,
      }),
      names,
      values,
    );
  }

  /** Every provider: registered ones first, then discovered (more local later). */
  providers(snap: Snapshot = this.discovery.current()): Promise<ProviderInfo[]> {
    const byName = new Map<string, ProviderInfo>();
    for (const e of this.registries.models.entries()) {
      byName.set(e.key, {
        name: e.key,
        provider: e.value.provider,
        origin: e.owner === "plugin:providers" ? "builtin" : e.owner,
        autodetect: (e.value.provider as { autodetect?: boolean }).autodetect !== false,
        models: e.value.models.map((m) => m.id),
      });
    }
    for (const f of snap.providers.values()) {
      if (f.kind === "conf") {
        const p = this.#confProvider(f.name, f.path);
        if (p) {
          const text = readTextOrUndefined(f.path) ?? "";
          const ae = this.providerFactory?.authEnvOf?.(text) ?? parseKeyValues(text).auth_env;
          byName.delete(f.name);
          byName.set(f.name, { name: f.name, provider: p, origin: f.path, autodetect: !!ae });
        }
      } else {
        let p = this.#execProviders.get(f.path);
        if (!p) {
          const name = f.name;
          const s = Number.parseFloat(this.env.HARNESS_PROVIDER_TIMEOUT ?? "");
          p = executableProvider(name, f.path, {
            env: (stage, x) => this.childEnv({ stage, provider: name, ...x }),
            cwd: this.paths.cwd,
            log: this.#log,
            timeoutMs: Number.isFinite(s) && s > 0 ? s * 1000 : undefined,
          });
          this.#execProviders.set(f.path, p);
        }
        byName.delete(f.name);
        byName.set(f.name, { name: f.name, provider: p, origin: f.path, autodetect: true });
      }
    }
    return Promise.resolve([...byName.values()]);
  }

  /** Problems with `.conf` files (for `hs doctor`). */
  confProblems(): { path: string; reason: string }[] {
    const out: { path: string; reason: string }[] = [];
    for (const [path, e] of this.#confCache) if (e.error) out.push({ path, reason: e.error });
    return out;
  }

  #confProvider(name: string, path: string): ModelProvider | undefined {
    const mtime = statOrUndefined(path)?.mtime?.getTime() ?? -1;
    const hit = this.#confCache.get(path);
    if (hit && hit.mtime === mtime) return hit.provider;
    let entry: { mtime: number; provider?: ModelProvider; error?: string };
    if (!this.providerFactory) {
      entry = { mtime, error: ".conf providers need the providers plugin" };
    } else {
      try {
        entry = {
          mtime,
          provider: this.providerFactory.fromConf(name, readTextOrUndefined(path) ?? "", path),
        };
      } catch (err) {
        entry = { mtime, error: (err as Error).message };
      }
    }
    this.#confCache.set(path, entry);
    return entry.provider;
  }

  /** Resolves provider and model through the `resolve` stage chain. */
  async resolve(provider = "", model = ""): Promise<{ provider: string; model: string }> {
    const snap = this.discovery.current();
    const api: ResolveApi = {
      providers: () => this.providers(snap),
      settings: () => {
        if (!snap.settingsFile) return {};
        const kv = parseKeyValues(readTextOrUndefined(snap.settingsFile) ?? "");
        return { provider: kv.provider || undefined, model: kv.model || undefined };
      },
    };
    const execs = new Map<string, string>();
    for (const [n, f] of snap.hooks.get("resolve") ?? []) execs.set(n, f.path);
    const controller = new AbortController();
    const r = await runChain(
      "resolve",
      { provider, model },
      chainFor(this.builtinHooks("resolve"), execs),
      { loop: api, signal: controller.signal },
      {
        env: this.childEnv({ stage: "resolve", provider, model }),
        cwd: this.paths.cwd,
        timeoutMs: this.hookTimeoutMs(),
        signal: controller.signal,
        log: this.#log,
        executableRan: () => {},
        sandbox: this.effectFloor?.sandbox,
      },
    );
    if (!r.ok) {
      const msg = typeof r.output.error === "string"
        ? r.output.error
        : "provider resolution failed";
      throw new HarnessError(msg, "run `hs providers` to see what is available");
    }
    const p = typeof r.output.provider === "string" ? r.output.provider : "";
    const m = typeof r.output.model === "string" ? r.output.model : "";
    const known = (await this.providers(snap)).some((x) => x.name === p);
    if (!known) {
      throw new HarnessError(
        `unknown provider "${p}"`,
        "run `hs providers` to list providers, or add providers/<name>.conf to a .harness/",
      );
    }
    return { provider: p, model: m };
  }

  /** Per-hook timeout (HARNESS_HOOK_TIMEOUT seconds, default 60). */
  hookTimeoutMs(): number {
    const s = Number.parseFloat(this.env.HARNESS_HOOK_TIMEOUT ?? "");
    return (Number.isFinite(s) && s > 0 ? s : 60) * 1000;
  }

  /** All skills: runtime ones (lowest), then files under the skill roots. */
  skills(
    cwd = this.paths.cwd,
  ): { skills: SkillInfo[]; problems: { path: string; reason: string }[] } {
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
  async executableToolSchemas(
    snap: Snapshot = this.discovery.current(),
  ): Promise<
    { tools: Map<string, { schema: ToolSchema; path: string }>; problems: ToolProblem[] }
  > {
    return await this.execTools.schemas(
      [...snap.tools.values()].map((f) => ({ name: f.name, path: f.path })),
    );
  }

  /** Problems of executable tools (bad schemas). */
  async toolProblems(): Promise<ToolProblem[]> {
    return (await this.executableToolSchemas()).problems;
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
  async run(opts: RunOptions): Promise<RunResult> {
    let session: Session | undefined;
    if (opts.session) session = this.openSession(opts.session);
    const wanted = {
      provider: opts.provider ?? this.env.HARNESS_PROVIDER ?? "",
      model: opts.model ?? this.env.HARNESS_MODEL ?? "",
    };
    const resolved = await this.resolve(wanted.provider, wanted.model);
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
    const providerInfo = (await this.providers()).find((p) => p.name === resolved.provider)!;
    const turn = new Turn({
      harness: this,
      session,
      provider: resolved.provider,
      model: resolved.model,
      modelProvider: providerInfo.provider,
      principal: opts.principal ?? "main",
      signal: opts.signal ?? new AbortController().signal,
      onEvent: opts.onEvent,
    });
    return await turn.run(opts.message);
  }

  /** Closes plugins (idempotent). */
  async close(): Promise<void> {
    await this.host.close();
    this.effectFloor?.close();
    (this.#log as { close?: () => void }).close?.();
  }

  /** Options this harness was created with (for sub-agents). */
  get options(): HarnessOptions {
    return this.#options;
  }

  /** Depth check for sub-agents. */
  canNest(): boolean {
    return this.depth + 1 < MAX_DEPTH;
  }
}

/** Inline entries first; a configured entry with the same id configures or disables it. */
function mergeConfigured(
  inline: RuntimePluginEntry[],
  configured: RuntimePluginEntry[],
): RuntimePluginEntry[] {
  const out = inline.map((e) => ({ ...e }));
  const ids = new Set<string>();
  for (const c of configured) {
    if (ids.has(c.id!)) {
      throw new HarnessError(`plugins.json lists "${c.id}" twice`, "remove the duplicate");
    }
    ids.add(c.id!);
    const same = out.find((e) => (e.plugin?.id ?? e.id) === c.id);
    if (same) {
      if (c.module) {
        throw new HarnessError(
          `plugins.json entry "${c.id}" cannot replace the implementation of an inline plugin`,
          "remove its module field to configure it, or use another id",
        );
      }
      if (c.enabled !== undefined) same.enabled = c.enabled;
      if (c.required !== undefined) same.required = c.required;
      if (c.config !== undefined) same.config = c.config;
    } else out.push(c);
  }
  return out;
}

function fileLogger(path: string): ((line: string) => void) & { close(): void } {
  let file: Deno.FsFile | undefined;
  let failed = false;
  const enc = new TextEncoder();
  const write = (line: string) => {
    if (failed) return;
    try {
      if (!file) {
        const dir = path.slice(0, path.lastIndexOf("/"));
        if (dir) Deno.mkdirSync(dir, { recursive: true });
        file = Deno.openSync(path, { append: true, create: true });
      }
      file.writeSync(enc.encode(line.endsWith("\n") ? line : line + "\n"));
    } catch {
      failed = true;
    }
  };
  return Object.assign(write, {
    close() {
      file?.close();
      file = undefined;
    },
  });
}
