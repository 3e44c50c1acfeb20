/**
 * Shared bench fixtures: a loopback Anthropic SSE server with pre-encoded
 * answers (it records its own handling time), an in-process tool plugin, and
 * workspaces with optional executable observer hooks.
 *
 * @module
 */
import { join } from "node:path";
import { Harness } from "../plugins/mod.ts"; // the kernel with its built-in plugins
import { type HarnessCore, type RuntimePlugin, Session, textResult } from "../core/mod.ts";

const enc = new TextEncoder();
function sse(events: [string, unknown][]): Uint8Array<ArrayBuffer> {
  return enc.encode(events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(""));
}
const msgStart = (id: string) =>
  ["message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model: "bench",
      content: [],
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }] as [string, unknown];
type Ev = [string, unknown];
const textBlock = (text: string): Ev[] => [
  ["content_block_start", {
    type: "content_block_start",
    index: 0,
    content_block: { type: "text", text: "" },
  }],
  ["content_block_delta", {
    type: "content_block_delta",
    index: 0,
    delta: { type: "text_delta", text },
  }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
];
const messageEnd = (stop: string, outputTokens: number): Ev[] => [
  ["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop },
    usage: { output_tokens: outputTokens },
  }],
  ["message_stop", { type: "message_stop" }],
];
const TOOL_ANSWER = sse([
  msgStart("msg_1"),
  ...textBlock("Checking."),
  ["content_block_start", {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_b", name: "bench_tool", input: {} },
  }],
  ["content_block_delta", {
    type: "content_block_delta",
    index: 1,
    delta: { type: "input_json_delta", partial_json: '{"x":1}' },
  }],
  ["content_block_stop", { type: "content_block_stop", index: 1 }],
  ...messageEnd("tool_use", 5),
]);
const TEXT_ANSWER = sse([msgStart("msg_2"), ...textBlock("Done."), ...messageEnd("end_turn", 2)]);

/** Time spent in the server's handler, and requests answered. */
export const serverStats = { ms: 0, count: 0 };

/** Starts the loopback server; answers a tool call to a user message, text to a tool result. */
export function startBenchServer(): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const t0 = performance.now();
    const body = await req.json() as { messages: { role: string; content: unknown }[] };
    const last = body.messages.at(-1)!;
    const answer = typeof last.content === "string" ? TOOL_ANSWER : TEXT_ANSWER;
    serverStats.count++;
    serverStats.ms += performance.now() - t0;
    return new Response(answer, { headers: { "content-type": "text/event-stream" } });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1/messages`,
    close: () => server.shutdown(),
  };
}

/** An in-process tool, so the turn measures the harness, not a child process. */
export const benchTool: RuntimePlugin = {
  id: "bench-tool",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "bench_tool",
      description: "in-process tool",
      inputSchema: { type: "object" },
      execute: () => Promise.resolve(textResult("ok")),
    });
  },
};

/** A workspace whose `.harness` points at the bench server; optional observer hooks in five stages. */
export async function workspace(
  url: string,
  observers: boolean,
): Promise<{ h: HarnessCore; root: string }> {
  const root = await Deno.makeTempDir({ prefix: "hs-bench-" });
  const ws = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(join(ws, ".harness/providers"), { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  await Deno.writeTextFile(
    join(ws, ".harness/providers/bench.conf"),
    `protocol=anthropic\nurl=${url}\nmodel=bench\n`,
  );
  if (observers) {
    for (const stage of ["start", "assemble", "send", "receive", "tool_done"]) {
      const p = join(ws, `.harness/hooks.d/${stage}/50-observe`);
      await Deno.mkdir(join(p, ".."), { recursive: true });
      await Deno.writeTextFile(p, "#!/bin/sh\nexec cat\n");
      await Deno.chmod(p, 0o755);
    }
  }
  const env = { HOME: root, HARNESS_HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
  const h = await Harness.create({
    cwd: ws,
    env,
    trustWorkspace: true,
    runtimePlugins: [{ plugin: benchTool }],
  });
  return { h, root };
}

// Sessions: assembling a 1,000-message round, resuming a 10,000-message session
/** A session of `n` messages (user, assistant with a tool call, tool result). */
export function bigSession(n: number): Promise<string> {
  const root = Deno.makeTempDirSync({ prefix: "hs-bench-sess-" });
  const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
  for (let i = 0; i < n; i += 3) {
    s.appendUser(`question ${i}: please look at src/file${i}.ts and tell me what it does`);
    s.appendAssistant([
      { type: "text", text: `Looking at file ${i}.` },
      {
        type: "tool_call",
        id: `toolu_${i}`,
        name: "read_file",
        input: { path: `src/file${i}.ts` },
      },
    ], {
      model: "m",
      provider: "p",
      stop: "tool_calls",
      usage: { input_tokens: 100, output_tokens: 20 },
    });
    s.appendToolResult(
      `toolu_${i}`,
      "read_file",
      false,
      "1#ZZ:export const x = 1;\n2#PM:export const y = 2;",
    );
  }
  return Promise.resolve(s.dir);
}
