/**
 * The built-in `mcp` plugin: connects the MCP servers of its configuration
 * (plugins.json `config.servers`, and `.mcp.json`-style files listed in
 * `config.files`) when the harness starts, and registers each server's tools
 * as `mcp__<server>__<tool>` at effect point `mcp`. A server that cannot start
 * is skipped with a log line (the others stay usable) and shown as failed on
 * the plugin's `mcp` page; `hs plugins` lists the tools that came up.
 *
 * @module
 */
import type { Json, RuntimePlugin } from "../../core/mod.ts";
import { readTextOrUndefined } from "../../core/mod.ts";
import { externalTool } from "./connector.ts";
import { connectMcp } from "./mcp.ts";
import { type McpPluginConfig, parseMcpConfig } from "./mcp_config.ts";

/** What the `mcp` plugin needs from the harness. */
export interface McpPluginDeps {
  /** The harness's environment (for `${VAR}` expansion and stdio servers' variables). */
  env: Record<string, string | undefined>;
  /** The working directory stdio servers start in (unless they name their own). */
  cwd: string;
}

interface ServerState {
  name: string;
  type: string;
  state: "active" | "failed";
  tools: number;
}

/** The `mcp` runtime plugin. */
export function mcpPlugin(deps: McpPluginDeps): RuntimePlugin<McpPluginConfig> {
  return {
    id: "mcp",
    version: "1.0.0",
    apiVersion: 1,
    parseConfig: (raw) => parseMcpConfig(raw, deps.env, readTextOrUndefined),
    async setup(ctx) {
      const states: ServerState[] = [];
      const connected = await Promise.all(
        Object.entries(ctx.config.servers).map(async ([name, cfg]) => {
          try {
            const client = await connectMcp(cfg, {
              name,
              signal: ctx.signal,
              logger: ctx.logger,
              sandbox: ctx.sandbox,
              cwd: deps.cwd,
              timeoutMs: ctx.config.timeoutMs,
              env: deps.env,
            });
            ctx.onDispose(() => client.close());
            try {
              return { name, cfg, tools: await client.tools() };
            } catch (err) {
              await client.close();
              throw err;
            }
          } catch (err) {
            const msg = err instanceof Error ? err.message : String(err);
            ctx.logger.warn(`server "${name}" could not start: ${msg.slice(0, 300)}`);
            states.push({ name, type: cfg.type, state: "failed", tools: 0 });
            return undefined;
          }
        }),
      );
      for (const c of connected) {
        if (!c) continue;
        for (const t of c.tools) ctx.tools.register(externalTool(`mcp__${c.name}`, t));
        states.push({ name: c.name, type: c.cfg.type, state: "active", tools: c.tools.length });
      }
      states.sort((a, b) => (a.name < b.name ? -1 : 1));
      ctx.pages.register({
        id: "mcp",
        title: "MCP servers",
        description: "The MCP servers of this harness and their tools",
        read: () => ({ servers: states.map((s) => ({ ...s })) as unknown as Json }),
      });
    },
  };
}
