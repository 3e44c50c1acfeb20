import assert from "node:assert/strict";
import {
  HarnessError,
  type ModelProvider,
  type PluginContext,
  type ProtocolAdapter,
  ProviderError,
} from "../../../core/mod.ts";
import {
  bundledConfs,
  confProvider,
  confWarnings,
  envProviders,
  getAdapter,
  parseConf,
  type ProviderDeps,
  providersPlugin,
} from "../../../plugins/providers/mod.ts";
import { startScriptedServer } from "../../../plugins/scripted/mod.ts";
import { capture, FAST } from "./_helpers.ts";

function deps(env: Record<string, string> = {}, stored: Record<string, string> = {}): ProviderDeps {
  return {
    env,
    lookupKey: (p) => Promise.resolve(stored[p]),
    adapterOptions: FAST,
  };
}

Deno.test("parseConf: every key, first occurrence wins, comments, headers", () => {
  const v = parseConf(
    `# local vLLM
protocol=openai
url=http://localhost:8000/v1/chat/completions
url=http://ignored
auth_env=VLLM_KEY
model=Qwen/Qwen3-8B
max_tokens=2048
description=vLLM on the GPU box
stream=never
header.X-Team=core
header.x-team=ignored
timeout=12.5
max_attempts=2
first_token_timeout=30
deadline=900.5
max_response_bytes=8M
max_tool_calls=64
context=32768
cache=never
price_input=0.5
price_output=1.5
price_cache_read=0.05
future_key=1
`,
    "/p/vllm.conf",
  );
  assert.deepEqual(v, {
    path: "/p/vllm.conf",
    protocol: "openai",
    url: "http://localhost:8000/v1/chat/completions",
    authEnv: "VLLM_KEY",
    model: "Qwen/Qwen3-8B",
    maxTokens: 2048,
    description: "vLLM on the GPU box",
    stream: "never",
    headers: { "X-Team": "core" },
    timeoutMs: 12500,
    maxAttempts: 2,
    firstTokenTimeoutMs: 30_000,
    deadlineMs: 900_500,
    maxResponseBytes: 8 * 1024 * 1024,
    maxToolCalls: 64,
    context: 32768,
    cache: "never",
    pricing: { input: 0.5, output: 1.5, cacheRead: 0.05, cacheWrite: undefined },
    unknownKeys: ["future_key"],
    urlLine: 3,
  });
});

Deno.test("parseConf: defaults", () => {
  const v = parseConf("protocol=anthropic\nurl=https://example.com/v1/messages\n", "a.conf");
  assert.equal(v.maxTokens, 8192);
  assert.equal(v.stream, "auto");
  assert.equal(v.timeoutMs, 300_000);
  assert.equal(v.firstTokenTimeoutMs, 300_000);
  assert.equal(v.deadlineMs, 3_600_000);
  assert.equal(v.maxResponseBytes, 32 * 1024 * 1024);
  assert.equal(v.maxToolCalls, undefined, "the loop's default (128) applies");
  assert.equal(v.authEnv, undefined);
  assert.equal(v.model, "");
});

Deno.test("parseConf: errors name the path and the line", () => {
  const bad: [string, RegExp][] = [
    ["protocol=gemini\nurl=http://x", /^\/x\/bad\.conf:1: unknown protocol "gemini"/],
    ["url=http://x", /^\/x\/bad\.conf: missing protocol=/],
    ["protocol=openai", /^\/x\/bad\.conf: missing url=/],
    ["protocol=openai\nurl=ftp://x", /^\/x\/bad\.conf:2: url= must be an http\(s\) URL/],
    ["protocol=openai\nurl=http://x\nmax_tokens=lots", /:3: max_tokens must be a positive integer/],
    ["protocol=openai\nurl=http://x\nstream=always", /:3: stream= must be never or auto/],
    ["protocol=openai\nurl=http://x\ntimeout=-1", /:3: timeout=/],
    ["protocol=openai\nurl=http://x\n\ndeadline=soon", /:4: deadline= must be a number of seconds/],
    [
      "protocol=openai\nurl=http://x\nfirst_token_timeout=0",
      /:3: first_token_timeout= must be greater/,
    ],
    ["protocol=openai\nurl=http://x\nmax_response_bytes=lots", /:3: max_response_bytes= must be/],
    ["protocol=openai\njust words", /\/x\/bad\.conf:2: expected key=value, found "just words"/],
  ];
  for (const [text, re] of bad) {
    assert.throws(() => parseConf(text, "/x/bad.conf"), (e: unknown) => {
      assert.ok(e instanceof HarnessError);
      assert.match(e.message, re);
      assert.ok(e.message.includes("/x/bad.conf"));
      return true;
    });
  }
});

