import assert from "node:assert/strict";
import type { ConversationMessage } from "../../../core/mod.ts";
import { getAdapter } from "../../../plugins/providers/mod.ts";
import { type ScriptedTurn, startScriptedServer } from "../../../plugins/scripted/mod.ts";
import { capture, endpoint } from "./_helpers.ts";

const conversation: ConversationMessage[] = [
  { role: "user", seq: 1, text: "list files and show the date" },
  {
    role: "assistant",
    seq: 2,
    blocks: [
      { type: "thinking", text: "two tools", signature: "sig1" },
      { type: "text", text: "Running both." },
      { type: "tool_call", id: "call_1", name: "bash", input: { command: "ls" } },
      { type: "tool_call", id: "call_2", name: "date", input: {} },
    ],
  },
  { role: "tool_result", seq: 3, callId: "call_1", tool: "bash", error: false, text: "a.txt" },
  { role: "tool_result", seq: 4, callId: "call_2", tool: "date", error: true, text: "no clock" },
  { role: "assistant", seq: 5, blocks: [{ type: "text", text: "Done: a.txt" }] },
  { role: "user", seq: 6, text: "thanks" },
];

Deno.test("anthropic buildMessages: merged tool results, blocks, string content", () => {
  assert.deepEqual(getAdapter("anthropic").buildMessages(conversation), [
    { role: "user", content: "list files and show the date" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "two tools", signature: "sig1" },
        { type: "text", text: "Running both." },
        { type: "tool_use", id: "call_1", name: "bash", input: { command: "ls" } },
        { type: "tool_use", id: "call_2", name: "date", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "call_1", content: "a.txt" },
        { type: "tool_result", tool_use_id: "call_2", content: "no clock", is_error: true },
      ],
    },
    { role: "assistant", content: "Done: a.txt" },
    { role: "user", content: "thanks" },
  ]);
});

Deno.test("openai buildMessages: tool_calls with JSON-string arguments, role tool", () => {
  assert.deepEqual(getAdapter("openai").buildMessages(conversation), [
    { role: "user", content: "list files and show the date" },
    {
      role: "assistant",
      content: "Running both.",
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "bash", arguments: '{"command":"ls"}' },
        },
        { id: "call_2", type: "function", function: { name: "date", arguments: "{}" } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "a.txt" },
    { role: "tool", tool_call_id: "call_2", content: "no clock" },
    { role: "assistant", content: "Done: a.txt" },
    { role: "user", content: "thanks" },
  ]);
});

Deno.test("responses buildMessages: message, function_call, function_call_output items", () => {
  assert.deepEqual(getAdapter("openai-responses").buildMessages(conversation), [
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "list files and show the date" }],
    },
    {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Running both." }],
    },
    { type: "function_call", call_id: "call_1", name: "bash", arguments: '{"command":"ls"}' },
    { type: "function_call", call_id: "call_2", name: "date", arguments: "{}" },
    { type: "function_call_output", call_id: "call_1", output: "a.txt" },
    { type: "function_call_output", call_id: "call_2", output: "no clock" },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done: a.txt" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "thanks" }] },
  ]);
});

Deno.test("buildTools per protocol", () => {
  const schema = { name: "bash", description: "run", input_schema: { type: "object" } };
  assert.deepEqual(getAdapter("anthropic").buildTools([schema]), [schema]);
  assert.deepEqual(getAdapter("openai").buildTools([schema]), [
    {
      type: "function",
      function: { name: "bash", description: "run", parameters: { type: "object" } },
    },
  ]);
  assert.deepEqual(getAdapter("openai-responses").buildTools([schema]), [
    { type: "function", name: "bash", description: "run", parameters: { type: "object" } },
  ]);
});

// Round trip: a native answer → parseResponse → canonical → buildMessages gives back the
// assistant message the API expects in the next request.
const TURN: ScriptedTurn = {
  thinking: { text: "hmm", signature: "sig-9" },
  text: "Let me look.",
  toolCalls: [
    { id: "call_a", name: "read_file", input: { path: "a.ts", limit: 10 } },
    { id: "call_b", name: "date", input: {} },
  ],
};

