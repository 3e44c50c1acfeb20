/**
 * End-to-end: keys never leak, and `hs auth` stores them safely. A turn whose
 * tool prints its whole environment and whose hooks (one per stage) dump
 * theirs must leave no trace of either key (the `auth_env` variable's value
 * or the key stored with `hs auth set`) in any file, the log, the output or
 * the events.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import {
  BWRAP_OK,
  type CliRun,
  loopbackConf,
  makeWorkspace,
  runHs,
  sessionsOf,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

const STAGES = ["resolve", "start", "assemble", "send", "receive", "tool_exec", "tool_done"];

/** Every regular file under a directory (recursively). */
function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...allFiles(p));
    else if (e.isFile) out.push(p);
  }
  return out;
}

Deno.test("SECRETS: neither the auth_env key nor the stored key appears in any file, output or event", async () => {
  const w = await makeWorkspace();
  const ENV_KEY = "envkey-LOOP-0123456789-abcdefXYZ";
  const STORED_KEY = "storedkey-LOOP-9876543210-zyxwvQ";
  const server = await startScriptedServer([
    { text: "Dumping.", toolCalls: [{ id: "call_env", name: "dump_env", input: {} }] },
    { text: "first turn done" },
    { text: "second turn done" },
  ]);
  try {
    // LOOP_CRED does not look like a secret by name: only auth_env marks it
    await writeFile(
      join(w.ws, ".harness/providers/loop.conf"),
      loopbackConf(server.url, "anthropic", "auth_env=LOOP_CRED\n"),
    );
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    await writeExe(
      join(w.ws, ".harness/tools/dump_env"),
      `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"dump_env","description":"print the environment","input_schema":{"type":"object"}}' ;;
  --exec) cat >/dev/null; env; env >&2 ;;
esac
`,
    );
    const dumps = join(w.ws, "dumps");
    await Deno.mkdir(dumps);
    for (const stage of STAGES) {
      await writeExe(
        join(w.ws, `.harness/hooks.d/${stage}/50-dump-env`),
        `#!/usr/bin/env bash\nenv >> "${dumps}/${stage}.env"\nenv >&2\ncat\n`,
      );
    }
    const runs: CliRun[] = [];
    const set = await runHs(["auth", "set", "loop"], {
      cwd: w.ws,
      env: w.env,
      stdin: STORED_KEY + "\n",
    });
    runs.push(set);
    assert.equal(set.code, 0, set.stderr);
    assert.equal((await Deno.stat(join(w.home, ".auth.json"))).mode! & 0o777, 0o600);

    // turn 1: the key from the auth_env variable (it wins over the stored key)
    const env = { ...w.env, LOOP_CRED: ENV_KEY };
    const r1 = await runHs(["--events", "show", "your", "env"], { cwd: w.ws, env });
    runs.push(r1);
    assert.equal(r1.code, 0, r1.stderr);
    assert.equal(server.requests[0].headers["x-api-key"], ENV_KEY);
    const events = r1.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.type === "tool_done" && e.name === "dump_env"));
    const id = events.find((e) => e.type === "session").id as string;

    // turn 2 (same session): no variable, the stored key is used
    const r2 = await runHs([id, "again"], { cwd: w.ws, env: w.env });
    runs.push(r2);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, "second turn done\n");
    assert.equal(server.requests[2].headers["x-api-key"], STORED_KEY);

    // listings never show the keys either
    runs.push(await runHs(["auth", "list"], { cwd: w.ws, env }));
    runs.push(await runHs(["providers"], { cwd: w.ws, env }));
    runs.push(await runHs(["providers", "--json"], { cwd: w.ws, env }));
    runs.push(await runHs(["session", "show", id], { cwd: w.ws, env }));

    // the dumps really ran, once per stage, and the tool really printed its environment
    for (const stage of STAGES) {
      const text = Deno.readTextFileSync(join(dumps, `${stage}.env`));
      assert.match(text, new RegExp(`^HARNESS_STAGE=${stage}$`, "m"), stage);
      assert.match(text, /^HARNESS_SESSIONS=/m);
    }
    const result = Deno.readTextFileSync(
      join(sessionsOf(w), id, "messages", "0003-tool_result.md"),
    );
    assert.match(result, /^HARNESS_STAGE=tool_exec$/m);
    assert.match(result, /^PATH=/m);
    assert.doesNotMatch(result, /LOOP_CRED/);

    const files = allFiles(w.root).filter((f) => !f.endsWith("/.auth.json"));
    const log = Deno.readTextFileSync(join(w.root, "harness.log"));
    assert.match(log, /^HARNESS_STAGE=tool_exec$/m, "the environments went to the log too");
    assert.ok(files.some((f) => f.includes("/sessions/")), "the session files are checked");
    for (const f of files) {
      const text = new TextDecoder().decode(Deno.readFileSync(f));
      for (const key of [ENV_KEY, STORED_KEY]) {
        assert.ok(!text.includes(key), `a key leaked into ${f}`);
      }
    }
    for (const r of runs) {
      for (const key of [ENV_KEY, STORED_KEY]) {
        assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key), "a key was printed");
      }
    }
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("hs auth set: stdin key, mode 0600, atomic write keeping other entries, --local", async () => {
  const w = await makeWorkspace();
  try {
    const path = join(w.home, ".auth.json");
    await writeFile(
      path,
      JSON.stringify({ other: [{ type: "oauth", access_token: "tok-abcdefghijklmnopqrstuv" }] }),
      0o644,
    );
    const r = await runHs(["auth", "set", "anthropic"], {
      cwd: w.ws,
      env: w.env,
      stdin: "  sk-ant-test-0123456789abcdefWXYZ \n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "stored a key for anthropic in ~/home/.auth.json (mode 0600)\n");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), {
      other: [{ type: "oauth", access_token: "tok-abcdefghijklmnopqrstuv" }],
      anthropic: [{ type: "api_key", key: "sk-ant-test-0123456789abcdefWXYZ" }],
    });
    // atomic: written through a temp file that does not stay behind
    assert.deepEqual(
      [...Deno.readDirSync(w.home)].map((e) => e.name).filter((n) => n.includes(".auth")),
      [".auth.json"],
    );

    // --local from a subdirectory: the nearest project .harness/
    const sub = join(w.ws, "src", "deep");
    await Deno.mkdir(sub, { recursive: true });
    const l = await runHs(["auth", "set", "loop", "--local"], {
      cwd: sub,
      env: w.env,
      stdin: "local-key-0123456789-abcdefgh",
    });
    assert.equal(l.code, 0, l.stderr);
    assert.match(l.stderr, /keep ~\/ws\/\.harness\/\.auth\.json out of version control/);
    assert.match(l.stderr, /no provider "loop" is known here yet/);
    const local = join(w.ws, ".harness", ".auth.json");
    assert.equal((await Deno.stat(local)).mode! & 0o777, 0o600);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(local)), {
      loop: [{ type: "api_key", key: "local-key-0123456789-abcdefgh" }],
    });
    // --local without any project .harness/ above the working directory
    const none = await runHs(["auth", "set", "loop", "--local"], {
      cwd: w.root,
      env: w.env,
      stdin: "k-0123456789",
    });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /--local: no project \.harness\/ directory found/);
    // empty key, bad name
    const empty = await runHs(["auth", "set", "x"], { cwd: w.ws, env: w.env, stdin: "\n" });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /no key given/);
    const bad = await runHs(["auth", "set", "../evil"], { cwd: w.ws, env: w.env, stdin: "k" });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /invalid provider name "\.\.\/evil"/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs auth list is masked; hs auth rm removes one entry; clear errors, contents never echoed", async () => {
  const w = await makeWorkspace();
  try {
    const KEY = "sk-long-key-0123456789-abcdWXYZ";
    const set = (name: string, key: string, local = false) =>
      runHs(["auth", "set", name, ...(local ? ["--local"] : [])], {
        cwd: w.ws,
        env: w.env,
        stdin: key,
      });
    assert.equal((await set("openai", KEY)).code, 0);
    assert.equal((await set("groq", "short")).code, 0);
    assert.equal((await set("loop", "local-key-0123456789-abcd", true)).code, 0);
    const list = await runHs(["auth", "list"], { cwd: w.ws, env: w.env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /~\/home\/\.auth\.json\n\s+groq 0\s+api_key\s+\*\*\*\*\n\s+openai 0\s+api_key\s+sk-l…WXYZ\n/,
    );
    assert.match(list.stdout, /~\/ws\/\.harness\/\.auth\.json\n\s+loop 0\s+api_key\s+loca…abcd\n/);
    assert.ok(!list.stdout.includes(KEY) && !list.stdout.includes("short"));

    const rm = await runHs(["auth", "rm", "openai", "0"], { cwd: w.ws, env: w.env });
    assert.equal(rm.code, 0, rm.stderr);
    assert.equal(rm.stdout, "removed openai 0 from ~/home/.auth.json\n");
    const data = JSON.parse(await Deno.readTextFile(join(w.home, ".auth.json")));
    assert.deepEqual(Object.keys(data), ["groq"]);
    assert.equal((await Deno.stat(join(w.home, ".auth.json"))).mode! & 0o777, 0o600);

    const unknown = await runHs(["auth", "rm", "openai", "0"], { cwd: w.ws, env: w.env });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no credentials stored for "openai" in ~\/home\/\.auth\.json/);
    assert.match(unknown.stderr, /hint: stored there: groq/);
    const index = await runHs(["auth", "rm", "groq", "3"], { cwd: w.ws, env: w.env });
    assert.equal(index.code, 1);
    assert.match(
      index.stderr,
      /no credential groq 3 in ~\/home\/\.auth\.json: groq has 1 \(index 0\)/,
    );
    const nan = await runHs(["auth", "rm", "groq", "first"], { cwd: w.ws, env: w.env });
    assert.equal(nan.code, 1);
    assert.match(nan.stderr, /invalid index "first"/);
    const local = await runHs(["auth", "rm", "loop", "0", "--local"], { cwd: w.ws, env: w.env });
    assert.equal(local.code, 0, local.stderr);

    // a malformed file: a clear error naming the file, never its contents
    const SECRET = "sk-inside-a-broken-file-0123456789";
    await Deno.writeTextFile(join(w.home, ".auth.json"), `{"groq": [{"key": "${SECRET}"`);
    for (const args of [["auth", "list"], ["auth", "set", "groq"], ["auth", "rm", "groq", "0"]]) {
      const r = await runHs(args, { cwd: w.ws, env: w.env, stdin: "new-key-0123456789" });
      assert.equal(r.code, 1, args.join(" "));
      assert.match(r.stderr, /\.auth\.json: malformed auth file \(not valid JSON\)/);
      assert.match(r.stderr, /hint: fix or remove the file/);
      assert.ok(!r.stderr.includes(SECRET) && !r.stdout.includes(SECRET));
    }
    await Deno.writeTextFile(join(w.home, ".auth.json"), `{"groq": [{"type": "api_key"}]}`);
    const shape = await runHs(["auth", "list"], { cwd: w.ws, env: w.env });
    assert.equal(shape.code, 1);
    assert.match(shape.stderr, /malformed auth file \(unexpected shape at groq\.0/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs auth set takes the credential from auth-set hooks when there are any", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(
      join(w.ws, ".harness/hooks.d/auth-set/10-oauth"),
      `#!/usr/bin/env bash
cat >/dev/null
echo "{\\"type\\":\\"oauth\\",\\"access_token\\":\\"at-for-$HARNESS_AUTH_PROVIDER-0123456789\\",\\"refresh_token\\":\\"rt\\",\\"expires_at\\":1767225600}"
`,
    );
    const r = await runHs(["auth", "set", "chatgpt"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /stored an OAuth token for chatgpt/);
    const data = JSON.parse(await Deno.readTextFile(join(w.home, ".auth.json")));
    assert.deepEqual(data.chatgpt, [{
      type: "oauth",
      access_token: "at-for-chatgpt-0123456789",
      refresh_token: "rt",
      expires_at: 1767225600,
    }]);
    const list = await runHs(["auth", "list"], { cwd: w.ws, env: w.env });
    assert.match(list.stdout, /chatgpt 0\s+oauth\s+at-f…6789\s+expires 1767225600/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("auth-set hooks run inside the effect floor's OS sandbox (they could not, before)", async () => {
  const w = await makeWorkspace();
  try {
    const outside = join(w.root, "escaped-by-auth-set");
    await writeExe(
      join(w.ws, ".harness/hooks.d/auth-set/10-escape"),
      `#!/usr/bin/env bash
cat >/dev/null
touch ${outside} 2>/dev/null && where=outside || where=inside
echo "{\\"type\\":\\"api_key\\",\\"key\\":\\"key-from-$where-0123456789\\"}"
`,
    );
    // the direct path holds every permission: only the OS sandbox can stop the hook
    const r = await runHs(["auth", "set", "p"], { cwd: w.ws, env: w.env, direct: true });
    assert.equal(r.code, 0, r.stderr);
    const data = JSON.parse(await Deno.readTextFile(join(w.home, ".auth.json")));
    // (without bubblewrap the test environment runs children unconfined: nothing to check)
    if (!BWRAP_OK) return;
    assert.equal(data.p[0].key, "key-from-inside-0123456789");
    assert.ok(await Deno.stat(outside).then(() => false, () => true), "nothing written outside");
  } finally {
    await w.cleanup();
  }
});
