import assert from "node:assert/strict";
import type { ProviderEvent } from "../../../core/mod.ts";
import { getAdapter } from "../../../plugins/providers/mod.ts";
import { capture, chunkedFetch, endpoint, fixturePath, serveBytes } from "./_helpers.ts";

interface Expectation {
  fixture: string;
  protocol: string;
  events: ProviderEvent[];
  /** Checks on the reassembled native response. */
  native(n: Record<string, unknown>): void;
}

const payload = { messages: [], tools: [], system: "" };

async function viaLoopback(protocol: string, bytes: Uint8Array, chunk: number) {
  const server = serveBytes(bytes, chunk);
  try {
    const { events, options } = capture();
    const native = await getAdapter(protocol).send(payload, endpoint(server.url), options);
    return { events, native: native as Record<string, unknown> };
  } finally {
    await server.close();
  }
}

async function viaChunks(protocol: string, bytes: Uint8Array, chunk: number) {
  const adapter = getAdapter(protocol, { fetch: chunkedFetch(bytes, chunk) });
  const { events, options } = capture();
  const native = await adapter.send(payload, endpoint("http://unused.invalid/"), options);
  return { events, native: native as Record<string, unknown> };
}

const CASES: Expectation[] = [
  {
    fixture: "anthropic_interleaved.sse",
    protocol: "anthropic",
    events: [
      { type: "text", text: "Checking wea" },
      { type: "text", text: "ther in Zürich — 東京 too 🌦️." },
      {
        type: "tool_call_start",
        index: 0,
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        name: "get_weather",
      },
      {
        type: "tool_call_start",
        index: 1,
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
      },
      {
        type: "tool_call_delta",
        index: 0,
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        json: '{"location": "Z',
      },
      { type: "tool_call_delta", index: 1, id: "toolu_01A09q90qw90lq917835lq9", json: '{"locat' },
      {
        type: "tool_call_delta",
        index: 0,
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        json: 'ürich", "unit": "c',
      },
      {
        type: "tool_call_delta",
        index: 1,
        id: "toolu_01A09q90qw90lq917835lq9",
        json: 'ion": "東京"}',
      },
      {
        type: "tool_call_end",
        index: 1,
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
        input: { location: "東京" },
      },
      { type: "tool_call_delta", index: 0, id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", json: 'elsius"}' },
      {
        type: "tool_call_end",
        index: 0,
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        name: "get_weather",
        input: { location: "Zürich", unit: "celsius" },
      },
      { type: "tool_call_start", index: 2, id: "toolu_01NoArgs00000000000000", name: "get_time" },
      {
        type: "tool_call_end",
        index: 2,
        id: "toolu_01NoArgs00000000000000",
        name: "get_time",
        input: {},
      },
      { type: "usage", usage: { input_tokens: 472, output_tokens: 89 } },
      { type: "stop", reason: "tool_calls" },
    ],
    native(n) {
      assert.equal(n.id, "msg_01XFDUDYJgAACzvnptvVoYEL");
      assert.equal(n.model, "claude-sonnet-4-5-20250929");
      assert.equal(n.stop_reason, "tool_use");
      assert.deepEqual(n.usage, { input_tokens: 472, output_tokens: 89 });
      assert.deepEqual(n.content, [
        { type: "text", text: "Checking weather in Zürich — 東京 too 🌦️." },
        {
          type: "tool_use",
          id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
          name: "get_weather",
          input: { location: "Zürich", unit: "celsius" },
        },
        {
          type: "tool_use",
          id: "toolu_01A09q90qw90lq917835lq9",
          name: "get_weather",
          input: { location: "東京" },
        },
        { type: "tool_use", id: "toolu_01NoArgs00000000000000", name: "get_time", input: {} },
      ]);
    },
  },
  {
    fixture: "anthropic_thinking_minimal.sse",
    protocol: "anthropic",
    events: [
      { type: "thinking", text: "Let me solve this step by step:\n\n1. First break down 27 * 453" },
      { type: "thinking", text: "\n2. 453 = 400 + 50 + 3" },
      { type: "text", text: "27 * 453 = 12,231" },
      { type: "usage", usage: { input_tokens: 31, output_tokens: 58 } },
      { type: "stop", reason: "end" },
    ],
    native(n) {
      assert.equal("id" in n, false);
      assert.deepEqual(n.content, [
        {
          type: "thinking",
          thinking:
            "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3",
          signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
        },
        { type: "text", text: "27 * 453 = 12,231" },
      ]);
      assert.equal(n.stop_reason, "end_turn");
    },
  },
  {
    fixture: "openai_interleaved.sse",
    protocol: "openai",
    events: [
      { type: "text", text: "Grüße aus 東京 🗼" },
      {
        type: "tool_call_start",
        index: 0,
        id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
        name: "get_weather",
      },
      {
        type: "tool_call_start",
        index: 1,
        id: "call_ABCDEFGHIJKLMNOPQRSTUVWX",
        name: "get_weather",
      },
      { type: "tool_call_delta", index: 1, id: "call_ABCDEFGHIJKLMNOPQRSTUVWX", json: '{"loc' },
      {
        type: "tool_call_delta",
        index: 0,
        id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
        json: '{"location": "Par',
      },
      {
        type: "tool_call_delta",
        index: 1,
        id: "call_ABCDEFGHIJKLMNOPQRSTUVWX",
        json: 'ation": "\\u6771\\',
      },
      { type: "tool_call_delta", index: 1, id: "call_ABCDEFGHIJKLMNOPQRSTUVWX", json: 'u4eac"}' },
      {
        type: "tool_call_delta",
        index: 0,
        id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
        json: 'is, France"}',
      },
      { type: "tool_call_start", index: 2, id: "call_NoArgs000000000000000000", name: "get_time" },
      {
        type: "tool_call_end",
        index: 0,
        id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
        name: "get_weather",
        input: { location: "Paris, France" },
      },
      {
        type: "tool_call_end",
        index: 1,
        id: "call_ABCDEFGHIJKLMNOPQRSTUVWX",
        name: "get_weather",
        input: { location: "東京" },
      },
      {
        type: "tool_call_end",
        index: 2,
        id: "call_NoArgs000000000000000000",
        name: "get_time",
        input: {},
      },
      { type: "usage", usage: { input_tokens: 85, output_tokens: 60 } },
      { type: "stop", reason: "tool_calls" },
    ],
    native(n) {
      assert.equal(n.id, "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT");
      assert.equal(n.object, "chat.completion");
      const choice = (n.choices as Record<string, unknown>[])[0];
      assert.equal(choice.finish_reason, "tool_calls");
      const msg = choice.message as Record<string, unknown>;
      assert.equal(msg.content, "Grüße aus 東京 🗼");
      assert.deepEqual(msg.tool_calls, [
        {
          id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
          type: "function",
          function: { name: "get_weather", arguments: '{"location": "Paris, France"}' },
        },
        {
          id: "call_ABCDEFGHIJKLMNOPQRSTUVWX",
          type: "function",
          function: { name: "get_weather", arguments: '{"location": "\\u6771\\u4eac"}' },
        },
        {
          id: "call_NoArgs000000000000000000",
          type: "function",
          function: { name: "get_time", arguments: "" },
        },
      ]);
      const usage = n.usage as Record<string, unknown>;
      assert.equal(usage.prompt_tokens, 85);
      assert.equal(usage.completion_tokens, 60);
      assert.equal(usage.total_tokens, 145);
    },
  },
  {
    fixture: "openai_groq_usage.sse",
    protocol: "openai",
    events: [
      { type: "text", text: "Hello" },
      { type: "text", text: "! How can I help?" },
      { type: "usage", usage: { input_tokens: 36, output_tokens: 9 } },
      { type: "stop", reason: "end" },
    ],
    native(n) {
      assert.equal(n.model, "llama-3.3-70b-versatile");
      const msg = (n.choices as Record<string, Record<string, unknown>>[])[0].message;
      assert.deepEqual(msg, { role: "assistant", content: "Hello! How can I help?" });
    },
  },
  {
    fixture: "responses_full.sse",
    protocol: "openai-responses",
    events: [
      { type: "thinking", text: "**Planning** the weather lookup" },
      { type: "text", text: "Looking up Zürich and 東京 " },
      { type: "text", text: "🌦️ now." },
      { type: "tool_call_start", index: 0, id: "call_12345xyz", name: "get_weather" },
      { type: "tool_call_start", index: 1, id: "call_67890abc", name: "get_weather" },
      { type: "tool_call_delta", index: 1, id: "call_67890abc", json: '{"location":"東' },
      { type: "tool_call_delta", index: 0, id: "call_12345xyz", json: '{"location":"Zü' },
      { type: "tool_call_delta", index: 1, id: "call_67890abc", json: '京"}' },
      { type: "tool_call_delta", index: 0, id: "call_12345xyz", json: 'rich"}' },
      {
        type: "tool_call_end",
        index: 0,
        id: "call_12345xyz",
        name: "get_weather",
        input: { location: "Zürich" },
      },
      {
        type: "tool_call_end",
        index: 1,
        id: "call_67890abc",
        name: "get_weather",
        input: { location: "東京" },
      },
      { type: "usage", usage: { input_tokens: 291, output_tokens: 73 } },
      { type: "stop", reason: "tool_calls" },
    ],
    native(n) {
      assert.equal(n.object, "response");
      assert.equal(n.status, "completed");
      assert.equal((n.output as unknown[]).length, 4);
      assert.equal((n.usage as Record<string, unknown>).total_tokens, 364);
    },
  },
  {
    fixture: "responses_minimal.sse",
    protocol: "openai-responses",
    events: [
      { type: "text", text: "Calling the clock." },
      { type: "tool_call_start", index: 0, id: "call_min_1", name: "get_time" },
      { type: "tool_call_end", index: 0, id: "call_min_1", name: "get_time", input: {} },
      { type: "usage", usage: { input_tokens: 20, output_tokens: 7 } },
      { type: "stop", reason: "tool_calls" },
    ],
    native(n) {
      assert.equal(n.id, "resp_min_1");
      assert.deepEqual(n.output, [
        {
          id: "msg_min_1",
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "Calling the clock.", annotations: [] }],
        },
        {
          id: "fc_min_1",
          type: "function_call",
          call_id: "call_min_1",
          name: "get_time",
          arguments: "",
        },
      ]);
    },
  },
];

