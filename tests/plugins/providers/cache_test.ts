/**
 * Prompt caching: Anthropic `cache_control` breakpoints in request bodies,
 * cached-token usage of the three protocols in canonical usage, and the
 * limits of models (`.conf` `context=`, known-model defaults).
 */
import assert from "node:assert/strict";
import {
  anthropicBody,
  anthropicMessages,
  cacheBreakpoints,
  parseAnthropicResponse,
  parseConf,
  parseOpenAIResponse,
  parseResponsesResponse,
} from "../../../plugins/providers/mod.ts";

import {
  type Endpoint,
  knownModelLimits,
  type ModelProvider,
  resolveLimits,
} from "../../../core/mod.ts";

const EPH = { type: "ephemeral" };

const endpoint = (cache?: boolean): Endpoint => ({
  name: "t",
  url: "http://x",
  model: "m",
  maxTokens: 10,
  headers: {},
  timeoutMs: 1000,
  stream: false,
  cache,
});

const conversation = anthropicMessages([
  { role: "user", seq: 1, text: "first" },
  {
    role: "assistant",
    seq: 2,
    blocks: [
      { type: "thinking", text: "hmm", signature: "s" },
      { type: "tool_call", id: "t1", name: "bash", input: { command: "ls" } },
    ],
  },
  { role: "tool_result", seq: 3, callId: "t1", tool: "bash", error: false, text: "a b" },
  { role: "assistant", seq: 4, blocks: [{ type: "text", text: "two files" }] },
  { role: "user", seq: 5, text: "and now?" },
]);

Deno.test("anthropic bodies carry breakpoints on the last tool, the system prompt and the moving end", () => {
  const body = anthropicBody({
    system: "be brief",
    tools: [
      { name: "a", description: "A", input_schema: {} },
      { name: "b", description: "B", input_schema: {} },
    ],
    messages: conversation,
  }, endpoint());
  const tools = body.tools as Record<string, unknown>[];
  assert.equal(tools[0].cache_control, undefined);
  assert.deepEqual(tools[1].cache_control, EPH);
  assert.deepEqual(body.system, [{ type: "text", text: "be brief", cache_control: EPH }]);
  const msgs = body.messages as { role: string; content: Record<string, unknown>[] }[];
  // the last message (the new question) and the previous request's end (the tool results)
  assert.deepEqual(msgs[4].content, [{ type: "text", text: "and now?", cache_control: EPH }]);
  assert.deepEqual(msgs[2].content.at(-1)?.cache_control, EPH);
  for (const i of [0, 1, 3]) assert.equal(JSON.stringify(msgs[i]).includes("cache_control"), false);
  // at most four breakpoints in all
  assert.equal(JSON.stringify(body).split('"cache_control"').length - 1, 4);
  // the payload itself is not changed
  assert.equal(JSON.stringify(conversation).includes("cache_control"), false);
});

Deno.test("anthropic breakpoints: off with cache=never; a hook's own breakpoints are left alone", () => {
  const payload = { system: "s", tools: [], messages: conversation };
  assert.equal(JSON.stringify(anthropicBody(payload, endpoint(false))).includes("cache"), false);
  const own = cacheBreakpoints({
    system: [{ type: "text", text: "s", cache_control: EPH }],
    messages: conversation,
  });
  assert.equal(JSON.stringify(own).split('"cache_control"').length - 1, 1);
  // a thinking block or empty text never carries one
  const think = cacheBreakpoints({
    messages: [{
      role: "assistant",
      content: [{ type: "text", text: "" }, {
        type: "thinking",
        thinking: "x",
        signature: "s",
      }],
    }],
  });
  assert.equal(JSON.stringify(think).includes("cache_control"), false);
});

Deno.test("cached tokens in canonical usage: Anthropic, OpenAI chat, Responses", () => {
  const a = parseAnthropicResponse({
    model: "m",
    content: [{ type: "text", text: "x" }],
    stop_reason: "end_turn",
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 50,
    },
  });
  assert.deepEqual(a.usage, {
    input_tokens: 10,
    output_tokens: 5,
    cache_read_input_tokens: 900,
    cache_creation_input_tokens: 50,
  });
  const o = parseOpenAIResponse({
    choices: [{ message: { content: "x" }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: 1000,
      completion_tokens: 5,
      prompt_tokens_details: { cached_tokens: 768 },
    },
  });
  // prompt_tokens includes the cached part; canonical input counts the rest
  assert.deepEqual(o.usage, { input_tokens: 232, output_tokens: 5, cache_read_input_tokens: 768 });
  const r = parseResponsesResponse({
    status: "completed",
    output: [{ type: "message", content: [{ type: "output_text", text: "x" }] }],
    usage: { input_tokens: 500, output_tokens: 3, input_tokens_details: { cached_tokens: 0 } },
  });
  assert.deepEqual(r.usage, { input_tokens: 500, output_tokens: 3 });
});

Deno.test("limits: .conf context= and max_tokens=, then known models, else unknown", async () => {
  const conf = (text: string) =>
    parseConf(`protocol=anthropic\nurl=http://x/v1/messages\n${text}`, "t");
  assert.equal(conf("context=32000").context, 32000);
  assert.throws(() => conf("context=lots"), /context must be a positive integer/);
  assert.deepEqual(knownModelLimits("claude-sonnet-4-5"), { context: 200_000, maxOutput: 64_000 });
  assert.deepEqual(knownModelLimits("anthropic/claude-sonnet-4.5"), {
    context: 200_000,
    maxOutput: 64_000,
  });
  assert.equal(knownModelLimits("gpt-4o-mini")?.context, 128_000);
  assert.equal(knownModelLimits("my-local-model"), undefined);
  const p = (limits?: ModelProvider["limits"]): ModelProvider => ({
    name: "p",
    description: "",
    protocol: "anthropic",
    ready: () => Promise.resolve({ ready: true, reason: "" }),
    defaultModel: () => Promise.resolve(""),
    send: () => Promise.resolve({}),
    limits,
  });
  assert.deepEqual(
    await resolveLimits(p(() => Promise.resolve({ context: 8000, maxOutput: 512 })), "gpt-4o"),
    {
      context: 8000,
      maxOutput: 512,
      maxToolCalls: 128,
      maxToolCallsFrom: "the default",
      source: "conf",
    },
  );
  assert.deepEqual(
    await resolveLimits(p(() => Promise.resolve({ maxOutput: 512 })), "gpt-4o"),
    {
      context: 128_000,
      maxOutput: 512,
      maxToolCalls: 128,
      maxToolCallsFrom: "the default",
      source: "known model",
    },
  );
  assert.deepEqual(
    await resolveLimits(p(), "x", [{ id: "x", contextWindow: 4096, maxOutputTokens: 100 }]),
    {
      context: 4096,
      maxOutput: 100,
      maxToolCalls: 128,
      maxToolCallsFrom: "the default",
      source: "plugin",
    },
  );
  assert.deepEqual(await resolveLimits(p(), "mystery"), {
    maxOutput: undefined,
    maxToolCalls: 128,
    maxToolCallsFrom: "the default",
    source: "unknown",
  });
});
