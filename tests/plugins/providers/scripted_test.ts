import assert from "node:assert/strict";
import { startScriptedServer } from "../../../plugins/scripted/mod.ts";
import { parseScript } from "../../../plugins/scripted/script_schema.ts";

async function post(
  url: string,
  body: unknown,
): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return {
    status: res.status,
    text: await res.text(),
    type: res.headers.get("content-type") ?? "",
  };
}

Deno.test("scripted: byte-exact Anthropic SSE framing", async () => {
  const s = await startScriptedServer([{
    text: "Hi",
    usage: { input_tokens: 3, output_tokens: 1 },
  }]);
  try {
    const r = await post(`${s.url}/v1/messages`, { model: "m", stream: true });
    assert.match(r.type, /^text\/event-stream/);
    const frames = r.text.split("\n\n").filter(Boolean);
    assert.deepEqual(frames.map((f) => f.split("\n")[0]), [
      "event: message_start",
      "event: content_block_start",
      "event: ping",
      "event: content_block_delta",
      "event: content_block_stop",
      "event: message_delta",
      "event: message_stop",
    ]);
    assert.ok(r.text.endsWith('data: {"type":"message_stop"}\n\n'));
  } finally {
    await s.close();
  }
});

Deno.test("scripted: OpenAI ends with [DONE], Responses with response.completed", async () => {
  const s = await startScriptedServer([{ text: "a" }, { text: "b" }]);
  try {
    const o = await post(`${s.url}/v1/chat/completions`, { model: "m", stream: true });
    assert.ok(o.text.endsWith("data: [DONE]\n\n"));
    assert.ok(!o.text.includes("event:"));
    const r = await post(`${s.url}/v1/responses`, { model: "m", stream: true });
    assert.match(r.text, /event: response\.completed\ndata: \{"type":"response\.completed"/);
  } finally {
    await s.close();
  }
});

Deno.test("scripted: records requests, expect, repeat, exhaustion, unknown route", async () => {
  const s = await startScriptedServer([
    { fault: { kind: "status", status: 503, body: '{"error":{"message":"busy"}}' }, repeat: 2 },
    {
      text: "ok",
      expect: (req) =>
        (req.body as { model?: string }).model === "good" ? undefined : "wrong model",
    },
  ]);
  try {
    assert.equal((await post(`${s.url}/v1/messages`, { model: "x" })).status, 503);
    assert.equal((await post(`${s.url}/v1/messages`, { model: "x" })).status, 503);
    const bad = await post(`${s.url}/v1/messages`, { model: "bad" });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /scripted expectation failed at request #3: wrong model/);
    const done = await post(`${s.url}/v1/messages`, { model: "good" });
    assert.equal(done.status, 500);
    assert.match(done.text, /script exhausted \(2 turns\) at request #4/);
    assert.equal((await post(`${s.url}/v2/other`, {})).status, 404);
    assert.equal(s.requests.length, 4);
    assert.equal(s.requests[0].path, "/v1/messages");
    assert.deepEqual(s.requests[0].body, { model: "x" });
    assert.equal(s.failures.length, 2);
    assert.equal(s.remaining(), 0);
  } finally {
    await s.close();
  }
});

Deno.test("scripted: close() stops streams still in flight", async () => {
  const s = await startScriptedServer([{ text: "x".repeat(50), chunkSize: 1, delayMs: 50 }]);
  const res = await fetch(`${s.url}/v1/messages`, {
    method: "POST",
    body: JSON.stringify({ stream: true }),
  });
  const reader = res.body!.getReader();
  await reader.read();
  await s.close();
  // The body ends (or errors) promptly instead of hanging.
  try {
    while (!(await reader.read()).done) { /* drain */ }
  } catch { /* connection closed */ }
});

Deno.test("scripted: JSON script validation", () => {
  assert.equal(parseScript('[{"text":"a"}]', "s.json").length, 1);
  assert.equal(
    parseScript('{"turns":[{"fault":{"kind":"status","status":429}}]}', "s.json").length,
    1,
  );
  assert.throws(() => parseScript("[{", "s.json"), /s\.json: not valid JSON/);
  assert.throws(() => parseScript('[{"txt":"a"}]', "s.json"), /s\.json: invalid script at 0/);
});

Deno.test("scripted cli: prints its URL and exits when stdin closes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/s.json`, '[{"text":"from cli"}]');
    const cli = new URL("../../../plugins/scripted/cli.ts", import.meta.url).pathname;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, `${dir}/s.json`],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    const url = out.trim();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await post(`${url}/v1/messages`, { model: "m" });
    assert.equal(JSON.parse(r.text).content[0].text, "from cli");
    await child.stdin.close();
    const status = await child.status;
    assert.equal(status.code, 0);
    await reader.cancel();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
