/**
 * `createConnectorPlugin` (seed 002 "Plugin de connecteur"): a convenience
 * factory that returns an ordinary RuntimePlugin. Its setup connects a
 * {@link ConnectorClient}, registers the client's cleanup right away (so the
 * client is closed even when tool discovery fails), discovers the tools and
 * registers them under a namespace, forcing `readOnly: false` and
 * `sessionLocal: false` — provider metadata can never skip approval.
 *
 * @module
 */
import type { ChildSandbox, PluginLogger, RuntimePlugin, ToolDefinition } from "../../core/mod.ts";
import { HarnessError } from "../../core/mod.ts";

/** A connected client of an external tool provider (an SDK wrapped by the plugin). */
export interface ConnectorClient {
  /** The tools to expose (only trusted ones; validate arguments; honour each call's signal). */
  tools(): Promise<readonly ToolDefinition[]>;
  /** Releases the connection (called once, on stop or when discovery failed). */
  close(): Promise<void> | void;
}

/** What `connect` receives besides the parsed config. */
export interface ConnectContext {
  /** Aborted when the plugin stops. */
  signal: AbortSignal;
  /** The plugin's logger. */
  logger: PluginLogger;
  /** The OS sandbox for child processes the connector starts. */
  sandbox: ChildSandbox;
}

/** Options of {@link createConnectorPlugin}. */
export interface ConnectorPluginOptions<C> {
  /** The plugin id (also the default tool namespace). */
  id: string;
  /** The plugin's version (semver). */
  version: string;
  /** Validates the raw config (throw to reject it). */
  parseConfig?(raw: unknown): C;
  /** Connects the client. Bind accounts from trusted config here, never from model input. */
  connect(config: C, ctx: ConnectContext): Promise<ConnectorClient>;
  /**
   * The prefix of every tool name (`<namespace>__<tool>`); default: the plugin id with
   * characters outside `[A-Za-z0-9_-]` replaced by `_`.
   */
  namespace?: string;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The namespace of a plugin id. */
export function namespaceOf(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** `tool` under `namespace`, external: not read-only, not session-local. */
export function externalTool(namespace: string, tool: ToolDefinition): ToolDefinition {
  const prefix = `${namespace}__`;
  const name = tool.name.startsWith(prefix) ? tool.name : `${prefix}${tool.name}`;
  if (!TOOL_NAME.test(name)) {
    throw new HarnessError(
      `connector tool name "${name}" is not 1-64 letters, digits, _ or -`,
      "shorten the namespace or the tool name",
    );
  }
  return { ...tool, name, readOnly: false, sessionLocal: false };
}

/** Once-only close of a client. */
function closer(client: ConnectorClient): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= Promise.resolve().then(() => client.close());
    return closing;
  };
}

/** A RuntimePlugin that exposes a connector's tools. */
export function createConnectorPlugin<C>(opts: ConnectorPluginOptions<C>): RuntimePlugin<C> {
  const namespace = opts.namespace ?? namespaceOf(opts.id);
  return {
    id: opts.id,
    version: opts.version,
    apiVersion: 1,
    parseConfig: opts.parseConfig,
    async setup(ctx) {
      const client = await opts.connect(ctx.config, {
        signal: ctx.signal,
        logger: ctx.logger,
        sandbox: ctx.sandbox,
      });
      const close = closer(client);
      ctx.onDispose(close);
      let tools: readonly ToolDefinition[];
      try {
        tools = await client.tools();
      } catch (err) {
        await close();
        throw err;
      }
      for (const t of tools) ctx.tools.register(externalTool(namespace, t));
    },
  };
}
