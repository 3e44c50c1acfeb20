import assert from "node:assert/strict";
import { ProviderError } from "../../../core/mod.ts";
import { DEFAULT_RETRY, getAdapter, retryDelay } from "../../../plugins/providers/mod.ts";
import { startScriptedServer } from "../../../plugins/scripted/mod.ts";
import { capture, endpoint, FAST, serveSequence } from "./_helpers.ts";

const payload = { messages: [{ role: "user", content: "hi" }], tools: [], system: "" };
const PATHS: Record<string, string> = {
  "anthropic": "/v1/messages",
  "openai": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};
const KEY = "sk-test-SECRET-key-0123456789";

async function rejects(p: Promise<unknown>, re: RegExp): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `not a ProviderError: ${err}`);
    assert.match(err.message, re);
    assert.ok(!err.message.includes(KEY), "API key leaked into the error message");
    return err;
  }
  assert.fail(`expected rejection matching ${re}`);
}

Deno.test("429 with retry-after then success: one retry event honouring retry-after", async () => {
  const server = await startScriptedServer([
    { fault: { kind: "status", status: 429, retryAfter: "1" } },
    { text: "after retry" },
  ]);
  try {
    const { events, options } = capture();
    const t0 = performance.now();
    await getAdapter("anthropic", FAST).send(
      payload,
      endpoint(server.url + PATHS.anthropic),
      options,
    );
    assert.ok(performance.now() - t0 >= 950, "retry-after not honoured");
    const retries = events.filter((e) => e.type === "retry");
    assert.equal(retries.length, 1);
    const r = retries[0];
    assert.ok(r.type === "retry" && r.attempt === 2 && r.delayMs === 1000);
    assert.match(r.type === "retry" ? r.reason : "", /HTTP 429/);
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

for (const protocol of Object.keys(PATHS)) {
  Deno.test(`${protocol}: 500 three times then a clear error`, async () => {
    const server = await startScriptedServer([{
      fault: { kind: "status", status: 500 },
      repeat: 3,
    }]);
    try {
      const { events, options } = capture();
      const adapter = getAdapter(protocol, { retry: { ...FAST.retry, maxAttempts: 3 } });
      const err = await rejects(
        adapter.send(payload, endpoint(server.url + PATHS[protocol]), options),
        /HTTP 500: .*scripted status 500.*gave up after 3 attempts/,
      );
      assert.equal(err.status, 500);
      assert.equal(events.filter((e) => e.type === "retry").length, 2);
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${protocol}: 529 overloaded is retried, default 4 attempts`, async () => {
    const server = await startScriptedServer([
      { fault: { kind: "status", status: 529 }, repeat: 3 },
      { text: "ok" },
    ]);
    try {
      const { events, options } = capture();
      const native = await getAdapter(protocol, FAST).send(
        payload,
        endpoint(server.url + PATHS[protocol]),
        options,
      );
      assert.equal(getAdapter(protocol).parseResponse(native).blocks.length, 1);
      assert.deepEqual(
        events.flatMap((e) => e.type === "retry" ? [e.attempt] : []),
        [2, 3, 4],
      );
    } finally {
      await server.close();
    }
  });

  for (const stream of [true, false]) {
    const mode = stream ? "streaming" : "non-streaming";
    Deno.test(`${protocol} ${mode}: connection closed mid-response`, async () => {
      const server = await startScriptedServer([{
        text: "this answer will be cut somewhere in the middle",
        chunkSize: 4,
        fault: { kind: "drop-mid-stream" },
      }]);
      try {
        const { options } = capture();
        await rejects(
          getAdapter(protocol, FAST).send(
            payload,
            endpoint(server.url + PATHS[protocol], { stream }),
            options,
          ),
          stream ? /stream ended before completion/ : /reading the response|not valid JSON/,
        );
        assert.equal(server.requests.length, 1, "a cut response must not be retried");
      } finally {
        await server.close();
      }
    });

    Deno.test(`${protocol} ${mode}: malformed JSON`, async () => {
      const server = await startScriptedServer([{
        text: "some text that is long enough",
        chunkSize: 4,
        fault: { kind: "malformed-json" },
      }]);
      try {
        const { options } = capture();
        await rejects(
          getAdapter(protocol, FAST).send(
            payload,
            endpoint(server.url + PATHS[protocol], { stream }),
            options,
          ),
          stream ? /malformed JSON in SSE event "[a-z_.]+"/ : /not valid JSON/,
        );
      } finally {
        await server.close();
      }
    });

    Deno.test(`${protocol} ${mode}: server error event`, async () => {
      const server = await startScriptedServer([{
        text: "some text that is long enough",
        chunkSize: 4,
        fault: { kind: "error-event" },
      }]);
      try {
        const { events, options } = capture();
        await rejects(
          getAdapter(protocol, FAST).send(
            payload,
            endpoint(server.url + PATHS[protocol], { stream }),
            options,
          ),
          stream ? /stream ended before completion: server error/ : /API error/,
        );
        if (stream) assert.equal(events.filter((e) => e.type === "error").length, 1);
      } finally {
        await server.close();
      }
    });
  }

  Deno.test(`${protocol}: 401 names hs auth set <name> and never echoes the key`, async () => {
    const server = serveSequence([{
      status: 401,
      body: JSON.stringify({
        error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` },
      }),
    }]);
    try {
      const { events, options } = capture();
      const err = await rejects(
        getAdapter(protocol, FAST).send(payload, endpoint(server.url, { name: "acme" }), options),
        /authentication failed \(HTTP 401\): .*invalid x-api-key \*\*\*.*hs auth set acme/,
      );
      assert.equal(err.status, 401);
      assert.equal(server.count(), 1, "401 must not be retried");
      assert.ok(!JSON.stringify(events).includes(KEY));
    } finally {
      await server.close();
    }
  });

  Deno.test(`${protocol}: abort via signal cancels at once`, async () => {
    const server = await startScriptedServer([{
      text: "x".repeat(200),
      chunkSize: 1,
      delayMs: 20,
    }]);
    try {
      const ac = new AbortController();
      const { events, options } = capture(ac.signal);
      // Abort on the first text chunk (not after a fixed delay, which a loaded machine misses).
      const emit = options.emit;
      options.emit = (e) => {
        emit(e);
        if (e.type === "text") ac.abort();
      };
      const p = getAdapter(protocol).send(payload, endpoint(server.url + PATHS[protocol]), options);
      await rejects(p, /cancelled/);
      const texts = events.filter((e) => e.type === "text").length;
      assert.ok(texts >= 1, "expected some text before the abort");
      // The server would have sent 200 chunks over 4 s; "at once" means the stream stopped there.
      assert.ok(texts < 20, `the stream went on after the abort: ${texts} text events`);
    } finally {
      await server.close();
    }
  });

  Deno.test(`${protocol}: timeout without data`, async () => {
    const server = await startScriptedServer([{ text: "slow answer", chunkSize: 2, delayMs: 400 }]);
    try {
      const { options } = capture();
      await rejects(
        getAdapter(protocol, FAST).send(
          payload,
          endpoint(server.url + PATHS[protocol], { timeoutMs: 100 }),
          options,
        ),
        /timed out after 100 ms/,
      );
    } finally {
      await server.close();
    }
  });
}

