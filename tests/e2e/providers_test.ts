/**
 * End-to-end: providers through the real CLI and a real loopback server — a
 * two-round tool loop per protocol (streaming and `stream=never`), `hs
 * providers`, executable providers, resolution, and runtime-plugin models
 * and auth providers through `Harness.create`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedServer } from "../../plugins/scripted/mod.ts";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import type { ModelProvider, RuntimePlugin, SendPayload } from "../../mod.ts";
import {
  loopbackConf,
  makeWorkspace,
  runHs,
  type Workspace,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

const ECHO_TOOL = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"echo_tool","description":"echo its input","input_schema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}' ;;
  --describe) echo "echo its input" ;;
  --exec) echo "ECHO $(cat)" ;;
esac
`;

/** The session directory named on stderr (`session: <dir>`). */
function sessionDirOf(stderr: string): string {
  const m = /session: (\S+)/.exec(stderr);
  assert.ok(m, `no session line in stderr: ${stderr}`);
  return m[1];
}

function messageFiles(dir: string): string[] {
  return [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name).sort();
}

function read(dir: string, name: string): string {
  return Deno.readTextFileSync(join(dir, "messages", name));
}

type Body = Record<string, unknown> & {
  messages?: unknown[];
  input?: unknown[];
  tools?: unknown[];
};

/** The tool result as the protocol sends it back to the model. */
function toolResultOf(protocol: string, body: Body): { id: string; content: string } {
  if (protocol === "anthropic") {
    const last = body.messages!.at(-1) as { role: string; content: Record<string, string>[] };
    assert.equal(last.role, "user");
    const block = last.content[0];
    assert.equal(block.type, "tool_result");
    return { id: block.tool_use_id, content: block.content };
  }
  if (protocol === "openai") {
    const last = body.messages!.at(-1) as Record<string, string>;
    assert.equal(last.role, "tool");
    return { id: last.tool_call_id, content: last.content };
  }
  const last = body.input!.at(-1) as Record<string, string>;
  assert.equal(last.type, "function_call_output");
  return { id: last.call_id, content: last.output };
}

/** Whether a request's tools are in the protocol's shape. */
function hasTool(protocol: string, body: Body, name: string): boolean {
  const tools = (body.tools ?? []) as Record<string, unknown>[];
  if (protocol === "anthropic") return tools.some((t) => t.name === name && t.input_schema);
  if (protocol === "openai") {
    return tools.some((t) =>
      t.type === "function" && (t.function as { name: string; parameters: unknown }).name === name
    );
  }
  return tools.some((t) => t.type === "function" && t.name === name && t.parameters);
}

for (const protocol of ["anthropic", "openai", "openai-responses"]) {
  for (const stream of ["auto", "never"]) {
    Deno.test(`two-round tool loop through hs: ${protocol}, stream=${stream}`, async () => {
      const w = await makeWorkspace();
      const server = await startScriptedServer([
        {
          text: "Let me check.",
          toolCalls: [{ id: "call_1", name: "echo_tool", input: { text: "hi" } }],
          usage: { input_tokens: 20, output_tokens: 5 },
        },
        { text: "All done.", usage: { input_tokens: 30, output_tokens: 3 } },
      ]);
      try {
        await writeFile(
          join(w.ws, ".harness/providers/loop.conf"),
          loopbackConf(server.url, protocol, `stream=${stream}\n`),
        );
        await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
        await writeExe(join(w.ws, ".harness/tools/echo_tool"), ECHO_TOOL);
        const r = await runHs(["please", "echo"], { cwd: w.ws, env: w.env });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, "All done.\n");
        assert.deepEqual(server.failures, []);
        assert.equal(server.requests.length, 2);
        const [first, second] = server.requests.map((q) => q.body as Body);
        assert.equal(first.stream === true, stream === "auto", JSON.stringify(first.stream));
        assert.equal(first.model, "scripted-1");
        assert.ok(hasTool(protocol, first, "echo_tool"), JSON.stringify(first.tools));
        const result = toolResultOf(protocol, second);
        assert.equal(result.id, "call_1");
        assert.equal(result.content, 'ECHO {"text":"hi"}');

        const dir = sessionDirOf(r.stderr);
        assert.deepEqual(messageFiles(dir), [
          "0001-user.md",
          "0002-assistant.md",
          "0003-tool_result.md",
          "0004-assistant.md",
        ]);
        assert.match(
          read(dir, "0001-user.md"),
          /^---\nrole: user\nseq: 0001\n[\s\S]*---\nplease echo\n$/,
        );
        assert.match(
          read(dir, "0002-assistant.md"),
          /^---\nrole: assistant\nseq: 0002\ntimestamp: \S+\nmodel: scripted-1\nprovider: loop\nstop: tool_calls\ntokens_in: 20\ntokens_out: 5\n---\nLet me check\.\n\n```tool_call id=call_1 name=echo_tool\n\{"text":"hi"\}\n```\n/,
        );
        assert.match(
          read(dir, "0003-tool_result.md"),
          /^---\nrole: tool_result\nseq: 0003\ntimestamp: \S+\ncall_id: call_1\ntool: echo_tool\nerror: false\n---\nECHO \{"text":"hi"\}\n$/,
        );
        assert.match(
          read(dir, "0004-assistant.md"),
          /\nprovider: loop\nstop: end\ntokens_in: 30\ntokens_out: 3\n---\nAll done\.\n+$/,
        );
        const events = Deno.readTextFileSync(join(dir, ".stream")).trim().split("\n").map((l) =>
          JSON.parse(l)
        );
        assert.equal(events.at(-1).type, "done");
        assert.ok(events.some((e) => e.type === "stop" && e.reason === "end" && e.seq === "0004"));
        assert.equal(
          events.filter((e) => e.type === "text").map((e) => e.text).join(""),
          "All done.",
        );
      } finally {
        await server.close();
        await w.cleanup();
      }
    });
  }
}

