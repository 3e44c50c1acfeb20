/**
 * The built-in `mcp` plugin: connects the MCP servers of its configuration
 * (plugins.json `config.servers`, and `.mcp.json`-style files listed in
 * `config.files`) and, in a trusted workspace, the approved servers of the
 * workspace's own `.mcp.json` (project_servers.ts) when the harness starts,
 * and registers each server's tools as `mcp__<server>__<tool>` at effect point
 * `mcp`. A server that cannot start — or is not approved — is skipped (the
 * others stay usable): the plugin reports itself `degraded` with the reason
 * per server, and its `mcp` page lists every server's state.
 *
 * @module
 */
import type { Json, RuntimePlugin } from "../../core/mod.ts";
import { readTextOrUndefined } from "../../core/mod.ts";
import { externalTool } from "./connector.ts";
import { connectMcp } from "./mcp.ts";
import { type McpPluginConfig, parseMcpConfig, projectServerConfig } from "./mcp_config.ts";
import {
  type McpTrust,
  type PlannedServer,
  planProjectServers,
  redactedReason,
} from "./project_servers.ts";

export type { McpTrust };

/** What the `mcp` plugin needs from the harness. */
export interface McpPluginDeps {
  /** The harness's environment (for `${VAR}` expansion and stdio servers' variables). */
  env: Record<string, string | undefined>;
  /** The working directory stdio servers start in (unless they name their own). */
  cwd: string;
  /**
   * The harness's trust store: the workspace's `.mcp.json` is read when it trusts the
   * workspace, and a server starts when it is approved. Without it, no `.mcp.json` is read.
   */
  trust?: McpTrust;
  /**
   * Servers a front end was handed for this harness — an editor's `session/new` under
   * `hs acp` — in the `servers` shape of plugins.json: the user's own choice, like
   * plugins.json; a server named like one of plugins.json's gives way to it.
   */
  frontEndServers?: Record<string, Record<string, unknown>>;
}

/** The front end's servers as planned ones (an invalid one is shown failed with the reason). */
function frontEndPlan(deps: McpPluginDeps, taken: Set<string>): PlannedServer[] {
  return Object.entries(deps.frontEndServers ?? {}).filter(([name]) => !taken.has(name))
    .map(([name, raw]) => {
      const type = typeof raw.type === "string" ? raw.type : raw.url ? "http" : "stdio";
      try {
        const cfg = projectServerConfig(name, raw, `the editor's MCP server "${name}"`, deps.env);
        return cfg
          ? { name, origin: "editor" as const, type, cfg }
          : { name, origin: "editor" as const, type, state: "skipped" as const };
      } catch (err) {
        const blocked = err instanceof Error ? err.message : String(err);
        return { name, origin: "editor" as const, type, state: "failed" as const, blocked };
      }
    });
}

interface ServerState {
  name: string;
  type: string;
  state: "active" | "failed" | "not approved" | "skipped";
  tools: number;
  origin?: ".mcp.json" | "editor";
  reason?: string;
}

function stateOf(s: PlannedServer, state: ServerState["state"], tools = 0, reason?: string) {
  const out: ServerState = { name: s.name, type: s.type, state, tools };
  if (s.origin !== "plugins.json") out.origin = s.origin;
  if (reason) out.reason = reason;
  return out;
}

/** The `mcp` runtime plugin. */
export function mcpPlugin(deps: McpPluginDeps): RuntimePlugin<McpPluginConfig> {
  return {
    id: "mcp",
    version: "1.0.0",
    apiVersion: 1,
    parseConfig: (raw) => parseMcpConfig(raw, deps.env, readTextOrUndefined),
    async setup(ctx) {
      const own: PlannedServer[] = Object.entries(ctx.config.servers).map(([name, cfg]) => ({
        name,
        origin: "plugins.json",
        type: cfg.type,
        cfg,
      }));
      const editor = frontEndPlan(deps, new Set(own.map((s) => s.name)));
      const project = planProjectServers(
        deps.trust,
        deps.cwd,
        deps.env,
        new Set([...own, ...editor].map((s) => s.name)),
      );
      const states: ServerState[] = [];
      const planned = [...own, ...editor, ...project.servers];
      const connected = await Promise.all(planned.map(async (s) => {
        if (!s.cfg) {
          states.push(stateOf(s, s.state ?? "skipped", 0, s.blocked));
          return undefined;
        }
        try {
          const client = await connectMcp(s.cfg, {
            name: s.name,
            signal: ctx.signal,
            logger: ctx.logger,
            sandbox: ctx.sandbox,
            cwd: deps.cwd,
            timeoutMs: ctx.config.timeoutMs,
            env: deps.env,
          });
          ctx.onDispose(() => client.close());
          try {
            return { s, tools: await client.tools() };
          } catch (err) {
            await client.close();
            throw err;
          }
        } catch (err) {
          const why = redactedReason(err, s.cfg);
          ctx.logger.warn(`server "${s.name}" could not start: ${why}`);
          states.push(stateOf(s, "failed", 0, `could not start: ${why}`));
          return undefined;
        }
      }));
      for (const c of connected) {
        if (!c) continue;
        for (const t of c.tools) ctx.tools.register(externalTool(`mcp__${c.s.name}`, t));
        states.push(stateOf(c.s, "active", c.tools.length));
      }
      // by name, the user's own server before a project one of the same name
      const key = (s: ServerState) => `${s.name}\0${s.origin ?? ""}`;
      states.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      const problems = states.filter((s) => s.state !== "active")
        .map((s) => `server ${s.name}: ${s.reason ?? s.state}`);
      if (project.note) problems.unshift(`.mcp.json ${project.note.reason}`);
      if (problems.length) ctx.degrade(problems.join("; "));
      ctx.pages.register({
        id: "mcp",
        title: "MCP servers",
        description: "The MCP servers of this harness and their tools",
        read: () =>
          ({
            servers: states.map((s) => ({ ...s })),
            ...(project.note ? { project: { ...project.note } } : {}),
          }) as unknown as Json,
      });
    },
  };
}
