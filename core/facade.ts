/**
 * What a front end (the CLI, the web view, an ACP client) reads of a harness,
 * two of the views of its {@link FrontEnd} (front_end.ts): the {@link Catalog} of
 * providers, tools, skills, hooks, commands and sources, and the {@link Admin} of
 * trust, the effect floor, plugins, pages and the `auth-set` stage. Each view is handed
 * the services it reads and hands out none of them.
 *
 * @module
 */
import type { ChildEnvRequest, Owner, PromptSource, SkillInfo, ToolSchema } from "./base/mod.ts";
import type { Discovery, Snapshot } from "./discovery/mod.ts";
import type { EffectFloor } from "./guards/mod.ts";
import type { ChainResult, StageHook, StageRunner } from "./loop/mod.ts";
import type {
  CommandDefinition,
  PageService,
  PluginHost,
  PluginStatus,
  Registries,
} from "./plugins/mod.ts";
import type { ConfProblem, ProviderCatalog, ProviderInfo } from "./providers/mod.ts";
import type { SkillProblem } from "./skills/mod.ts";
import type { ExecutableTools } from "./tools/mod.ts";
import type { ChildEnvironment } from "./child_env.ts";
import type { ClaudeCompat } from "./compat/mod.ts";
import { FloorView, TrustAdmin, type TrustAdminInit } from "./admin_views.ts";
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
  /** What plugins registered: stage hooks, tools, prompt sections, models, commands. */
  registries: Pick<Registries, "stageHooks" | "tools" | "prompts" | "models" | "commands">;
  /** Executable tools (`--describe`). */
  execTools: Pick<ExecutableTools, "describe">;
  /** Runs the `resolve` stage. */
  stages: StageRunner;
  /** The `sources` chain and the built-ins' directory. */
  sources: Sources;
  /** The environments of children. */
  children: Pick<ChildEnvironment, "envFor">;
  /** A Claude Code project's slash commands. */
  claude?: Pick<ClaudeCompat, "commands" | "expandCommand" | "untrusted">;
}

/** A slash command of the REPL from another layout (`.claude/commands/<name>.md`). */
export interface SlashCommandInfo {
  /** `/name` without the slash. */
  name: string;
  /** One line for `/help`. */
  description: string;
  /** What its arguments are (`<name> [mood]`). */
  argumentHint: string;
  /** The file. */
  path: string;
}

/** Providers, tools, skills, hooks and sources, as a front end lists them. */
export class Catalog {
  #o: CatalogInit;

  /** Creates the view. */
  constructor(init: CatalogInit) {
    this.#o = init;
  }

  /** The slash commands of a Claude Code project (`.claude/commands`), by name. */
  slashCommands(): SlashCommandInfo[] {
    return (this.#o.claude?.commands() ?? []).map((c) => ({
      name: c.name,
      description: c.description,
      argumentHint: c.argumentHint,
      path: c.path,
    }));
  }

  /** Project directories whose Claude Code files are not read (untrusted), with what they hold. */
  claudeUntrusted(): { dir: string; holds: string[] }[] {
    return this.#o.claude?.untrusted() ?? [];
  }

  /**
   * The message slash command `name` sends with `args` (its `!` lines run as `bash` calls
   * through the seam), or undefined when there is no such command.
   */
  expandSlashCommand(name: string, args: string, session?: string): Promise<string | undefined> {
    return this.#o.claude?.expandCommand(name, args, session) ?? Promise.resolve(undefined);
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

  /** Unknown keys of the `.conf` files read so far, one warning each. */
  confWarnings(): ConfProblem[] {
    return this.#o.providers.warnings();
  }

  /** Who registered a model list for provider `name` (a plugin's `models`), if anyone. */
  modelsOwner(name: string): Owner | undefined {
    return this.#o.registries.models.entry(name)?.owner;
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

  /** The tools plugins registered: name, who registered it, its one-paragraph description. */
  registeredTools(): { name: string; owner: Owner; description: string }[] {
    return this.#o.registries.tools.entries().map((e) => ({
      name: e.key,
      owner: e.owner,
      description: e.value.describe ?? e.value.description,
    }));
  }

  /** Every tool the model may be offered (registered and executable), with owner and schema. */
  async tools(
    snap: Snapshot = this.snapshot(),
  ): Promise<Map<string, { owner: Owner; schema: ToolSchema }>> {
    const out = new Map<string, { owner: Owner; schema: ToolSchema }>();
    for (const [name, t] of await this.#o.tools.resolve(snap)) {
      out.set(name, { owner: t.owner, schema: t.schema });
    }
    return out;
  }

  /** An executable tool's `--describe` line (cached with its schema). */
  describeTool(path: string): Promise<string> {
    return this.#o.execTools.describe(path);
  }

  /** The prompt sections plugins registered, each with its owner. */
  prompts(): { owner: Owner; value: PromptSource }[] {
    return this.#o.registries.prompts.entries().map((e) => ({ owner: e.owner, value: e.value }));
  }

  /** Stage hooks registered in-process for a stage. */
  builtinHooks(stage: string): StageHook[] {
    return this.#o.registries.stageHooks.values().filter((h) => h.stage === stage);
  }

  /** Who registered each in-process stage hook, by `<stage>/<name>`. */
  hookOwners(): Map<string, Owner> {
    return new Map(this.#o.registries.stageHooks.entries().map((e) => [e.key, e.owner]));
  }

  /** The commands plugins registered (`hs <name>`), each with its owner. */
  commands(): { name: string; command: CommandDefinition; owner: Owner }[] {
    return this.#o.registries.commands.entries().map((e) => ({
      name: e.key,
      command: e.value,
      owner: e.owner,
    }));
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

