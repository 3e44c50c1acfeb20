/**
 * The RuntimePlugin contract (seed 002): a plugin is `{id, version,
 * apiVersion: 1, parseConfig, setup(ctx)}`; `setup` registers contributions
 * through `ctx`, every contribution is owned by the plugin and removed when
 * it stops.
 *
 * @module
 */
import type {
  AuditSink,
  AuthProvider,
  ChildSandbox,
  Json,
  LifecycleEvent,
  ModelDefinition,
  ModelProvider,
  PromptSource,
  ProtocolAdapter,
  SkillInfo,
  ToolDefinition,
} from "../base/mod.ts";
import type { LifecycleHandler } from "./lifecycle.ts";
import type { StageHook } from "../loop/mod.ts";

/** The one API version this host implements. */
export const API_VERSION = 1;

/** A CLI command contributed by a plugin (`hs <name>`). */
export interface CommandDefinition {
  /** The command's name (`hs <name>`). */
  name: string;
  /** One line for `hs --help`. */
  describe: string;
  /** Runs with the remaining argv; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** What a page's handlers receive from the host. */
export interface PageContext {
  /** The host's signal: aborted when the plugin stops or the caller gives up. */
  signal: AbortSignal;
}

/** An action a page offers (a button in a web UI). */
export interface PageAction {
  /** Lowercase letters, digits, `_` and `-`. */
  name: string;
  /** What a UI shows. */
  label: string;
}

/**
 * A page descriptor (seed 002 `ctx.pages.register`): rendered by the host (the web UI),
 * never by the plugin. `read` returns JSON data; `action` performs one of `actions`.
 */
export interface PageDefinition {
  /** Lowercase letters, digits, `.`, `_` and `-`. */
  id: string;
  /** What a UI shows as the page's title. */
  title: string;
  /** One line for listings. */
  description?: string;
  /** Actions `action` accepts (default none). */
  actions?: PageAction[];
  /** Returns the page's data. */
  read(ctx: PageContext): Promise<Json> | Json;
  /** Performs action `name` with `args`; returns its result. */
  action?(name: string, args: Json, ctx: PageContext): Promise<Json> | Json;
}

/** How a sink is registered (`ctx.audit.registerSink(sink, options)`). */
export interface AuditSinkOptions {
  /**
   * Fail closed: a permission decision waits until this sink wrote its record, and the
   * call is refused when the sink throws or takes longer than the cleanup bound.
   */
  failClosed?: boolean;
}

/** A logger bound to a plugin: lines go to HARNESS_LOG, never to the model. */
export interface PluginLogger {
  /** Logs information. */
  info(message: string): void;
  /** Logs a warning. */
  warn(message: string): void;
  /** Logs an error. */
  error(message: string): void;
}

/** The context `setup` receives. */
export interface PluginContext<C = unknown> {
  /** The plugin's id. */
  readonly id: string;
  /** The configuration, as `parseConfig` returned it (else the raw value). */
  readonly config: C;
  /** Aborted when the plugin stops. */
  readonly signal: AbortSignal;
  /** The plugin's logger. */
  readonly logger: PluginLogger;
  /** Registers tools. */
  tools: { register(tool: ToolDefinition): void };
  /** Registers runtime skills (`path` optional: the body then comes with the skill). */
  skills: { register(skill: Omit<SkillInfo, "source" | "path"> & { path?: string }): void };
  /** Registers model providers and protocol adapters. */
  models: {
    register(provider: ModelProvider, models?: ModelDefinition[]): void;
    /** Registers a wire protocol adapter (built-in providers plugin). */
    registerProtocol(adapter: ProtocolAdapter): void;
  };
  /** Registers auth providers (credentials for model providers). */
  auth: { register(provider: AuthProvider): void };
  /** Stage hooks and lifecycle event observers. */
  hooks: {
    /** Registers an in-process stage hook (declare it with `stageHook` for a typed context). */
    register(hook: StageHook): void;
    /**
     * Observes a lifecycle event with its typed payload (see {@link LifecycleEvents});
     * unsubscribed automatically on stop. Handlers fail open: an error is logged (without
     * its text) and the loop goes on.
     */
    on(event: "session_created", handler: LifecycleHandler<"session_created">): void;
    on(event: "turn_start", handler: LifecycleHandler<"turn_start">): void;
    on(event: "round_start", handler: LifecycleHandler<"round_start">): void;
    on(event: "model_request", handler: LifecycleHandler<"model_request">): void;
    on(event: "model_response", handler: LifecycleHandler<"model_response">): void;
    on(event: "round_end", handler: LifecycleHandler<"round_end">): void;
    on(event: "tool_start", handler: LifecycleHandler<"tool_start">): void;
    on(event: "tool_done", handler: LifecycleHandler<"tool_done">): void;
    on(event: "turn_end", handler: LifecycleHandler<"turn_end">): void;
    /** Any event (the payload is then the union of all payloads). */
    on(event: LifecycleEvent, handler: LifecycleHandler<LifecycleEvent>): void;
  };
  /** Registers audit sinks. */
  audit: { registerSink(sink: AuditSink, options?: AuditSinkOptions): void };
  /** Registers system prompt sections. */
  prompts: { register(source: PromptSource): void };
  /** Registers pages for a UI. */
  pages: { register(page: PageDefinition): void };
  /** Registers CLI commands. */
  commands: { register(command: CommandDefinition): void };
  /** Behavior packs the plugin ships (absolute directories with a plugin.json). */
  packs: { register(dir: string): void };
  /** Background work started once every setup finished. */
  onStart(fn: () => void | Promise<void>): void;
  /** Cleanup, run in reverse order of registration. */
  onDispose(fn: () => void | Promise<void>): void;
  /**
   * Reports the plugin as running but `degraded` (part of what it offers is missing), with
   * the reason `hs plugins` and `hs doctor` show: the plugin's own words, so name no secret.
   */
  degrade(reason: string): void;
  /**
   * Puts a child process the plugin starts (an MCP server, a helper) in the effect
   * floor's OS sandbox, or refuses it — the same rule as executable tools.
   */
  readonly sandbox: ChildSandbox;
}

/** A runtime plugin definition. */
export interface RuntimePlugin<C = unknown> {
  /** The plugin's id: lowercase letters, digits, `.`, `_` and `-`. */
  id: string;
  /** The plugin's version. */
  version: string;
  /** The plugin API version it targets (only 1 exists). */
  apiVersion: 1;
  /** Validates the raw configuration (throw to reject it); the result becomes `ctx.config`. */
  parseConfig?(raw: unknown): C | Promise<C>;
  /** Registers the plugin's contributions; a throw fails the plugin. */
  setup(ctx: PluginContext<C>): void | Promise<void>;
}

/** An entry of `runtimePlugins` (inline or from plugins.json). */
export interface RuntimePluginEntry {
  /** The plugin itself (inline entries). */
  plugin?: RuntimePlugin<unknown>;
  /** The module's `file:` URL (plugins.json: an absolute path or an installed package). */
  module?: string;
  /** Why plugins.json's module could not be resolved (the plugin then fails with it). */
  moduleError?: string;
  /** The plugin's id (plugins.json; the module's plugin must have it). */
  id?: string;
  /** False: the plugin is not loaded. */
  enabled?: boolean;
  /** A failing required plugin fails the harness (default true); an optional one is skipped. */
  required?: boolean;
  /** The raw configuration passed to `parseConfig`. */
  config?: unknown;
  /** Set by the harness for its own plugins: their contributions are owned by "builtin:<id>". */
  builtin?: boolean;
  /**
   * Off until a configured entry (plugins.json or `HarnessOptions.config`) names its id —
   * built-ins that need configuration (`audit-jsonl`, `mcp`) are listed this way.
   */
  optIn?: boolean;
  /** The bound of this plugin's `setup` and of its starts (default: the host's, 10 s). */
  setupTimeoutMs?: number;
}

/** Status of one plugin, as shown by `hs plugins`. Never echoes plugin exception text. */
export interface PluginStatus {
  /** The plugin's id. */
  id: string;
  /** The plugin's version. */
  version: string;
  /** Whether it runs (`degraded`: runs, but part of it did not come up), failed, is disabled or was stopped. */
  state: "active" | "degraded" | "failed" | "disabled" | "stopped";
  /** Whether its failure fails the harness. */
  required: boolean;
  /** True for the harness's own plugins (`core`, `providers`, `core-tools`, …). */
  builtin: boolean;
  /** A sanitized reason (no plugin-provided exception text). */
  reason?: string;
}
