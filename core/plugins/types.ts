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
  Json,
  ModelDefinition,
  ModelProvider,
  PromptSource,
  ProtocolAdapter,
  SkillInfo,
  ToolDefinition,
} from "../base/mod.ts";
import type { StageHook } from "../loop/mod.ts";

/** The one API version this host implements. */
export const API_VERSION = 1;

/** A CLI command contributed by a plugin (`hs <name>`). */
export interface CommandDefinition {
  name: string;
  describe: string;
  /** Runs with the remaining argv; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** A page descriptor (seed 002 `ctx.pages.register`); rendered by hosts that have pages. */
export interface PageDefinition {
  id: string;
  title: string;
  read(): Promise<Json>;
  action?(name: string, args: Json): Promise<Json>;
}

/** Lifecycle events a plugin may observe with `ctx.hooks.on`. */
export type LifecycleEvent = "turn_start" | "turn_end" | "round_start" | "round_end" | "event";

/** A logger bound to a plugin: lines go to HARNESS_LOG, never to the model. */
export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The context `setup` receives. */
export interface PluginContext<C = unknown> {
  readonly id: string;
  readonly config: C;
  readonly signal: AbortSignal;
  readonly logger: PluginLogger;
  tools: { register(tool: ToolDefinition): void };
  skills: { register(skill: Omit<SkillInfo, "source" | "path"> & { path?: string }): void };
  models: {
    register(provider: ModelProvider, models?: ModelDefinition[]): void;
    /** Registers a wire protocol adapter (built-in providers plugin). */
    registerProtocol(adapter: ProtocolAdapter): void;
  };
  auth: { register(provider: AuthProvider): void };
  hooks: {
    /** Registers an in-process stage hook (declare it with `stageHook` for a typed context). */
    register(hook: StageHook): void;
    /** Observes a lifecycle event; unsubscribed automatically on stop. */
    on(event: LifecycleEvent, handler: (data: unknown) => void | Promise<void>): void;
  };
  audit: { registerSink(sink: AuditSink): void };
  prompts: { register(source: PromptSource): void };
  pages: { register(page: PageDefinition): void };
  commands: { register(command: CommandDefinition): void };
  /** Behavior packs the plugin ships (absolute directories with a plugin.json). */
  packs: { register(dir: string): void };
  /** Background work started once every setup finished. */
  onStart(fn: () => void | Promise<void>): void;
  /** Cleanup, run in reverse order of registration. */
  onDispose(fn: () => void | Promise<void>): void;
}

/** A runtime plugin definition. */
export interface RuntimePlugin<C = unknown> {
  id: string;
  version: string;
  apiVersion: 1;
  parseConfig?(raw: unknown): C;
  setup(ctx: PluginContext<C>): void | Promise<void>;
}

/** An entry of `runtimePlugins` (inline or from plugins.json). */
export interface RuntimePluginEntry {
  plugin?: RuntimePlugin<unknown>;
  /** Absolute module path (plugins.json). */
  module?: string;
  id?: string;
  enabled?: boolean;
  required?: boolean;
  config?: unknown;
  /** Set by the harness for its own plugins: their contributions are owned by "builtin:<id>". */
  builtin?: boolean;
}

/** Status of one plugin, as shown by `hs doctor`. Never echoes plugin exception text. */
export interface PluginStatus {
  id: string;
  version: string;
  state: "active" | "failed" | "disabled" | "stopped";
  required: boolean;
  /** A sanitized reason (no plugin-provided exception text). */
  reason?: string;
}
