/**
 * Stream tolerance (issue 10, item 10): a recorded Anthropic stream whose last event
 * (`message_stop`) is not followed by a blank line before EOF is a complete answer —
 * `message_delta` had already brought the `stop_reason`. A stream cut before the
 * `stop_reason` still fails.
 */
import assert from "node:assert/strict";
import { getAdapter } from "../../plugins/providers/mod.ts";
import { capture, chunkedFetch, endpoint, fixturePath } from "../plugins/providers/_helpers.ts";

const payload = { messages: [], tools: [], system: "" };

async function send(bytes: Uint8Array, chunk: number) {
  const adapter = getAdapter("anthropic", { fetch: chunkedFetch(bytes, chunk) });
  const { events, options } = capture();
  const native = await adapter.send(payload, endpoint("http://unused.invalid/"), options);
  return { events, native: native as Record<string, unknown> };
}

Deno.test("anthropic: a stream ending in message_stop without the final blank line is complete", async () => {
  const bytes = Deno.readFileSync(fixturePath("anthropic_no_final_blank.sse"));
  assert.notEqual(bytes.at(-1), 0x0a, "the fixture ends without a newline");
  for (const chunk of [1, 7, 4096]) {
    const { events, native } = await send(bytes, chunk);
    assert.equal(native.stop_reason, "end_turn");
    assert.deepEqual(native.content, [{ type: "text", text: "Hello there." }]);
    assert.deepEqual(native.usage, { input_tokens: 25, output_tokens: 15 });
    assert.deepEqual(events.filter((e) => e.type === "stop"), [{ type: "stop", reason: "end" }]);
  }
});

Deno.test("anthropic: a stream cut before message_delta still fails", async () => {
  const text = new TextDecoder().decode(
    Deno.readFileSync(fixturePath("anthropic_no_final_blank.sse")),
  );
  const cut = new TextEncoder().encode(text.slice(0, text.indexOf("event: message_delta")));
  await assert.rejects(() => send(cut, 64), /stream ended before completion/);
});