Deno.test("bundled confs parse and point at the documented endpoints", () => {
  assert.deepEqual(Object.keys(bundledConfs).sort(), [
    "deepseek",
    "groq",
    "llama.cpp",
    "ollama",
    "openrouter",
  ]);
  for (const [name, text] of Object.entries(bundledConfs)) {
    const v = parseConf(text, `builtin:${name}.conf`);
    assert.equal(v.protocol, "openai");
    assert.ok(v.model);
  }
  assert.equal(
    parseConf(bundledConfs.ollama, "o").url,
    "http://localhost:11434/v1/chat/completions",
  );
});

Deno.test("confProvider: readiness from auth_env, env, stored key", async () => {
  const v = parseConf(
    "protocol=openai\nurl=http://x/v1/chat/completions\nauth_env=ACME_KEY\nmodel=m",
    "a.conf",
  );
  assert.deepEqual(await confProvider("acme", v, deps()).ready(), {
    ready: false,
    reason: "ACME_KEY not set — run: hs auth set acme",
  });
  assert.equal((await confProvider("acme", v, deps({ ACME_KEY: "k" })).ready()).ready, true);
  assert.equal((await confProvider("acme", v, deps({}, { acme: "k" })).ready()).ready, true);
  const open = parseConf("protocol=openai\nurl=http://x/", "b.conf");
  assert.equal((await confProvider("open", open, deps()).ready()).ready, true);
  assert.equal(await confProvider("acme", v, deps()).defaultModel(), "m");
});

Deno.test("confProvider: missing key at send", async () => {
  const v = parseConf(
    "protocol=openai\nurl=http://x/v1/chat/completions\nauth_env=ACME_KEY\nmodel=m",
    "a.conf",
  );
  await assert.rejects(
    confProvider("acme", v, deps()).send(
      { messages: [], tools: [], system: "" },
      "",
      capture().options,
    ),
    (e: unknown) =>
      e instanceof ProviderError && e.message === "ACME_KEY not set — run: hs auth set acme",
  );
});

