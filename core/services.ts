/**
 * The services a harness wires on top of its kernel (settings, registries,
 * plugin host, discovery, stage runner, catalogs, child environments): the
 * sources, the behavior packs, the skills catalog, the effect seam, the runs,
 * and the two views front ends read (catalog, admin). Each is handed the
 * services it uses, as objects.
 *
 * @module
 */
import { join } from "./early/mod.ts";
import type { Paths } from "./base/mod.ts";
import type { HarnessConfig } from "./config/mod.ts";
import type { Discovery } from "./discovery/mod.ts";
import { type ClaudeCompat, shellThroughSeam } from "./compat/mod.ts";
import { AgentLineage, type Dispatcher, type EffectFloor } from "./guards/mod.ts";
import type { StageRunner } from "./loop/mod.ts";
import { GuardApprovals, Packs } from "./packs/mod.ts";
import {
  type AuditBus,
  foregroundOptOutsOf,
  type PluginHost,
  readForegroundOptOuts,
  type Registries,
} from "./plugins/mod.ts";
import type { ProviderCatalog } from "./providers/mod.ts";
import type { TrustStore } from "./trust/mod.ts";
import type { ChildEnvironment } from "./child_env.ts";
import { Admin, Catalog } from "./facade.ts";
import type { HarnessOptions } from "./harness_options.ts";
import { Runs } from "./runs.ts";
import { effectSeam } from "./seam.ts";
import { SkillCatalog } from "./skill_catalog.ts";
import { projectRoot, Sources } from "./sources.ts";
import type { ToolCatalog } from "./tool_catalog.ts";
import type { ExecutableTools } from "./tools/mod.ts";

/** The kernel the services are wired on. */
export interface Kernel {
  /** The harness's environment. */
  readonly env: Record<string, string | undefined>;
  /** Working directory, home, sessions, log. */
  readonly paths: Paths;
  /** The settings. */
  readonly config: HarnessConfig;
  /** The registries plugins fill. */
  readonly registries: Registries;
  /** The plugin host (lifecycle events, status, pages). */
  readonly host: PluginHost;
  /** The audit bus. */
  readonly audit: AuditBus;
  /** The trusted workspaces. */
  readonly trust: TrustStore;
  /** Discovery of the `.harness/` sources. */
  readonly discovery: Discovery;
  /** A Claude Code project's files as hs sources. */
  readonly claude: ClaudeCompat;
  /** Runs stage chains. */
  readonly stages: StageRunner;
  /** Tools: registered and executable. */
  readonly tools: ToolCatalog;
  /** Executable tools (`--describe`). */
  readonly execTools: ExecutableTools;
  /** Providers: registered, `.conf`, executable. */
  readonly providerCatalog: ProviderCatalog;
  /** The effect floor, if built. */
  readonly effectFloor?: EffectFloor;
  /** HARNESS_LOG. */
  log(line: string): void;
}

/** The services of a harness. */
export interface Services {
  /** The `sources` chain and the packs' directories. */
  sources: Sources;
  /** Behavior packs. */
  packs: Packs;
  /** The skills catalog. */
  skillCatalog: SkillCatalog;
  /** Providers, tools, skills, hooks and sources, as front ends list them. */
  catalog: Catalog;
  /** Trust, plugins and pages. */
  admin: Admin;
  /** The effect seam. */
  dispatcher: Dispatcher;
  /** Runs, sessions, sub-agents. */
  runs: Runs;
}

