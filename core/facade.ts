/**
 * What a front end (the CLI, the web view, an ACP client) reads of a harness,
 * as two narrow views beside `runs` and `packs`: the {@link Catalog} of
 * providers, tools, skills, hooks and sources, and the {@link Admin} of
 * trust, plugins and pages. Each view is handed the services it reads.
 *
 * @module
 */
import type { ChildEnvRequest, SkillInfo } from "./base/mod.ts";
import type { Discovery, Snapshot } from "./discovery/mod.ts";
import type { StageHook, StageRunner } from "./loop/mod.ts";
import type { PageService, PluginHost, PluginStatus, Registries } from "./plugins/mod.ts";
import type { ProviderCatalog, ProviderInfo } from "./providers/mod.ts";
import type { SkillProblem } from "./skills/mod.ts";
import type { TrustStore } from "./trust/mod.ts";
import type { ChildEnvironment } from "./child_env.ts";
import { resolveModel } from "./resolution.ts";
import type { SkillCatalog } from "./skill_catalog.ts";
import type { Sources } from "./sources.ts";
import type { ExecutableSchemas, ToolCatalog } from "./tool_catalog.ts";

/** What the catalog reads. */
export interface CatalogInit {
  /** The working directory (the default of `skills`). */
  cwd: string;
  /** Discovery snapshots. */
  discovery: Discovery;
  /** Providers: registered, `.conf`, executable. */
  providers: ProviderCatalog;
  /** Tools: registered and executable. */
  tools: ToolCatalog;
  /** The skills catalog. */
  skills: SkillCatalog;
  /** In-process stage hooks. */
  registries: Pick<Registries, "stageHooks">;
  /** Runs the `resolve` stage. */
  stages: StageRunner;
  /** The `sources` chain and the built-ins' directory. */
  sources: Sources;
  /** The environments of children. */
  children: Pick<ChildEnvironment, "envFor">;
}

/** Providers, tools, skills, hooks and sources, as a front end lists them. */
export class Catalog {
  #o: CatalogInit;

  /** Creates the view. */
  constructor(init: CatalogInit) {
    this.#o = init;
  }

  /** The current discovery snapshot. */
  snapshot(provider = "", protocol = ""): Snapshot {
    return this.#o.discovery.current(provider, protocol);
  }

  /** Every provider: registered ones first, then discovered (more local later). */
  providers(snap: Snapshot = this.snapshot()): Promise<ProviderInfo[]> {
    return Promise.resolve(this.#o.providers.list(snap.providers.values()));
  }

  /** Problems with `.conf` files (for `hs doctor`). */
  confProblems(): { path: string; reason: string }[] {
    return this.#o.providers.problems();
  }

  /** Resolves provider and model through the `resolve` stage chain. */
  resolve(provider = "", model = ""): Promise<{ provider: string; model: string }> {
    return resolveModel(
      {
        stages: this.#o.stages,
        snapshot: this.snapshot(),
        cwd: this.#o.cwd,
        providers: (snap) => this.providers(snap),
        problems: () => this.confProblems(),
      },
      provider,
      model,
    );
  }

  /** All skills seen from `cwd` (the merge rule: {@link SkillCatalog.all}). */
  skills(cwd: string = this.#o.cwd): { skills: SkillInfo[]; problems: SkillProblem[] } {
    return this.#o.skills.all(cwd);
  }

  /** Executable tool schemas plus the problems found (for `hs tools` / `hs doctor`). */
  executableToolSchemas(snap: Snapshot = this.snapshot()): Promise<ExecutableSchemas> {
    return this.#o.tools.executableSchemas(snap);
  }

  /** Stage hooks registered in-process for a stage. */
  builtinHooks(stage: string): StageHook[] {
    return this.#o.registries.stageHooks.values().filter((h) => h.stage === stage);
  }

  /** Runs the `sources` stage when the walk changed (see {@link Sources.refresh}). */
  refreshSources(signal?: AbortSignal): Promise<void> {
    return this.#o.sources.refresh(signal);
  }

  /** The generated source directory of the built-ins (first in `HARNESS_SOURCES`), if any. */
  get builtinSource(): string | undefined {
    return this.#o.sources.builtin;
  }

  /** The environment of a child process (hook, tool, provider, command): no credentials. */
  childEnv(req: ChildEnvRequest): Record<string, string> {
    return this.#o.children.envFor(req);
  }
}

/** Trust, plugins and pages, as a front end administers them. */
export class Admin {
  /** Creates the view. */
  constructor(readonly trust: TrustStore, readonly host: PluginHost) {}

  /** Status of every runtime plugin. */
  runtimePluginStatus(): PluginStatus[] {
    return this.host.status();
  }

  /** Pages registered by plugins: listed, read and acted on with the host's signal. */
  get pages(): PageService {
    return this.host.pages;
  }
}
