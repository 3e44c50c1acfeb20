/**
 * Harness: an LLM agent harness you can extend in any language.
 *
 * ```ts
 * import { Harness } from "./mod.ts";
 * const harness = await Harness.create({ runtimePlugins: [{ plugin: myPlugin }] });
 * try {
 *   const r = await harness.run({ message: "hello" });
 *   console.log(r.output);
 * } finally {
 *   await harness.close();
 * }
 * ```
 *
 * The library has two faces, and exports nothing else of the kernel:
 *
 * - **embedding**: {@link Harness}`.create`, its options, what a run takes and returns;
 * - **the plugin API**: the `RuntimePlugin` contract and its context, stage hooks, lifecycle
 *   events, and the contracts they speak (core/contracts/: tools, providers, the
 *   conversation, stream events, audit, prompt sections), plus the built-in plugins an
 *   embedder may register.
 *
 * Inside this repository, the kernel's folders are reached through their own `mod.ts`
 * (`core/mod.ts` for the front ends); see docs/plugins.md, "Changes", for what the root
 * stopped exporting.
 *
 * @module
 */

// Embedding
export {
  type EmbeddedHarness,
  Embedding as Harness,
  type EmbeddingFloor,
  type EmbeddingFloorFlags,
  type EmbeddingOptions,
  type PluginContributions,
} from "./plugins/mod.ts";
export type { RunOptions, RunResult, SessionRef } from "./core/mod.ts";
export { errorMessage, HarnessError, ProviderError, VERSION } from "./core/mod.ts";

// The plugin API: the contracts
export * from "./core/contracts/mod.ts";
// … the runtime plugin and its context
export {
  API_VERSION,
  type AuditSinkOptions,
  type CommandDefinition,
  type PageAction,
  type PageContext,
  type PageDefinition,
  type PluginContext,
  type PluginLogger,
  type PluginStatus,
  type RuntimePlugin,
  type RuntimePluginEntry,
} from "./core/mod.ts";
// … stage hooks
export {
  type AuthSetContext,
  type ContextOf,
  KNOWN_STAGES,
  type ResolveApi,
  type ResolveContext,
  type SourcesContext,
  type StageContext,
  type StageHook,
  stageHook,
  type ToolCall,
  type TurnApi,
  type TurnContext,
  type TurnStage,
  type TypedStageHook,
} from "./core/mod.ts";
// … lifecycle events
export {
  LIFECYCLE_EVENTS,
  type LifecycleEvent,
  type LifecycleEvents,
  type LifecycleHandler,
  type LifecycleSubscription,
  type TurnScope,
} from "./core/mod.ts";
// … and what a stage hook's context hands out: the session, its notes, the providers
export { type Continuation, type Note, type NoteKind } from "./core/mod.ts";
export type {
  LockOptions,
  ProviderInfo,
  ResolvedLimits,
  Session,
  SessionConf,
  SessionEntry,
  SummaryRecord,
} from "./core/mod.ts";
// … and the built-in plugins an embedder may register
export {
  type CloudConfig,
  cloudConnectorPlugin,
  type CloudDeps,
  type ConnectContext,
  connectMcp,
  type ConnectorClient,
  type ConnectorPluginOptions,
  createConnectorPlugin,
  type JsonlAuditConfig,
  jsonlAuditPlugin,
  type McpConnectOptions,
  mcpPlugin,
  type McpPluginConfig,
  type McpPluginDeps,
  type McpRemoteServer,
  type McpServerConfig,
  type McpStdioServer,
  type McpTrust,
  type MemoryConfig,
  memoryPlugin,
} from "./plugins/mod.ts";
