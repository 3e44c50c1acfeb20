import assert from "node:assert/strict";
import type { AssistantTurn, ProtocolAdapter, ProviderEvent } from "../../../core/mod.ts";
import { getAdapter } from "../../../plugins/providers/mod.ts";
import { type ScriptedTurn, startScriptedServer } from "../../../plugins/scripted/mod.ts";
import { capture, endpoint, textOf } from "./_helpers.ts";

const PROTOCOLS: { protocol: string; path: string }[] = [
  { protocol: "anthropic", path: "/v1/messages" },
  { protocol: "openai", path: "/v1/chat/completions" },
  { protocol: "openai-responses", path: "/v1/responses" },
];

const payload = {
  messages: [] as unknown[],
  tools: [] as unknown[],
  system: "be brief",
};

async function run(
  protocol: string,
  path: string,
  turn: ScriptedTurn,
  stream: boolean,
): Promise<{ turn: AssistantTurn; events: ProviderEvent[]; native: unknown; body: unknown }> {
  const adapter: ProtocolAdapter = getAdapter(protocol);
  const server = await startScriptedServer([turn]);
  try {
    const { events, options } = capture();
    const messages = adapter.buildMessages([{ role: "user", seq: 1, text: "hi" }]);
    const tools = adapter.buildTools([{
      name: "get_weather",
      description: "weather",
      input_schema: { type: "object", properties: { city: { type: "string" } } },
    }]);
    const native = await adapter.send(
      { ...payload, messages, tools },
      endpoint(server.url + path, { stream }),
      options,
    );
    return {
      turn: adapter.parseResponse(native),
      events,
      native,
      body: server.requests[0].body,
    };
  } finally {
    await server.close();
  }
}

function calls(turn: AssistantTurn) {
  return turn.blocks.flatMap((b) => b.type === "tool_call" ? [b] : []);
}

for (const { protocol, path } of PROTOCOLS) {
  for (const stream of [true, false]) {
    const label = `${protocol} ${stream ? "streaming" : "non-streaming"}`;

    Deno.test(`${label}: text only`, async () => {
      const r = await run(protocol, path, { text: "Hello, wörld 👋", chunkSize: 4 }, stream);
      assert.deepEqual(r.turn.blocks, [{ type: "text", text: "Hello, wörld 👋" }]);
      assert.equal(r.turn.stop, "end");
      assert.equal(textOf(r.events), "Hello, wörld 👋");
      if (stream) assert.ok(r.events.filter((e) => e.type === "text").length > 1);
      assert.deepEqual(r.events.at(-1), { type: "stop", reason: "end" });
      assert.equal((r.body as Record<string, unknown>).stream, stream);
      assert.equal(r.turn.model, "test-model");
    });

    Deno.test(`${label}: one tool call`, async () => {
      const r = await run(protocol, path, {
        text: "checking",
        toolCalls: [{ id: "call_1", name: "get_weather", input: { city: "Zürich" } }],
        chunkSize: 3,
      }, stream);
      assert.deepEqual(calls(r.turn), [
        { type: "tool_call", id: "call_1", name: "get_weather", input: { city: "Zürich" } },
      ]);
      assert.equal(r.turn.stop, "tool_calls");
      const start = r.events.find((e) => e.type === "tool_call_start");
      assert.deepEqual(start, {
        type: "tool_call_start",
        index: 0,
        id: "call_1",
        name: "get_weather",
      });
      const json = r.events.flatMap((e) => e.type === "tool_call_delta" ? [e.json] : []).join("");
      assert.deepEqual(JSON.parse(json), { city: "Zürich" });
      const end = r.events.find((e) => e.type === "tool_call_end");
      assert.deepEqual(end, {
        type: "tool_call_end",
        index: 0,
        id: "call_1",
        name: "get_weather",
        input: { city: "Zürich" },
      });
    });

    Deno.test(`${label}: two parallel tool calls`, async () => {
      const r = await run(protocol, path, {
        toolCalls: [
          { id: "c_a", name: "get_weather", input: { city: "Paris" } },
          { id: "c_b", name: "get_weather", input: { city: "東京" } },
        ],
        chunkSize: 5,
      }, stream);
      assert.deepEqual(calls(r.turn).map((c) => [c.id, c.input]), [
        ["c_a", { city: "Paris" }],
        ["c_b", { city: "東京" }],
      ]);
      const ends = r.events.flatMap((e) => e.type === "tool_call_end" ? [[e.index, e.id]] : []);
      assert.deepEqual(ends, [[0, "c_a"], [1, "c_b"]]);
      assert.equal(r.turn.stop, "tool_calls");
    });

    Deno.test(`${label}: tool with no arguments`, async () => {
      const r = await run(protocol, path, {
        toolCalls: [{ id: "c_t", name: "get_time", input: undefined }],
      }, stream);
      assert.deepEqual(calls(r.turn), [{
        type: "tool_call",
        id: "c_t",
        name: "get_time",
        input: {},
      }]);
      const end = r.events.find((e) => e.type === "tool_call_end");
      assert.deepEqual(end && end.type === "tool_call_end" && end.input, {});
    });

    Deno.test(`${label}: thinking`, async () => {
      const r = await run(protocol, path, {
        thinking: { text: "let me think… about 7×6", signature: "sig-abc" },
        text: "42",
        chunkSize: 6,
      }, stream);
      const thinking = r.turn.blocks.find((b) => b.type === "thinking");
      assert.ok(thinking && thinking.type === "thinking");
      assert.equal(thinking.text, "let me think… about 7×6");
      // Anthropic and Responses carry the signature; chat completions has none.
      assert.equal(thinking.signature, protocol === "openai" ? "" : "sig-abc");
      assert.equal(
        r.events.flatMap((e) => e.type === "thinking" ? [e.text] : []).join(""),
        "let me think… about 7×6",
      );
      assert.equal(r.turn.blocks.at(-1)?.type, "text");
    });

    Deno.test(`${label}: usage reported`, async () => {
      const r = await run(protocol, path, {
        text: "ok",
        usage: { input_tokens: 123, output_tokens: 45 },
      }, stream);
      assert.deepEqual(r.turn.usage, { input_tokens: 123, output_tokens: 45 });
      const usage = r.events.filter((e) => e.type === "usage");
      assert.deepEqual(usage, [{ type: "usage", usage: { input_tokens: 123, output_tokens: 45 } }]);
    });

    Deno.test(`${label}: max tokens maps to length`, async () => {
      const r = await run(protocol, path, { text: "trunc", stop: "length" }, stream);
      assert.equal(r.turn.stop, "length");
    });
  }
}