for (
  const [protocol, path] of [
    ["anthropic", "/v1/messages"],
    ["openai", "/v1/chat/completions"],
    ["openai-responses", "/v1/responses"],
  ] as const
) {
  for (const stream of [true, false]) {
    Deno.test(`${protocol} ${stream ? "streamed" : "plain"} round trip response → canonical → native`, async () => {
      const server = await startScriptedServer([TURN]);
      try {
        const adapter = getAdapter(protocol);
        const native = await adapter.send(
          { messages: [], tools: [], system: "" },
          endpoint(server.url + path, { stream }),
          capture().options,
        ) as Record<string, unknown>;
        const turn = adapter.parseResponse(native);
        const rebuilt = adapter.buildMessages([
          { role: "assistant", seq: 1, blocks: turn.blocks, stop: turn.stop },
        ]);
        if (protocol === "anthropic") {
          assert.deepEqual(rebuilt, [{ role: "assistant", content: native.content }]);
        } else if (protocol === "openai") {
          const msg = (native.choices as Record<string, Record<string, unknown>>[])[0].message;
          assert.deepEqual(rebuilt, [{
            role: "assistant",
            content: msg.content,
            tool_calls: (msg.tool_calls as Record<string, unknown>[]).map((c) => ({
              id: c.id,
              type: "function",
              function: c.function,
            })),
          }]);
        } else {
          const out = (native.output as Record<string, unknown>[]).filter((o) =>
            o.type !== "reasoning"
          );
          assert.deepEqual(
            rebuilt,
            out.map((o) =>
              o.type === "message"
                ? {
                  type: "message",
                  role: "assistant",
                  content: (o.content as Record<string, unknown>[]).map((c) => ({
                    type: "output_text",
                    text: c.text,
                  })),
                }
                : {
                  type: "function_call",
                  call_id: o.call_id,
                  name: o.name,
                  arguments: o.arguments,
                }
            ),
          );
        }
        // And the canonical form survives a second pass unchanged.
        assert.deepEqual(adapter.parseResponse(native), turn);
      } finally {
        await server.close();
      }
    });
  }
}

Deno.test("stop-reason mapping and fallback", () => {
  const a = getAdapter("anthropic");
  const msg = (stop_reason: unknown, tool = false) => ({
    model: "m",
    stop_reason,
    usage: { input_tokens: 1, output_tokens: 1 },
    content: tool
      ? [{ type: "tool_use", id: "t", name: "x", input: {} }]
      : [{ type: "text", text: "hi" }],
  });
  assert.equal(a.parseResponse(msg("end_turn")).stop, "end");
  assert.equal(a.parseResponse(msg("tool_use", true)).stop, "tool_calls");
  assert.equal(a.parseResponse(msg("max_tokens")).stop, "length");
  assert.equal(a.parseResponse(msg("stop_sequence")).stop, "end");
  assert.equal(a.parseResponse(msg("refusal")).stop, "end");
  assert.equal(a.parseResponse(msg("brand_new_reason")).stop, "end");
  assert.equal(a.parseResponse(msg("brand_new_reason", true)).stop, "tool_calls");
  assert.equal(a.parseResponse(msg(null)).stop, "end");
  const o = getAdapter("openai");
  const chat = (finish_reason: unknown, tool = false) => ({
    id: "c",
    object: "chat.completion",
    model: "m",
    choices: [{
      index: 0,
      message: tool
        ? {
          role: "assistant",
          tool_calls: [{ id: "t", type: "function", function: { name: "x", arguments: "" } }],
        }
        : { role: "assistant", content: "hi" },
      finish_reason,
    }],
    usage: { prompt_tokens: 1, completion_tokens: 2 },
  });
  assert.equal(o.parseResponse(chat("stop")).stop, "end");
  assert.equal(o.parseResponse(chat("tool_calls", true)).stop, "tool_calls");
  assert.equal(o.parseResponse(chat("function_call", true)).stop, "tool_calls");
  assert.equal(o.parseResponse(chat("length")).stop, "length");
  assert.equal(o.parseResponse(chat("content_filter")).stop, "end");
  assert.equal(o.parseResponse(chat("eos")).stop, "end");
  assert.equal(o.parseResponse(chat("stop", true)).stop, "tool_calls");
  assert.deepEqual(o.parseResponse(chat("stop")).usage, { input_tokens: 1, output_tokens: 2 });
});
