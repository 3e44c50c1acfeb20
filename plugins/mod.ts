/**
 * The built-in runtime plugins, registered exactly like a user's plugins, and
 * `Harness` (harness.ts): the kernel started with them.
 *
 * @module
 */
export { type JsonlAuditConfig, jsonlAuditPlugin } from "./audit_jsonl/mod.ts";
export {
  type ConnectContext,
  connectMcp,
  type ConnectorClient,
  type ConnectorPluginOptions,
  createConnectorPlugin,
  type McpConnectOptions,
  mcpPlugin,
  type McpPluginConfig,
  type McpPluginDeps,
  type McpRemoteServer,
  type McpServerConfig,
  type McpStdioServer,
  type McpTrust,
} from "./connectors/mod.ts";
export { type CloudConfig, cloudConnectorPlugin, type CloudDeps } from "./connector_cloud/mod.ts";
export { type MemoryConfig, memoryPlugin, MemoryStore } from "./memory/mod.ts";
export { type BuiltinOptions, builtinPlugins, providerFactory } from "./builtins.ts";
export { Harness } from "./harness.ts";
export {
  type EmbeddedHarness,
  Embedding,
  type EmbeddingFloor,
  type EmbeddingFloorFlags,
  type EmbeddingOptions,
  type PluginContributions,
} from "./embedding.ts";
