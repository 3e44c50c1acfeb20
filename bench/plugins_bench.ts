/**
 * Runtime plugin budgets (issue 11): a plugin host starting 20 plugins (≤ 20 ms),
 * and an MCP stdio tool call through the effect seam against the same call made
 * directly with the MCP client (≤ 5 ms above the server's own time).
 *
 *     deno bench -A bench/plugins_bench.ts
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  allowAllFloor,
  AuditBus,
  Dispatcher,
  PluginHost,
  Registries,
  type RuntimePlugin,
  textResult,
} from "../core/mod.ts";
import { connectMcp } from "../plugins/connectors/mod.ts";
import { DenoStdioTransport } from "../plugins/connectors/stdio_transport.ts";
import { mcpServer } from "../tests/support/mcp.ts";

function plugin(i: number): RuntimePlugin {
  return {
    id: `p${i}`,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name: `tool_${i}`,
        description: "t",
        inputSchema: { type: "object" },
        execute: () => Promise.resolve(textResult("ok")),
      });
      ctx.prompts.register({ id: `prompt_${i}`, render: () => "x" });
      ctx.hooks.on("turn_start", () => {});
      ctx.audit.registerSink(() => {});
      ctx.onStart(() => {});
      ctx.onDispose(() => {});
    },
  };
}
const twenty = Array.from({ length: 20 }, (_, i) => ({ plugin: plugin(i) }));

Deno.bench("plugin host: load 20 plugins (setup + start)", { group: "host" }, async (b) => {
  const registries = new Registries();
  const host = new PluginHost({
    registries,
    audit: new AuditBus({ warn: () => {} }),
    log: () => {},
  });
  b.start();
  await host.load(twenty);
  b.end();
  await host.close();
});

// --- MCP round trip -----------------------------------------------------------------------
const server = mcpServer("server-everything", ["stdio"]);
const logger = { info: () => {}, warn: () => {}, error: () => {} };
const signal = new AbortController().signal;
const viaSeam = await connectMcp({ type: "stdio", ...server }, {
  name: "everything",
  signal,
  logger,
  sandbox: { prepare: (s) => Promise.resolve(s) },
  cwd: Deno.cwd(),
  timeoutMs: 30_000,
});
const echo = (await viaSeam.tools()).find((t) => t.name === "echo")!;
const dispatcher = new Dispatcher({
  guards: () => [],
  hooks: () => [],
  floor: allowAllFloor,
  audit: () => {},
});
const direct = new Client({ name: "bench", version: "1" });
await direct.connect(
  new DenoStdioTransport(
    { command: server.command, args: server.args, env: server.env, cwd: Deno.cwd() },
    () => {},
  ),
);
const toolCtx = {
  cwd: Deno.cwd(),
  env: {},
  signal,
  sessionDir: "",
  callId: "c",
  log: () => {},
};

Deno.bench("mcp echo: direct client call (the server's own time)", {
  group: "mcp",
  baseline: true,
}, async () => {
  await direct.callTool({ name: "echo", arguments: { message: "hi" } });
});

Deno.bench("mcp echo: through the seam (ceiling, guards, floor, audit, hooks)", {
  group: "mcp",
}, async () => {
  await dispatcher.dispatch({
    point: "mcp",
    tool: "mcp__everything__echo",
    owner: { kind: "builtin", id: "mcp" },
    principal: "main",
    callId: "c",
    input: { message: "hi" },
  }, (input) => echo.execute(input, toolCtx));
});

globalThis.addEventListener("unload", () => {
  void viaSeam.close();
  void direct.close();
});
