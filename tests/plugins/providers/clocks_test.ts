/**
 * Issue 12, items 3, 4 and 6 at the adapter level: keep-alives do not count as
 * an answer (time-to-first-token), an answer must end before the deadline,
 * a response is capped in size, and an HTML page or a body without events is
 * said to be one. In process, against the hostile server of tests/faults.
 */
import assert from "node:assert/strict";
import { ProviderError } from "../../../core/mod.ts";
import { getAdapter } from "../../../plugins/providers/mod.ts";
import {
  answer,
  type Behaviour,
  garbage,
  htmlPage,
  huge,
  keepalives,
  raw,
  startHostile,
  status,
} from "../../faults/_hostile.ts";
import { capture, endpoint, FAST } from "./_helpers.ts";

const payload = { messages: [{ role: "user", content: "hi" }], tools: [], system: "" };
const PATHS = { anthropic: "/v1/messages", openai: "/v1/chat/completions" } as const;
const KEY = "sk-test-SECRET-key-0123456789";

async function send(
  protocol: keyof typeof PATHS,
  b: Behaviour,
  over: Parameters<typeof endpoint>[1] = {},
): Promise<{ error?: ProviderError; texts: string[] }> {
  const server = startHostile([b]);
  const { events, options } = capture();
  try {
    await getAdapter(protocol, FAST).send(
      payload,
      endpoint(server.url + PATHS[protocol], over),
      options,
    );
    return { texts: events.flatMap((e) => (e.type === "text" ? [e.text] : [])) };
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    assert.ok(!err.message.includes(KEY), "no key in the message");
    return { error: err, texts: events.flatMap((e) => (e.type === "text" ? [e.text] : [])) };
  } finally {
    await server.close();
  }
}

for (const protocol of ["anthropic", "openai"] as const) {
  Deno.test(`${protocol}: keep-alives alone end at first_token_timeout`, async () => {
    for (const kind of ["ping", "comment"] as const) {
      const r = await send(protocol, keepalives(kind), { firstTokenTimeoutMs: 200 });
      assert.match(
        r.error?.message ?? "",
        /no answer from the model within 0\.2 s \(the server sent no content, only keep-alives/,
      );
      assert.match(r.error?.hint ?? "", /first_token_timeout=/);
    }
  });

  Deno.test(`${protocol}: text then keep-alives forever end at the deadline`, async () => {
    const r = await send(protocol, keepalives("ping", { afterText: "partial" }), {
      firstTokenTimeoutMs: 200,
      deadlineMs: 500,
    });
    assert.deepEqual(r.texts, ["partial"]);
    assert.match(r.error?.message ?? "", /not complete within the deadline of 0\.5 s/);
  });

  Deno.test(`${protocol}: a slow but steady answer is not cut by the first-token clock`, async () => {
    const r = await send(protocol, answer({ text: "steady answer", chunkSize: 2 }), {
      firstTokenTimeoutMs: 5000,
    });
    assert.equal(r.error, undefined);
    assert.equal(r.texts.join(""), "steady answer");
  });

  Deno.test(`${protocol}: a response over max_response_bytes is refused, streamed or not`, async () => {
    for (const stream of [true, false]) {
      const r = await send(protocol, huge(300_000), { maxResponseBytes: 100_000, stream });
      assert.match(
        r.error?.message ?? "",
        /the response is larger than 97\.7 KB \(reading stopped\)/,
      );
    }
  });

  Deno.test(`${protocol}: an HTML page is said to be one`, async () => {
    for (const stream of [true, false]) {
      const r = await send(protocol, htmlPage(), { stream });
      assert.match(
        r.error?.message ?? "",
        new RegExp(
          `answered with an HTML page \\(HTTP 200, content-type text/html; charset=utf-8, "Sign in - Corporate Proxy"\\), not ${
            stream ? "an event stream" : "a JSON response"
          } — check url=`,
        ),
      );
    }
  });

  Deno.test(`${protocol}: a body without events is said to be one`, async () => {
    const plain = await send(protocol, raw("OK", "text/plain"));
    assert.match(
      plain.error?.message ?? "",
      /content-type text\/plain and no server-sent events \(first bytes: "OK"\)/,
    );
    const bytes = await send(protocol, garbage(2000));
    assert.match(bytes.error?.message ?? "", /no server-sent events/);
  });
}

Deno.test("the deadline covers retry waits too", async () => {
  const server = startHostile([status(429, { retryAfter: "30" }), answer({ text: "late" })]);
  const { options } = capture();
  try {
    await assert.rejects(
      getAdapter("anthropic", FAST).send(
        payload,
        endpoint(server.url + PATHS.anthropic, { deadlineMs: 300 }),
        options,
      ),
      /not complete within the deadline of 0\.3 s \(retry wait\)/,
    );
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("a retry wait does not count against the time to first token", async () => {
  // retry-after is longer than first_token_timeout: only the deadline covers the wait.
  const server = startHostile([status(429, { retryAfter: "2.5" }), answer({ text: "in time" })]);
  const { events, options } = capture();
  try {
    await getAdapter("anthropic", FAST).send(
      payload,
      endpoint(server.url + PATHS.anthropic, { firstTokenTimeoutMs: 1500, deadlineMs: 60_000 }),
      options,
    );
    assert.deepEqual(events.flatMap((e) => (e.type === "text" ? [e.text] : [])), ["in time"]);
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});