Deno.test("confProvider: sends with stored key, headers, stream=never, max_attempts", async () => {
  const server = await startScriptedServer([
    { fault: { kind: "status", status: 500 }, repeat: 2 },
  ]);
  try {
    const v = parseConf(
      `protocol=anthropic
url=${server.url}/v1/messages
auth_env=ACME_KEY
model=claude-x
stream=never
header.X-Org=o1
max_attempts=2
max_tokens=77`,
      "a.conf",
    );
    const p = confProvider("acme", v, deps({}, { acme: "stored-key" }));
    await assert.rejects(
      p.send({ messages: [], tools: [], system: "" }, "", capture().options),
      /gave up after 2 attempts/,
    );
    const req = server.requests[0];
    assert.equal(req.headers["x-api-key"], "stored-key");
    assert.equal(req.headers["x-org"], "o1");
    assert.deepEqual(req.body, { model: "claude-x", max_tokens: 77, messages: [], stream: false });
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("env providers: readiness and wire defaults", async () => {
  const [a, o] = envProviders(deps());
  assert.equal(a.name, "anthropic");
  assert.equal(o.name, "openai");
  assert.deepEqual(await a.ready(), {
    ready: false,
    reason: "ANTHROPIC_API_KEY not set — run: hs auth set anthropic",
  });
  assert.equal((await o.ready()).ready, false);
  assert.equal((await envProviders(deps({ ANTHROPIC_API_KEY: "k" }))[0].ready()).ready, true);
  assert.equal((await envProviders(deps({}, { anthropic: "k" }))[0].ready()).ready, true);
  assert.equal(
    (await envProviders(deps({ OPENAI_API_URL: "http://localhost:1/" }))[1].ready()).ready,
    true,
  );
  await assert.rejects(
    a.send({ messages: [], tools: [], system: "" }, "", capture().options),
    /ANTHROPIC_API_KEY not set — run: hs auth set anthropic/,
  );
});

Deno.test("env providers: key-less local openai server and anthropic env overrides", async () => {
  const server = await startScriptedServer([{ text: "local" }, { text: "remote" }]);
  try {
    const env = {
      OPENAI_API_URL: `${server.url}/v1/chat/completions`,
      OPENAI_MAX_TOKENS: "99",
      ANTHROPIC_API_KEY: "ak",
      ANTHROPIC_API_URL: `${server.url}/v1/messages`,
      ANTHROPIC_MAX_TOKENS: "55",
    };
    const [a, o] = envProviders(deps(env));
    await o.send(
      { messages: [{ role: "user", content: "x" }], tools: [], system: "" },
      "",
      capture().options,
    );
    await a.send(
      { messages: [{ role: "user", content: "x" }], tools: [], system: "" },
      "m2",
      capture().options,
    );
    const [or, ar] = server.requests;
    assert.equal(or.headers.authorization, undefined);
    assert.equal((or.body as Record<string, unknown>).max_tokens, 99);
    assert.equal((or.body as Record<string, unknown>).model, "gpt-4o");
    assert.equal(ar.headers["x-api-key"], "ak");
    assert.equal((ar.body as Record<string, unknown>).max_tokens, 55);
    assert.equal((ar.body as Record<string, unknown>).model, "m2");
  } finally {
    await server.close();
  }
});

Deno.test("providersPlugin registers three protocols, env and bundled providers", async () => {
  const protocols: ProtocolAdapter[] = [];
  const providers: ModelProvider[] = [];
  const ctx = {
    models: {
      register: (p: ModelProvider) => providers.push(p),
      registerProtocol: (a: ProtocolAdapter) => protocols.push(a),
    },
  } as unknown as PluginContext;
  const plugin = providersPlugin(deps());
  assert.equal(plugin.id, "providers");
  assert.equal(plugin.apiVersion, 1);
  await plugin.setup(ctx);
  assert.deepEqual(protocols.map((p) => p.protocol), ["anthropic", "openai", "openai-responses"]);
  assert.deepEqual(providers.map((p) => p.name), [
    "anthropic",
    "openai",
    "openrouter",
    "groq",
    "deepseek",
    "llama.cpp",
    "ollama",
  ]);
});

Deno.test("getAdapter: unknown protocol", () => {
  assert.throws(() => getAdapter("gemini"), /unknown protocol "gemini"/);
  assert.equal(getAdapter("openai"), getAdapter("openai"));
});

Deno.test("parseConf: auth=none needs no key; with auth_env it is a contradiction", () => {
  const v = parseConf(
    "protocol=openai\nurl=http://127.0.0.1:8080/v1/chat/completions\nauth=none\n",
    "l.conf",
  );
  assert.equal(v.authEnv, undefined);
  assert.throws(
    () => parseConf("protocol=openai\nurl=http://x/v1\nauth=none\nauth_env=K\n", "l.conf"),
    /l\.conf:3: auth=none and auth_env= contradict/,
  );
  assert.throws(
    () => parseConf("protocol=openai\nurl=http://x/v1\nauth=key\n", "l.conf"),
    /auth= must be none/,
  );
});

Deno.test("confWarnings: unknown keys with line and the nearest key; header.* is known", () => {
  assert.deepEqual(
    confWarnings("protocol=openai\nmodle=x\nheader.X-A=1\nzzzzzz=1\n", "p.conf"),
    [
      "p.conf:2: unknown key modle= (did you mean model=?)",
      "p.conf:4: unknown key zzzzzz= (ignored)",
    ],
  );
});