Deno.test("abort during a retry wait stops immediately", async () => {
  const server = await startScriptedServer([{
    fault: { kind: "status", status: 503, retryAfter: "30" },
  }]);
  try {
    const ac = new AbortController();
    const { options } = capture(ac.signal);
    const p = getAdapter("openai").send(payload, endpoint(server.url + PATHS.openai), options);
    setTimeout(() => ac.abort(), 50);
    const t0 = performance.now();
    await rejects(p, /cancelled/);
    assert.ok(performance.now() - t0 < 1000);
  } finally {
    await server.close();
  }
});

Deno.test("connection refused is retried then reported", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const { events, options } = capture();
  await rejects(
    getAdapter("anthropic", { retry: { ...FAST.retry, maxAttempts: 2 } }).send(
      payload,
      endpoint(`http://127.0.0.1:${port}/v1/messages`),
      options,
    ),
    /nothing listens at http:\/\/127\.0\.0\.1:\d+\/v1\/messages — is the server running\?/,
  );
  assert.equal(events.filter((e) => e.type === "retry").length, 1);
});

Deno.test("x-should-retry: false stops retries (script exhausted)", async () => {
  const server = await startScriptedServer([]);
  try {
    const { options } = capture();
    await rejects(
      getAdapter("anthropic", FAST).send(payload, endpoint(server.url + PATHS.anthropic), options),
      /script exhausted/,
    );
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("retryDelay: seconds, HTTP date, retry-after-ms, backoff bounds", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  const h = (o: Record<string, string>) => new Headers(o);
  assert.equal(retryDelay(1, h({ "retry-after": "3" }), DEFAULT_RETRY, now), 3000);
  assert.equal(
    retryDelay(1, h({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), DEFAULT_RETRY, now),
    5000,
  );
  assert.equal(retryDelay(1, h({ "retry-after-ms": "250" }), DEFAULT_RETRY, now), 250);
  assert.equal(retryDelay(1, h({ "retry-after": "9999" }), DEFAULT_RETRY, now), 60_000);
  for (let attempt = 1; attempt <= 6; attempt++) {
    const d = retryDelay(attempt, undefined, DEFAULT_RETRY, now);
    const cap = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (attempt - 1));
    assert.ok(d <= cap && d >= cap * 0.75, `attempt ${attempt}: ${d}`);
  }
});

Deno.test("invalid tool arguments → ProviderError naming the tool", () => {
  const native = {
    id: "x",
    object: "chat.completion",
    model: "m",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        tool_calls: [{
          id: "c1",
          type: "function",
          function: { name: "bash", arguments: "{oops" },
        }],
      },
      finish_reason: "tool_calls",
    }],
  };
  assert.throws(() => getAdapter("openai").parseResponse(native), (e: unknown) => {
    return e instanceof ProviderError && /invalid JSON in the arguments of tool call "bash" \(c1\)/
      .test(e.message);
  });
});