for (const c of CASES) {
  Deno.test(`fixture ${c.fixture}: whole, loopback in 3-byte chunks, 1-byte reads`, async () => {
    const bytes = await Deno.readFile(fixturePath(c.fixture));
    const whole = await viaLoopback(c.protocol, bytes, bytes.length);
    assert.deepEqual(whole.events, c.events);
    c.native(whole.native);
    const small = await viaLoopback(c.protocol, bytes, 3);
    assert.deepEqual(small.events, c.events);
    assert.deepEqual(small.native, whole.native);
    for (const size of [1, 2, 7]) {
      const split = await viaChunks(c.protocol, bytes, size);
      assert.deepEqual(split.events, c.events);
      assert.deepEqual(split.native, whole.native);
    }
    // The reassembled native shape parses to the same canonical turn as the events describe.
    const turn = getAdapter(c.protocol).parseResponse(whole.native);
    const stop = c.events.at(-1);
    assert.equal(stop?.type === "stop" && stop.reason, turn.stop);
  });
}

Deno.test("fixtures with CRLF line endings decode the same", async () => {
  const text = await Deno.readTextFile(fixturePath("anthropic_interleaved.sse"));
  const crlf = new TextEncoder().encode(text.replaceAll("\n", "\r\n"));
  const r = await viaChunks("anthropic", crlf, 5);
  assert.deepEqual(r.events, CASES[0].events);
});

Deno.test("anthropic text deltas with other spacing or extra fields take the general path", async () => {
  const frames = [
    'event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":1}}}\n\n',
    'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a\\"b"}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"c"},"x":{"y":"z"}}\n\n',
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"d\\u00e9"}}\n\n',
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n',
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  ];
  const r = await viaChunks("anthropic", new TextEncoder().encode(frames.join("")), 4);
  assert.deepEqual(r.events.filter((e) => e.type === "text"), [
    { type: "text", text: 'a"b' },
    { type: "text", text: "c" },
    { type: "text", text: "dé" },
  ]);
  assert.deepEqual(r.native.content, [{ type: "text", text: 'a"bcdé' }]);
});
