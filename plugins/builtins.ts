/**
 * The built-in plugins as one list (`builtinPlugins`) and the factory of `.conf` providers (`providerFactory`), both handed the provider dependencies (environment, stored keys).
 *
 * @module
 */
import { join } from "../core/early/mod.ts";
import {
  PROJECT_MCP_FILE,
  type ProviderFactory,
  type RuntimePluginEntry,
  statOrUndefined,
} from "../core/mod.ts";
import { jsonlAuditPlugin } from "./audit_jsonl/mod.ts";
import { cloudConnectorPlugin } from "./connector_cloud/mod.ts";
import { mcpPlugin, type McpTrust } from "./connectors/mod.ts";
import { coreToolsPlugin } from "./core_tools/mod.ts";
import { memoryPlugin } from "./memory/mod.ts";
// the providers' set-up, not their adapters: those load on the first request
import {
  confProvider,
  confWarnings,
  parseConf,
  type ProviderDeps,
  providersPlugin,
} from "./providers/setup/mod.ts";

/** Where and how the built-ins run. */
export interface BuiltinOptions {
  /** HARNESS_HOME (memory lives there). */
  home: string;
  /** The working directory (stdio MCP servers start there). */
  cwd: string;
  /** An ephemeral instance: no hosted connector. */
  ephemeral?: boolean;
  /** False: no hosted connector (`connector-cloud`). */
  cloudConnectors?: boolean;
  /** The harness's trust store (the `mcp` plugin reads a trusted workspace's `.mcp.json`). */
  trust?: McpTrust;
  /** MCP servers a front end was handed (see `HarnessOptions.mcpServers`). */
  mcpServers?: Record<string, Record<string, unknown>>;
}

type Entry = RuntimePluginEntry["plugin"];

/**
 * Built-in plugin entries for a harness with the given environment and key lookup:
 * providers, core tools, memory, then the opt-in ones (`audit-jsonl`, `mcp`: off until
 * plugins.json or `HarnessOptions.config` names them — `mcp` is on, too, when the
 * working directory has a `.mcp.json`, which it reads only there if trusted), then `connector-cloud`
 * (outside ephemeral instances, unless `cloudConnectors: false`).
 */
export function builtinPlugins(deps: ProviderDeps, opts?: BuiltinOptions): RuntimePluginEntry[] {
  const entries: RuntimePluginEntry[] = [
    { plugin: providersPlugin(deps) as Entry, required: true },
    { plugin: coreToolsPlugin as Entry, required: true },
  ];
  if (!opts) return entries;
  entries.push(
    { plugin: memoryPlugin({ home: opts.home }) as Entry, required: true },
    { plugin: jsonlAuditPlugin as Entry, required: true, enabled: false, optIn: true },
    {
      plugin: mcpPlugin({
        env: deps.env,
        cwd: opts.cwd,
        trust: opts.trust,
        frontEndServers: opts.mcpServers,
      }) as Entry,
      required: true,
      enabled: Object.keys(opts.mcpServers ?? {}).length > 0 || (opts.trust !== undefined &&
        statOrUndefined(join(opts.cwd, PROJECT_MCP_FILE))?.isFile === true),
      optIn: true,
    },
  );
  if (!opts.ephemeral && opts.cloudConnectors !== false) {
    entries.push({
      plugin: cloudConnectorPlugin({ env: deps.env }) as Entry,
      required: false,
    });
  }
  return entries;
}

/** `.conf` support for discovered provider variants. */
export function providerFactory(deps: ProviderDeps): ProviderFactory {
  return {
    fromConf: (name, text, path) => confProvider(name, parseConf(text, path), deps),
    warnings: confWarnings,
    authEnvOf: (text) => {
      for (const line of text.split("\n")) {
        const m = /^auth_env=(.*)$/.exec(line.trim());
        if (m) return m[1].trim() || undefined;
      }
      return undefined;
    },
  };
}