/** What the admin view reads. */
export interface AdminInit {
  /** The plugin host: status, contributions, pages. */
  host: PluginHost;
  /** The trust store and what trusting loads again. */
  trust: TrustAdminInit;
  /** The effect floor, if the harness has one. */
  floor?: EffectFloor;
  /** Runs the `auth-set` stage. */
  stages: Pick<StageRunner, "isEmpty" | "run">;
  /** Discovery snapshots (the stage's executables). */
  snapshot(): Snapshot;
  /** The working directory of the stage. */
  cwd: string;
  /** `HARNESS_HOOK_TIMEOUT` in ms (a person may be typing: the stage gets five). */
  hookTimeoutMs: number;
}

/** Trust, the effect floor, plugins and pages, as a front end administers them. */
export class Admin {
  #o: AdminInit;
  #trust?: TrustAdmin;
  #floor?: FloorView;

  /** Creates the view (its trust and floor views are built on first use). */
  constructor(init: AdminInit) {
    this.#o = init;
  }

  /** Status of every runtime plugin. */
  runtimePluginStatus(): PluginStatus[] {
    return this.#o.host.status();
  }

  /** What plugin `id` contributed, per registry kind (`{ tool: ["x__y"] }`). */
  contributions(id: string): Record<string, string[]> {
    return this.#o.host.contributions(id);
  }

  /** Pages registered by plugins: listed, read and acted on with the host's signal. */
  get pages(): PageService {
    return this.#o.host.pages;
  }

  /** Workspace trust: what changed, trusting now. */
  get trust(): TrustAdmin {
    return this.#trust ??= new TrustAdmin(this.#o.trust);
  }

  /** The effect floor (undefined: none in this process, every call is allowed). */
  get floor(): FloorView | undefined {
    if (!this.#o.floor) return undefined;
    return this.#floor ??= new FloorView(this.#o.floor);
  }

  /**
   * Runs the `auth-set` stage for `provider` (hooks that print a credential) through the
   * harness's stage runner, so its executables run inside the floor's sandbox; undefined when
   * the stage has no hooks.
   */
  async authSet(provider: string): Promise<ChainResult | undefined> {
    const snapshot = this.#o.snapshot();
    if (this.#o.stages.isEmpty("auth-set", snapshot)) return undefined;
    const controller = new AbortController();
    return await this.#o.stages.run("auth-set", {}, {
      kind: "auth-set",
      provider,
      signal: controller.signal,
    }, {
      snapshot,
      cwd: this.#o.cwd,
      signal: controller.signal,
      provider,
      extraEnv: { HARNESS_AUTH_PROVIDER: provider },
      timeoutMs: this.#o.hookTimeoutMs * 5,
    });
  }
}
