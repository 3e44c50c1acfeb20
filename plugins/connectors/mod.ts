/**
 * Connectors (seed 002 "Plugin de connecteur"): `createConnectorPlugin` for any
 * external tool provider, and the built-in `mcp` plugin with its MCP client on
 * `@modelcontextprotocol/sdk` (stdio and streamable HTTP).
 *
 * @module
 */
export {
  type ConnectContext,
  type ConnectorClient,
  type ConnectorPluginOptions,
  createConnectorPlugin,
  externalTool,
  namespaceOf,
} from "./connector.ts";
export { connectMcp, type McpConnectOptions, mcpResult } from "./mcp.ts";
export {
  expandVars,
  type McpPluginConfig,
  type McpRemoteServer,
  type McpServerConfig,
  type McpStdioServer,
  parseMcpConfig,
  projectServerConfig,
} from "./mcp_config.ts";
export { mcpPlugin, type McpPluginDeps, type McpTrust } from "./mcp_plugin.ts";