/** A plugins.json runtime plugin registering provider `plugged` with two models. */
async function writeUserPlugin(w: Workspace): Promise<void> {
  const mod = join(w.root, "plug.ts");
  await writeFile(
    mod,
    `export default {
  id: "myplug", version: "1.0.0", apiVersion: 1,
  setup(ctx) {
    ctx.models.register({
      name: "plugged", description: "a plugin provider", protocol: "anthropic",
      ready: () => Promise.resolve({ ready: false, reason: "plugged is never ready" }),
      defaultModel: () => Promise.resolve(""),
      send: () => Promise.reject(new Error("not used")),
    }, [{ id: "plug-small" }, { id: "plug-big" }]);
  },
};
`,
  );
  await writeFile(
    join(w.home, "plugins.json"),
    JSON.stringify({ runtimePlugins: [{ id: "myplug", module: mod, required: false }] }),
  );
}

Deno.test("hs providers: origins, protocols, models, readiness with reasons, the selection and why", async () => {
  const w = await makeWorkspace();
  const GROQ = "gsk-test-groq-0123456789-abcdefgh";
  const STORED = "sk-stored-deepseek-0123456789-xyz";
  try {
    await writeFile(
      join(w.ws, ".harness/providers/loop.conf"),
      loopbackConf("http://127.0.0.1:9", "openai-responses"),
    );
    await writeFile(
      join(w.ws, ".harness/providers/groq.conf"),
      "protocol=openai\nurl=http://127.0.0.1:9/v1/chat/completions\nmodel=local-groq\nauth_env=GROQ_API_KEY\n",
    );
    await writeFile(join(w.ws, ".harness/providers/broken.conf"), "protocol=smoke-signals\n");
    await writeExe(
      join(w.ws, ".harness/providers/ex"),
      `#!/usr/bin/env bash
case "$1" in
  --ready) exit 1 ;;
  --defaults) printf 'model=ex-1\\nprotocol=openai\\n' ;;
  --describe) echo "an executable provider" ;;
  --env) echo "EX_TOKEN   the token ex needs" ;;
esac
`,
    );
    await writeUserPlugin(w);
    const env = { ...w.env, GROQ_API_KEY: GROQ };
    const set = await runHs(["auth", "set", "deepseek"], { cwd: w.ws, env, stdin: STORED + "\n" });
    assert.equal(set.code, 0, set.stderr);

    const r = await runHs(["providers"], { cwd: w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    const line = (name: string) => out.split("\n").find((l) => l.slice(2).startsWith(name + " "));
    assert.match(line("anthropic")!, /anthropic\s+claude-\S+\s+no\s+ANTHROPIC_API_KEY not set/);
    assert.match(
      line("openrouter")!,
      /openai\s+openrouter\/auto\s+no\s+OPENROUTER_API_KEY not set/,
    );
    // auto-detect order: built-ins first (deepseek has a stored key); the local groq.conf
    // replaces the bundled groq and is listed with the discovered files
    assert.match(
      line("deepseek")!,
      /^\* deepseek\s+openai\s+deepseek-chat\s+yes\s+stored key in ~\/home\/\.auth\.json/,
    );
    assert.match(
      line("groq")!,
      /^ {2}groq\s+openai\s+local-groq\s+yes\s+auth_env GROQ_API_KEY set/,
    );
    assert.match(line("ex")!, /openai\s+ex-1\s+no\s+--ready exited 1/);
    assert.match(
      line("loop")!,
      /openai-responses\s+scripted-1\s+yes\s+no key needed.*not auto-detected/,
    );
    assert.match(line("plugged")!, /anthropic\s+plug-small\s+no\s+plugged is never ready/);
    assert.match(line("broken")!, /unusable \.conf: .*unknown protocol "smoke-signals"/);
    assert.match(
      out,
      /~\/ws\/\.harness\/providers\/groq\.conf · overrides the built-in groq/,
    );
    assert.match(out, /plugin:myplug · a plugin provider · models: plug-small, plug-big/);
    assert.match(out, /an executable provider/);
    assert.match(
      out,
      /selected: deepseek — auto-detect: the first ready provider \(stored key in ~\/home\/\.auth\.json\)/,
    );
    assert.match(out, /model: deepseek-chat — model= of its \.conf/);
    for (const secret of [GROQ, STORED]) {
      assert.ok(!out.includes(secret) && !r.stderr.includes(secret), "a key was printed");
    }

    // settings.conf wins over auto-detect; HARNESS_PROVIDER wins over settings.conf
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\nmodel=m-from-settings\n");
    const s = await runHs(["providers", "--json"], { cwd: w.ws, env });
    assert.equal(s.code, 0, s.stderr);
    const j = JSON.parse(s.stdout);
    assert.deepEqual(
      { ...j.selected },
      {
        provider: "loop",
        model: "m-from-settings",
        providerWhy: "provider= in ~/ws/.harness/settings.conf",
        modelWhy: "model= in ~/ws/.harness/settings.conf",
      },
    );
    const ex = j.providers.find((p: { name: string }) => p.name === "ex");
    assert.equal(ex.kind, "executable");
    assert.equal(ex.ready, false);
    const e = await runHs(["providers"], { cwd: w.ws, env: { ...env, HARNESS_PROVIDER: "ex" } });
    assert.match(
      e.stdout,
      /selected: ex — HARNESS_PROVIDER=ex\n\s+model: ex-1 — the provider's --defaults/,
    );
    const detail = await runHs(["providers", "ex"], { cwd: w.ws, env });
    assert.match(detail.stdout, /kind:\s+executable[\s\S]*EX_TOKEN\s+the token ex needs/);
    const unknown = await runHs(["providers", "nope"], { cwd: w.ws, env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown provider "nope"/);
  } finally {
    await w.cleanup();
  }
});

/** An OpenAI-shaped executable provider: a tool call first, then text; records what it got. */
const EXEC_PROVIDER = (record: string) =>
  `#!/usr/bin/env python3
import json, os, sys
arg = sys.argv[1] if len(sys.argv) > 1 else ""
if arg == "--ready": sys.exit(0)
if arg == "--defaults":
    print("model=exo-model"); print("protocol=openai"); sys.exit(0)
if arg == "--describe": print("scripted executable provider"); sys.exit(0)
if arg == "--env": print("EXO_NOTHING  nothing"); sys.exit(0)
payload = json.load(sys.stdin)
with open(${JSON.stringify(record)}, "a") as f:
    f.write(json.dumps({"args": sys.argv[1:], "payload": payload,
        "env": {k: os.environ.get(k, "") for k in ["HARNESS_SESSION", "HARNESS_MODEL", "HARNESS_PROVIDER", "HARNESS_STAGE", "HARNESS_CWD"]}}) + "\\n")
if arg == "--stream":
    with open(os.path.join(os.environ["HARNESS_SESSION"], ".stream"), "a") as s:
        s.write(json.dumps({"type": "text", "text": "from-provider"}) + "\\n")
done = any(m.get("role") == "tool" for m in payload["messages"])
if done:
    msg = {"role": "assistant", "content": "exec provider finished"}
    finish = "stop"
else:
    msg = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_x", "type": "function",
        "function": {"name": "echo_tool", "arguments": json.dumps({"text": "via exec"})}}]}
    finish = "tool_calls"
print(json.dumps({"id": "x", "object": "chat.completion", "model": payload["model"],
    "choices": [{"index": 0, "message": msg, "finish_reason": finish}],
    "usage": {"prompt_tokens": 3, "completion_tokens": 2}}))
`;

Deno.test("executable providers: --ready, --defaults (model, protocol=), --stream, session env; bad output is an error", async () => {
  const w = await makeWorkspace();
  try {
    const record = join(w.root, "provider-calls.jsonl");
    await writeExe(join(w.ws, ".harness/providers/exo"), EXEC_PROVIDER(record));
    await writeExe(join(w.ws, ".harness/tools/echo_tool"), ECHO_TOOL);
    // auto-detect: exo's --ready exits 0 and no built-in provider is ready
    const r = await runHs(["go"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "exec provider finished\n");
    const calls = Deno.readTextFileSync(record).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(calls.length, 2);
    const dir = sessionDirOf(r.stderr);
    assert.deepEqual(calls[0].args, ["--stream"]);
    assert.deepEqual(calls[0].env, {
      HARNESS_SESSION: dir,
      HARNESS_MODEL: "exo-model",
      HARNESS_PROVIDER: "exo",
      HARNESS_STAGE: "send",
      HARNESS_CWD: w.ws,
    });
    // protocol=openai from --defaults: OpenAI shapes in the payload
    const p0 = calls[0].payload;
    assert.equal(p0.model, "exo-model");
    assert.ok(
      p0.tools.some((t: { function?: { name: string } }) => t.function?.name === "echo_tool"),
    );
    assert.deepEqual(calls[1].payload.messages.at(-1), {
      role: "tool",
      tool_call_id: "call_x",
      content: 'ECHO {"text":"via exec"}',
    });
    assert.match(
      Deno.readTextFileSync(join(dir, "session.conf")),
      /model=exo-model\nprovider=exo\n/,
    );
    assert.match(
      read(dir, "0002-assistant.md"),
      /```tool_call id=call_x name=echo_tool\n\{"text":"via exec"\}\n```/,
    );
    const stream = Deno.readTextFileSync(join(dir, ".stream")).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(
      stream[0],
      { type: "text", text: "from-provider" },
      "provider's own event kept",
    );
    assert.equal(stream.at(-1).type, "done");

    // non-JSON output, and a non-zero exit whose stderr becomes the error
    await writeExe(
      join(w.ws, ".harness/providers/garbage"),
      `#!/usr/bin/env bash\n[ "$1" = --ready ] && exit 1\n[ -n "$1" ] && exit 0\ncat >/dev/null; echo "this is not json"\n`,
    );
    await writeExe(
      join(w.ws, ".harness/providers/crash"),
      `#!/usr/bin/env bash\n[ "$1" = --ready ] && exit 1\n[ -n "$1" ] && exit 0\ncat >/dev/null; echo "upstream said no" >&2; exit 3\n`,
    );
    const g = await runHs(["-p", "garbage", "-m", "x", "hi"], { cwd: w.ws, env: w.env });
    assert.equal(g.code, 1);
    assert.match(g.stderr, /provider \S+\/garbage printed 17 bytes that are not a JSON object/);
    const c = await runHs(["-p", "crash", "-m", "x", "hi"], { cwd: w.ws, env: w.env });
    assert.equal(c.code, 1);
    assert.match(c.stderr, /provider \S+\/crash exited 3: upstream said no/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("resolution: --provider/--model over settings.conf over auto-detect; .conf model= as default", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer(
    Array.from({ length: 4 }, (_, i) => ({ text: `answer ${i}` })),
  );
  try {
    const conf = (model: string, extra = "") =>
      `protocol=openai\nurl=${server.url}/v1/chat/completions\nmodel=${model}\n${extra}`;
    await writeFile(
      join(w.ws, ".harness/providers/alpha.conf"),
      conf("alpha-default", "auth_env=ALPHA_KEY\n"),
    );
    await writeFile(join(w.ws, ".harness/providers/beta.conf"), conf("beta-default"));
    const env = { ...w.env, ALPHA_KEY: "alpha-secret-0123456789" };
    const used = async (args: string[], e = env) => {
      const r = await runHs(["--json", ...args, "hi"], { cwd: w.ws, env: e });
      assert.equal(r.code, 0, r.stderr);
      const j = JSON.parse(r.stdout);
      return `${j.provider}/${j.model}/${
        (server.requests.at(-1)!.body as { model: string }).model
      }`;
    };
    // auto-detect: alpha (auth_env set); beta has no auth_env so it is never auto-detected
    assert.equal(await used([]), "alpha/alpha-default/alpha-default");
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=beta\n");
    assert.equal(await used([]), "beta/beta-default/beta-default");
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=beta\nmodel=beta-pinned\n");
    assert.equal(await used([]), "beta/beta-pinned/beta-pinned");
    assert.equal(await used(["--provider", "alpha", "--model", "m-flag"]), "alpha/m-flag/m-flag");
    // without any key nothing is ready: a clear error naming hs auth set
    await Deno.remove(join(w.ws, ".harness/settings.conf"));
    const none = await runHs(["hi"], { cwd: w.ws, env: w.env });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no ready provider found — set HARNESS_PROVIDER or run: hs auth set/);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

/** A provider answering in Anthropic's native shape with the model it was asked for. */
function inlineProvider(name: string, seen: string[]): ModelProvider {
  return {
    name,
    description: "inline test provider",
    protocol: "anthropic",
    ready: () => Promise.resolve({ ready: true, reason: "always" }),
    defaultModel: () => Promise.resolve(""),
    send(_payload: SendPayload, model: string) {
      seen.push(model);
      return Promise.resolve({
        model,
        stop_reason: "end_turn",
        usage: { input_tokens: 1, output_tokens: 1 },
        content: [{ type: "text", text: `answered by ${name}/${model}` }],
      });
    },
  };
}

Deno.test("runtime plugin models: selected by --model, --provider and settings; registration is validated atomically", async () => {
  const w = await makeWorkspace();
  const seen: string[] = [];
  const plugin: RuntimePlugin = {
    id: "inline-models",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.models.register(inlineProvider("inline", seen), [
        { id: "inline-small", contextWindow: 8000 },
        { id: "inline-big" },
      ]);
    },
  };
  const invalid: RuntimePlugin = {
    id: "invalid-models",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.models.register(inlineProvider("first-of-invalid", seen), [{ id: "ok" }]);
      ctx.models.register(inlineProvider("dup", seen), [{ id: "d" }, { id: "d" }]);
    },
  };
  const create = () =>
    Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      runtimePlugins: [{ plugin }, { plugin: invalid, required: false }],
    });
  let h = await create();
  try {
    // the invalid plugin failed as a whole: none of its providers is registered
    assert.equal(
      h.admin.runtimePluginStatus().find((s) => s.id === "invalid-models")?.state,
      "failed",
    );
    const names = (await h.catalog.providers()).map((p) => p.name);
    assert.ok(names.includes("inline"));
    assert.ok(!names.includes("first-of-invalid") && !names.includes("dup"), names.join(","));

    const byModel = await h.run({ message: "hi", model: "inline-big" });
    assert.equal(byModel.error, false, byModel.message);
    assert.equal(byModel.output, "answered by inline/inline-big");
    const byProvider = await h.run({ message: "hi", provider: "inline" });
    assert.equal(byProvider.output, "answered by inline/inline-small", "first model as default");
    await writeFile(join(w.ws, ".harness/settings.conf"), "model=inline-big\n");
    await h.close();
    h = await create();
    const bySettings = await h.run({ message: "hi" });
    assert.equal(bySettings.provider, "inline");
    assert.equal(bySettings.model, "inline-big");
    assert.deepEqual(seen, ["inline-big", "inline-small", "inline-big"]);
  } finally {
    await h.close();
    await w.cleanup();
  }
});

Deno.test("ctx.auth.register: a plugin's auth provider supplies the key of a .conf variant", async () => {
  const w = await makeWorkspace();
  const server: ScriptedServer = await startScriptedServer([{ text: "vaulted answer" }]);
  const VAULT = "vault-key-0123456789-abcdef";
  const plugin: RuntimePlugin = {
    id: "vault",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.auth.register({
        id: "vault",
        resolve: (p) => Promise.resolve(p === "vaulted" ? VAULT : undefined),
      });
    },
  };
  const h = await Harness.create({
    cwd: w.ws,
    env: w.env,
    userPlugins: false,
    runtimePlugins: [{ plugin }],
  });
  try {
    await writeFile(
      join(w.ws, ".harness/providers/vaulted.conf"),
      loopbackConf(server.url, "anthropic", "auth_env=VAULTED_KEY\n"),
    );
    const info = (await h.catalog.providers()).find((p) => p.name === "vaulted")!;
    assert.deepEqual(await info.provider.ready(), { ready: true, reason: 'auth plugin "vault"' });
    const r = await h.run({ message: "hi" });
    assert.equal(r.error, false, r.message);
    assert.equal(r.provider, "vaulted");
    assert.equal(r.output, "vaulted answer");
    assert.equal(server.requests[0].headers["x-api-key"], VAULT);
  } finally {
    await h.close();
    await server.close();
    await w.cleanup();
  }
});
