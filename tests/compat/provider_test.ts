/**
 * Items 5 and 11: executable providers written for the reference get their credentials —
 * the key their `--env` names (from the environment, or stored with `hs auth set`) and
 * `$HARNESS_HOME/.auth-cache.json` (0600, the merged `.auth.json` files) — and the neutral
 * tool schemas they convert themselves. `hs providers` shows the protocol an executable
 * declares, or "unknown" instead of a guess. Tools and hooks still never see a key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { makeWorkspace, runHs, writeExe, writeFile } from "../support/workspace.ts";
import { CACHE_PROVIDER, install, OPENAI_PROVIDER } from "./kit.ts";

const KEY = "sk-exec-provider-0123456789abcdef";
const STORED = "sk-stored-provider-9876543210fedcba";

const DUMP_TOOL = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"dump_env","description":"print the environment","input_schema":{"type":"object"}}' ;;
  --exec) cat >/dev/null; env ;;
esac
`;

Deno.test("an executable provider gets the key its --env names: from the environment, else stored", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([
    { text: "Dumping.", toolCalls: [{ id: "d1", name: "dump_env", input: {} }] },
    { text: "first done" },
    { text: "second done" },
  ]);
  try {
    await install(join(w.ws, ".harness"), {
      "providers/openai": OPENAI_PROVIDER,
      "tools/dump_env": DUMP_TOOL,
    });
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=openai\n");
    const url = `${server.url}/v1/chat/completions`;
    const env = { ...w.env, OPENAI_API_KEY: KEY, OPENAI_API_URL: url };
    const r = await runHs(["--json", "go"], { cwd: w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).output, "first done");
    assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`);
    // it was given neutral schemas and converted them itself
    const tools = (server.requests[0].body as { tools: { function: { name: string } }[] }).tools;
    assert.ok(tools.some((t) => t.function.name === "dump_env"), JSON.stringify(tools));
    assert.ok(tools.some((t) => t.function.name === "read_file"), "the built-in tools too");
    // the tool it ran did not see the key
    const dumped = (server.requests[1].body as { messages: { role: string; content: string }[] })
      .messages.find((m) => m.role === "tool")!.content;
    assert.match(dumped, /^HARNESS_STAGE=tool_exec$/m);
    assert.ok(!dumped.includes(KEY), "the key reached a tool");

    // no variable: the key stored with hs auth set goes into the variable its --env names
    const set = await runHs(["auth", "set", "openai"], { cwd: w.ws, env: w.env, stdin: STORED });
    assert.equal(set.code, 0, set.stderr);
    const s = await runHs(["again"], { cwd: w.ws, env: { ...w.env, OPENAI_API_URL: url } });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.stdout, "second done\n");
    assert.equal(server.requests[2].headers.authorization, `Bearer ${STORED}`);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test(".auth-cache.json: merged auth files (most local wins), 0600, for providers that read it", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([{ text: "from the vault" }]);
  try {
    await install(join(w.ws, ".harness"), { "providers/vault": CACHE_PROVIDER });
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=vault\n");
    const oauth = (t: string) => [{ type: "oauth", access_token: t, refresh_token: "r" }];
    await writeFile(
      join(w.home, ".auth.json"),
      JSON.stringify({ vault: oauth("tok-global-000000000000"), other: oauth("tok-other-1111") }),
      0o600,
    );
    await writeFile(
      join(w.ws, ".harness/.auth.json"),
      JSON.stringify({ vault: oauth("tok-local-2222222222222") }),
      0o600,
    );
    const env = { ...w.env, VAULT_URL: `${server.url}/v1/messages` };
    const r = await runHs(["hello"], { cwd: w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "from the vault\n");
    assert.equal(server.requests[0].headers["x-api-key"], "tok-local-2222222222222");
    const cache = join(w.home, ".auth-cache.json");
    assert.equal(Deno.statSync(cache).mode! & 0o777, 0o600);
    const merged = JSON.parse(Deno.readTextFileSync(cache));
    assert.equal(merged.vault[0].access_token, "tok-local-2222222222222");
    assert.equal(merged.other[0].access_token, "tok-other-1111");
    // hs auth rm keeps an existing cache in step
    const rm = await runHs(["auth", "rm", "other", "0"], { cwd: w.ws, env });
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(JSON.parse(Deno.readTextFileSync(cache)).other, undefined);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("hs providers: an executable's declared protocol, its pack's, or unknown — never a guess", async () => {
  const w = await makeWorkspace();
  try {
    const dflt = (lines: string) =>
      `#!/usr/bin/env bash\ncase "$1" in --defaults) printf '${lines}' ;; --ready) exit 0 ;; esac\n`;
    await writeExe(join(w.ws, ".harness/providers/chatgpt"), dflt("model=gpt-x\\n"));
    await writeExe(join(w.ws, ".harness/providers/myresp"), dflt("protocol=openai-responses\\n"));
    await writeExe(join(w.ws, ".harness/plugins/anthropic/providers/claude"), dflt(""));
    await writeExe(join(w.ws, ".harness/plugins/anthropic/providers/anthropic"), dflt(""));
    const r = await runHs(["providers", "--json"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout).providers as { name: string; protocol: string }[];
    const protocol = (n: string) => rows.find((x) => x.name === n)?.protocol;
    assert.equal(protocol("chatgpt"), "unknown");
    assert.equal(protocol("myresp"), "openai-responses");
    assert.equal(protocol("claude"), "anthropic");
    assert.equal(protocol("anthropic"), "anthropic");
    const one = await runHs(["providers", "chatgpt"], { cwd: w.ws, env: w.env });
    assert.match(one.stdout, /protocol: +unknown \(its --defaults prints no protocol=/);
  } finally {
    await w.cleanup();
  }
});