/** Wires the services of a harness on its kernel. */
export function wireServices(
  k: Kernel,
  opts: HarnessOptions,
  extra: { boundMs: number; children: ChildEnvironment },
): Services {
  const { cwd, home } = k.paths;
  const log = (line: string) => k.log(line);
  const { discovery, registries, stages, tools } = k;
  const sources = new Sources({
    discovery,
    stages,
    registries,
    cwd,
    home,
    isTrusted: (dir) => k.trust.isTrusted(dir),
    log,
  });
  // who started whom: the ceiling and behavior each run inherited (ceilings only narrow)
  const lineage = new AgentLineage();
  const packs = new Packs({
    dirs: () => sources.packDirs(),
    dataDir: join(home, "plugin-data"),
    approvals: new GuardApprovals(home),
    loader: opts.programLoader,
    places: { workspace: cwd, home, userHome: k.env.HOME ?? "/" },
    foregroundOff: opts.config !== undefined
      ? foregroundOptOutsOf(opts.config)
      : readForegroundOptOuts(home),
    log,
    home,
    project: projectRoot(cwd, home),
    runtime: opts.packRuntime,
    registries,
    behaviorOf: (p) => lineage.behaviorOf(p),
    onMethodCall: opts.seamTrace?.method && ((m) => opts.seamTrace!.method!(m)),
  });
  const skillCatalog = new SkillCatalog({
    snapshot: () => discovery.current(),
    runtime: () => registries.skills.values(),
    packs,
    userHome: k.env.HOME ?? "/",
    harnessHome: home,
    extraRoots: () => k.claude.skillRoots(),
  });
  const children = extra.children;
  const catalog = new Catalog({
    cwd,
    discovery,
    providers: k.providerCatalog,
    tools,
    execTools: k.execTools,
    skills: skillCatalog,
    registries,
    stages,
    sources,
    children,
    claude: k.claude,
  });
  const { dispatcher, boundaries } = effectSeam({
    guards: opts.guards,
    hooks: opts.effectHooks,
    trace: opts.seamTrace,
    registries,
    floor: opts.floor ?? k.effectFloor,
    audit: k.audit,
    log,
    lineage,
  });
  k.claude.shell = claudeShell(k, dispatcher, extra.children);
  const runs = new Runs({
    config: k.config,
    paths: k.paths,
    log,
    boundMs: extra.boundMs,
    packs,
    stages,
    sources,
    discovery,
    registries,
    tools,
    dispatcher,
    boundaries,
    children,
    skills: skillCatalog,
    effects: k.effectFloor &&
      (opts.editorFiles
        ? { ...k.effectFloor.effects, editor: opts.editorFiles }
        : k.effectFloor.effects),
    lifecycle: k.host.lifecycle,
    loopEnd: [...(opts.loopEnd ?? []), k.claude.stop],
    lineage,
    resolve: (provider, model) => catalog.resolve(provider, model),
    providers: () => catalog.providers(),
    namedAgent: (name) => k.claude.agents().find((a) => a.name === name),
  });
  const admin = new Admin({
    host: k.host,
    trust: {
      store: k.trust,
      home,
      cwd,
      invalidate: () => {
        discovery.invalidate();
        k.claude.layout.invalidate();
      },
      reloadPacks: () => packs.load(),
      reloadPlugin: (id) => k.host.reload(id),
    },
    floor: k.effectFloor,
    stages,
    snapshot: () => discovery.current(),
    cwd,
    hookTimeoutMs: k.config.hookTimeoutMs,
  });
  return { sources, packs, skillCatalog, catalog, admin, dispatcher, runs };
}

/** `!command` lines of slash commands: the `bash` tool through the seam, outside a turn. */
function claudeShell(
  k: Kernel,
  dispatcher: Dispatcher,
  children: Pick<ChildEnvironment, "envFor">,
): (command: string, session?: string) => Promise<string> {
  const { cwd } = k.paths;
  return shellThroughSeam({
    dispatch: (call, core) => dispatcher.dispatch(call, core),
    bash: () => k.registries.tools.get("bash"),
    context: (signal, callId) => ({
      cwd,
      sessionDir: "", // no session outside a turn: the output is not spilled
      callId,
      env: children.envFor({ stage: "tool_exec", cwd, tool: true }),
      signal,
      log: (line) => k.log(line),
      effects: k.effectFloor?.effects,
      settings: k.config,
    }),
  });
}
