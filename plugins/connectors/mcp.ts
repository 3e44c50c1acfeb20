/**
 * An MCP client as a {@link ConnectorClient}, on `@modelcontextprotocol/sdk`:
 * stdio servers (a child process the harness starts, in the effect floor's OS
 * sandbox when the policy is narrower than the process) and remote servers
 * (streamable HTTP, or the older SSE transport). Every tool the server lists
 * becomes a ToolDefinition at effect point `mcp`, so each call passes the seam
 * (guards → floor → core) like any other tool; the call's signal is handed to
 * the SDK, progress notifications keep a long call alive, and results are
 * rendered as text — capped, like every tool result, by the session
 * (`HARNESS_RESULT_LIMIT`, the whole text saved under `<session>/outputs/`).
 *
 * @module
 */
// The SDK loads only when a server is configured (every `hs` command would pay for it).
import { join, resolve } from "../../core/early/mod.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  BASE_ENV,
  type ChildSandbox,
  HarnessError,
  type PluginLogger,
  textResult,
  type ToolDefinition,
  type ToolResult,
  VERSION,
} from "../../core/mod.ts";
import type { ConnectorClient } from "./connector.ts";
import type { McpServerConfig } from "./mcp_config.ts";

/** What {@link connectMcp} needs besides the server's configuration. */
export interface McpConnectOptions {
  /** The server's name (tools are namespaced by the caller). */
  name: string;
  /** Aborts connecting and every request (the plugin stopped). */
  signal: AbortSignal;
  /** Where a stdio server's stderr lines are logged. */
  logger: PluginLogger;
  /** The OS sandbox a stdio server is started in. */
  sandbox: ChildSandbox;
  /** Working directory of a stdio server. */
  cwd: string;
  /** Timeout of one request (connect, list, call) in ms. */
  timeoutMs: number;
  /**
   * The harness's environment: a stdio server starts with its base variables (PATH, HOME,
   * LANG, … as the floor lets children keep them) plus the `env` its configuration names.
   */
  env?: Record<string, string | undefined>;
}

function serverEnv(
  host: Record<string, string | undefined> | undefined,
  configured: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  // the variables every sandboxed child keeps (the floor filters them again)
  for (const k of BASE_ENV) {
    const v = host?.[k];
    if (v !== undefined) out[k] = v;
  }
  for (const [k, v] of Object.entries(host ?? {})) {
    if (k.startsWith("LC_") && v !== undefined) out[k] = v;
  }
  return { ...out, ...configured };
}

/** One content block of an MCP tool result, as text for the model. */
function blockText(block: Record<string, unknown>): string {
  switch (block.type) {
    case "text":
      return String(block.text ?? "");
    case "image":
    case "audio": {
      const size = typeof block.data === "string" ? Math.floor(block.data.length * 3 / 4) : 0;
      return `[${block.type}: ${String(block.mimeType ?? "?")}, ${size} bytes]`;
    }
    case "resource": {
      const r = (block.resource ?? {}) as Record<string, unknown>;
      if (typeof r.text === "string") return r.text;
      return `[resource ${String(r.uri ?? "")}${r.mimeType ? ` (${r.mimeType})` : ""}]`;
    }
    case "resource_link":
      return `[resource link ${String(block.uri ?? "")}${block.name ? `: ${block.name}` : ""}]`;
    default:
      return `[${String(block.type)} content]`;
  }
}

/**
 * An MCP `tools/call` result as a tool result (text). Not capped here: the session caps
 * every tool result alike and saves the whole text (`HARNESS_RESULT_LIMIT`).
 */
export function mcpResult(r: Record<string, unknown>): ToolResult {
  const blocks = Array.isArray(r.content) ? r.content as Record<string, unknown>[] : [];
  let text = blocks.map(blockText).join("\n");
  if (!text && r.structuredContent !== undefined) text = JSON.stringify(r.structuredContent);
  if (!text && r.toolResult !== undefined) text = JSON.stringify(r.toolResult);
  return textResult(text, r.isError === true);
}

/** True when `command` names an executable file (a path, or a name on `PATH`). */
function commandExists(command: string, cwd: string, path: string | undefined): boolean {
  const isExe = (p: string) => {
    try {
      const info = Deno.statSync(p);
      return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
    } catch (err) {
      // a path this process may not read may still be one it may run: the spawn decides
      return err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied;
    }
  };
  if (command.includes("/")) return isExe(resolve(cwd, command));
  return (path ?? "").split(":").some((d) => d !== "" && isExe(join(d, command)));
}

async function transportFor(cfg: McpServerConfig, o: McpConnectOptions): Promise<Transport> {
  if (cfg.type === "stdio") {
    // inside the OS sandbox a missing program only shows as a closed connection
    if (!commandExists(cfg.command, cfg.cwd ?? o.cwd, o.env?.PATH)) {
      throw new HarnessError(`command not found: ${cfg.command}`);
    }
    const spec = await o.sandbox.prepare(
      {
        command: cfg.command,
        args: cfg.args,
        env: serverEnv(o.env, cfg.env),
        keepEnv: Object.keys(cfg.env),
        cwd: cfg.cwd ?? o.cwd,
        readOnly: cfg.read,
      },
      `mcp server ${o.name}`,
    );
    if ("refused" in spec) throw new HarnessError(spec.refused);
    const { DenoStdioTransport } = await import("./stdio_transport.ts");
    return new DenoStdioTransport(
      spec,
      (line) => o.logger.info(`mcp ${o.name}: ${line.slice(0, 500)}`),
    );
  }
  const url = new URL(cfg.url);
  const requestInit = { headers: cfg.headers };
  if (cfg.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return new SSEClientTransport(url, { requestInit });
  }
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  return new StreamableHTTPClientTransport(url, { requestInit });
}

/** Connects to one MCP server; its tools are listed by `tools()` (names not namespaced). */
export async function connectMcp(
  cfg: McpServerConfig,
  o: McpConnectOptions,
): Promise<ConnectorClient> {
  const transport = await transportFor(cfg, o);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "hs", version: VERSION });
  try {
    await client.connect(transport, { signal: o.signal, timeout: o.timeoutMs });
  } catch (err) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw err;
  }
  return {
    async tools() {
      const out: ToolDefinition[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, {
          signal: o.signal,
          timeout: o.timeoutMs,
        });
        for (const t of page.tools) out.push(toolOf(client, t, o));
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    },
    async close() {
      await client.close().catch(() => {});
    },
  };
}

function toolOf(
  client: Client,
  t: { name: string; description?: string; inputSchema: Record<string, unknown> },
  o: McpConnectOptions,
): ToolDefinition {
  return {
    name: t.name,
    description: t.description ?? `MCP tool ${t.name} of ${o.name}`,
    inputSchema: t.inputSchema ?? { type: "object" },
    point: "mcp",
    async execute(input, ctx) {
      try {
        const r = await client.callTool(
          { name: t.name, arguments: (input ?? {}) as Record<string, unknown> },
          undefined,
          {
            signal: ctx.signal,
            timeout: o.timeoutMs,
            resetTimeoutOnProgress: true,
            onprogress: () => {},
          },
        );
        return mcpResult(r as Record<string, unknown>);
      } catch (err) {
        if (ctx.signal.aborted) return textResult(`error: ${t.name} was cancelled`, true);
        const msg = err instanceof Error ? err.message : String(err);
        return textResult(`error: MCP server ${o.name}: ${msg.slice(0, 500)}`, true);
      }
    },
  };
}