Deno.test("request bodies carry the documented wire fields", async () => {
  const a = await run("anthropic", "/v1/messages", { text: "x" }, true);
  const ab = a.body as Record<string, unknown>;
  assert.deepEqual(Object.keys(ab), [
    "model",
    "max_tokens",
    "system",
    "messages",
    "tools",
    "stream",
  ]);
  // the system prompt is one text block carrying a prompt-cache breakpoint
  assert.deepEqual(ab.system, [
    { type: "text", text: "be brief", cache_control: { type: "ephemeral" } },
  ]);
  const o = await run("openai", "/v1/chat/completions", { text: "x" }, true);
  const ob = o.body as Record<string, unknown>;
  assert.deepEqual((ob.messages as unknown[])[0], { role: "system", content: "be brief" });
  assert.deepEqual(ob.stream_options, { include_usage: true });
  assert.equal(ob.max_tokens, 256);
  const r = await run("openai-responses", "/v1/responses", { text: "x" }, false);
  const rb = r.body as Record<string, unknown>;
  assert.equal(rb.instructions, "be brief");
  assert.equal(rb.max_output_tokens, 256);
  assert.equal(rb.stream, false);
  assert.ok(Array.isArray(rb.input));
});

Deno.test("headers: anthropic x-api-key + version, openai bearer, extra headers, no key", async () => {
  const server = await startScriptedServer([{ text: "a" }, { text: "b" }, { text: "c" }]);
  try {
    const ep = endpoint(server.url + "/v1/messages", { headers: { "X-Extra": "1" } });
    await getAdapter("anthropic").send(payload, ep, capture().options);
    await getAdapter("openai").send(
      payload,
      endpoint(server.url + "/v1/chat/completions"),
      capture().options,
    );
    await getAdapter("openai").send(
      payload,
      endpoint(server.url + "/v1/chat/completions", { apiKey: undefined }),
      capture().options,
    );
    const [a, o, n] = server.requests.map((r) => r.headers);
    assert.equal(a["x-api-key"], "sk-test-SECRET-key-0123456789");
    assert.equal(a["anthropic-version"], "2023-06-01");
    assert.equal(a["x-extra"], "1");
    assert.equal(o.authorization, "Bearer sk-test-SECRET-key-0123456789");
    assert.equal(n.authorization, undefined);
  } finally {
    await server.close();
  }
});

Deno.test("time to first text event is immediate after the bytes arrive", async () => {
  const server = await startScriptedServer([{ text: "abcdefghij", chunkSize: 1, delayMs: 30 }]);
  try {
    const t0 = performance.now();
    const times: number[] = [];
    const signal = new AbortController().signal;
    await getAdapter("anthropic").send(payload, endpoint(server.url + "/v1/messages"), {
      emit: (e) => {
        if (e.type === "text") times.push(performance.now() - t0);
      },
      signal,
    });
    assert.equal(times.length, 10);
    // Deltas are spread over the stream (≈30 ms apart), not delivered in one burst at the end.
    assert.ok(times.at(-1)! - times[0] > 150, `deltas arrived in a burst: ${times.join(",")}`);
  } finally {
    await server.close();
  }
});
