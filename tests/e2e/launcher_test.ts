/**
 * The README's own entry, `deno task hs` (the permission-scoped launcher), tried as
 * a new user meets it — issue "Kernel II", Part A. Every test here runs through the
 * launcher; each names the item it reproduces.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import {
  BWRAP_OK,
  hsArgs,
  loopbackConf,
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  sessionsOf,
  writeExe,
  writeFile,
} from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

/** The `tool_done` events of an `--events` run, in order. */
function toolDone(stdout: string): { id: string; error: boolean; result: string }[] {
  return stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
    .filter((e) => e.type === "tool_done");
}

/** What a user must never see: Deno's own permission wording or warnings. */
function assertNoDenoWording(text: string): void {
  assert.doesNotMatch(text, /run again with the --allow|Warning|experimental feature/, text);
  assert.doesNotMatch(text, /error: Uncaught| {4}at file:\/\//, text);
}

Deno.test("A1: after the trust prompt's y, the trusted provider's host is reachable", async () => {
  const w = await makeWorkspace({ trusted: false });
  const server = await startScriptedServer([{ text: "TRUSTED-ANSWER" }]);
  try {
    await writeFile(join(w.ws, ".harness/providers/x.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=x\n");
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "hello"],
      [["Trust and load them? [y/N]", "y\r"], ["TRUSTED-ANSWER", ""]],
      { cwd: w.ws, env: { ...w.env, TERM: "dumb" } },
    );
    assert.equal(out.code, 0, out.text);
    assertNoDenoWording(out.text);
    assert.equal(server.requests.length, 1, "one request, no retries");
    const trust = JSON.parse(await Deno.readTextFile(join(w.home, "trust.json")));
    assert.ok(trust.trusted[w.ws], "the answer is stored");
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("A2: HARNESS_PROVIDER selects a provider whose host the launcher grants", async () => {
  const t = await loopbackWorkspace([{ text: "via-env" }]);
  try {
    await Deno.remove(join(t.w.ws, ".harness/settings.conf"));
    await writeFile(join(t.w.ws, ".harness/providers/other.conf"), loopbackConf(t.server.url));
    await Deno.remove(join(t.w.ws, ".harness/providers/loop.conf"));
    const r = await runHs(["hi"], { cwd: t.w.ws, env: { ...t.w.env, HARNESS_PROVIDER: "other" } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /via-env/);
    assertNoDenoWording(r.stderr);
  } finally {
    await t.close();
  }
});

const GREET = `#!/usr/bin/env bash
case "$1" in
  --describe) echo "says hello"; exit 0 ;;
esac
echo "greet $* stage=$HARNESS_STAGE cwd=$HARNESS_CWD"
exit 3
`;

Deno.test("A3: executable commands run under the launcher, also after leading flags", async () => {
  const w = await makeWorkspace({ trusted: false });
  try {
    await writeExe(join(w.ws, ".harness/commands/greet"), GREET);
    await writeExe(join(w.home, "commands/homecmd"), '#!/bin/sh\necho home-command "$@"\n');
    const a = await runHs(["--trust-workspace", "greet", "a", "b"], { cwd: w.ws, env: w.env });
    assert.equal(a.code, 3, a.stderr);
    assert.equal(a.stdout, `greet a b stage=command cwd=${w.ws}\n`);
    assertNoDenoWording(a.stderr);
    const b = await runHs(["homecmd", "x"], { cwd: w.ws, env: w.env });
    assert.equal(b.code, 0, b.stderr);
    assert.equal(b.stdout, "home-command x\n");
    // untrusted and not asked to trust it: a notice, then the words go to the agent
    const c = await runHs(["greet", "a"], { cwd: w.ws, env: w.env });
    assert.match(c.stderr, /skipping untrusted .*\.harness/);
    assert.doesNotMatch(c.stdout, /greet a/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("A3: a workspace command replaces a built-in of its name (built-ins are lowest)", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(join(w.ws, ".harness/commands/tools"), "#!/bin/sh\necho my-own-tools\n");
    const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "my-own-tools\n");
  } finally {
    await w.cleanup();
  }
});

/** A runtime plugin module written outside the workspace and the harness home. */
function pluginSource(body: string): string {
  return `export default {
  id: "outside",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
${body}
  },
};
`;
}

Deno.test("A3 + A6: plugin commands without any commands/ directory; plugins load in the harness, not the launcher", async () => {
  const w = await makeWorkspace();
  try {
    const dir = join(w.root, "plugin-src");
    const out = join(w.root, "plugin-out");
    await writeFile(
      join(dir, "plugin.ts"),
      pluginSource(`
    ctx.commands.register({
      name: "plug",
      describe: "a plugin command",
      run: (args) => { console.log("plugged " + args.join(" ")); return Promise.resolve(0); },
    });
    ctx.onStart(() => {
      Deno.writeTextFileSync(${JSON.stringify(join(w.home, "plugin-started"))}, "yes");
      Deno.mkdirSync(${JSON.stringify(out)}, { recursive: true });
      Deno.writeTextFileSync(${JSON.stringify(join(out, "x.txt"))}, "declared");
    });`),
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [{
          id: "outside",
          module: join(dir, "plugin.ts"),
          permissions: { write: [out] },
        }],
      }),
    );
    const r = await runHs(["plug", "a", "b"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "plugged a b\n");
    assertNoDenoWording(r.stderr);
    assert.equal(await Deno.readTextFile(join(w.home, "plugin-started")), "yes");
    assert.equal(await Deno.readTextFile(join(out, "x.txt")), "declared");
    const help = await runHs(["help"], { cwd: w.ws, env: w.env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /plug\s+a plugin command/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("A4: --allow-net host:port and --allow-read reach the tools through the launcher", async () => {
  const outside = await Deno.makeTempDir({ prefix: "hs-outside-" });
  await Deno.writeTextFile(join(outside, "far.txt"), "far away\n");
  const pong = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("pong"),
  );
  const port = pong.addr.port;
  const py =
    `import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:${port}/").read().decode())`;
  const script = () => [
    { toolCalls: [{ id: "n1", name: "bash", input: { command: `python3 -c '${py}'` } }] },
    { toolCalls: [{ id: "r1", name: "read_file", input: { path: join(outside, "far.txt") } }] },
    { text: "done" },
  ];
  const run = async (extra: string[]) => {
    const t = await loopbackWorkspace(script());
    try {
      const r = await runHs(["--events", ...extra, "go"], { cwd: t.w.ws, env: t.w.env });
      assert.equal(r.code, 0, r.stderr);
      assertNoDenoWording(r.stderr);
      const done = toolDone(r.stdout);
      return new Map(done.map((d) => [d.id, d]));
    } finally {
      await t.close();
    }
  };
  try {
    const granted = await run(["--allow-net", `127.0.0.1:${port}`, "--allow-read", outside]);
    assert.match(granted.get("n1")!.result, /pong/, granted.get("n1")!.result);
    assert.equal(granted.get("r1")!.error, false, granted.get("r1")!.result);
    assert.match(granted.get("r1")!.result, /far away/);
    const denied = await run([]);
    if (BWRAP_OK) assert.doesNotMatch(denied.get("n1")!.result, /pong/);
    assert.equal(denied.get("r1")!.error, true);
    assert.match(denied.get("r1")!.result, /--allow-read/);
  } finally {
    await pong.shutdown();
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("A5: hs scheme FILE reads a file outside the workspace", async () => {
  const w = await makeWorkspace();
  const outside = await Deno.makeTempDir({ prefix: "hs-scheme-" });
  try {
    await Deno.writeTextFile(join(outside, "x.scm"), "(display (+ 40 2))\n");
    const r = await runHs(["scheme", join(outside, "x.scm")], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "42");
    assertNoDenoWording(r.stderr);
  } finally {
    await Deno.remove(outside, { recursive: true });
    await w.cleanup();
  }
});

Deno.test("A7: hs session list in a fresh HARNESS_HOME", async () => {
  const w = await makeWorkspace();
  try {
    const r = await runHs(["session", "list"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `no sessions in ${sessionsOf(w)}\n`);
    assertNoDenoWording(r.stderr);
  } finally {
    await w.cleanup();
  }
});

Deno.test("A8: a host the run was not given is an hs error with the hs flag, not retried", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([{ text: "never" }]);
  try {
    const dir = join(w.root, "plugin-src");
    await writeFile(
      join(dir, "plugin.ts"),
      pluginSource(`
    ctx.models.register({
      name: "farhost",
      description: "reaches an undeclared host",
      protocol: "anthropic",
      ready: () => Promise.resolve({ ready: true, reason: "always" }),
      defaultModel: () => Promise.resolve("m"),
      send: async () => {
        const r = await fetch(${JSON.stringify(server.url + "/v1/messages")}, { method: "POST" });
        return await r.json();
      },
    });`),
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "outside", module: join(dir, "plugin.ts") }] }),
    );
    const r = await runHs(["-p", "farhost", "hi"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 1, r.stderr);
    const host = new URL(server.url).host;
    assert.match(r.stderr, new RegExp(`may not reach ${host.replace(".", "\\.")}`));
    assert.match(r.stderr, /--allow-net/);
    assert.doesNotMatch(r.stderr, /retrying/);
    assertNoDenoWording(r.stderr);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("A9: timeouts kill hanging tools, hooks and bash commands under the launcher", async () => {
  const hang = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"hang","description":"hangs","input_schema":{"type":"object"}}' ;;
  --describe) echo hangs ;;
  --exec) sleep 600 & sleep 600 ;;
esac
`;
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "h1", name: "hang", input: {} }] },
    { toolCalls: [{ id: "b1", name: "bash", input: { command: "sleep 600", timeout: 1 } }] },
    { text: "survived" },
  ]);
  try {
    await writeExe(join(t.w.ws, ".harness/tools/hang"), hang);
    const started = Date.now();
    const r = await runHs(["--events", "go"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_EXEC_TIMEOUT: "1" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Date.now() - started < 30_000, "the timeouts held");
    const done = toolDone(r.stdout);
    assert.match(done[0].result, /timed out after 1 s/);
    assert.match(done[1].result, /timed out after 1s/);
    assert.match(r.stdout, /survived/);
  } finally {
    await t.close();
  }
  const h = await loopbackWorkspace([{ text: "never reached" }]);
  try {
    await writeExe(join(h.w.ws, ".harness/hooks.d/send/05-hang"), "#!/bin/sh\nsleep 600\n");
    const r = await runHs(["go"], { cwd: h.w.ws, env: { ...h.w.env, HARNESS_HOOK_TIMEOUT: "1" } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out after 1 s during send/);
  } finally {
    await h.close();
  }
});

Deno.test("A9: Ctrl-C on a terminal during a tool cancels it, records it and keeps the session", async () => {
  const slow = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"slow","description":"slow","input_schema":{"type":"object"}}' ;;
  --describe) echo slow ;;
  --exec) echo started > "$HARNESS_CWD/slow-started"; sleep 4; echo finished > "$HARNESS_CWD/slow-finished" ;;
esac
`;
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "s1", name: "slow", input: {} }] },
    { text: "not reached" },
  ]);
  try {
    await writeExe(join(t.w.ws, ".harness/tools/slow"), slow);
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "go"],
      [["slow", ""], ["", "WAIT:1500"], ["", "\x03"], ["session is kept", ""]],
      { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb" } },
    );
    assert.equal(out.exit, 130, out.text);
    await new Promise((r) => setTimeout(r, 4000));
    assert.ok(
      await Deno.stat(join(t.w.ws, "slow-finished")).then(() => false, () => true),
      "the tool was killed, not left to finish",
    );
    const sessions = sessionsOf(t.w);
    const [sid] = [...Deno.readDirSync(sessions)].map((e) => e.name);
    const msgs = [...Deno.readDirSync(join(sessions, sid, "messages"))].map((e) => e.name).sort();
    const last = await Deno.readTextFile(join(sessions, sid, "messages", msgs.at(-1)!));
    assert.match(last, /role: tool_result[\s\S]*error: true[\s\S]*cancel/);
  } finally {
    await t.close();
  }
});

Deno.test("A10: broken plugins.json, trust.json or plugin module: one line and a hint, no stack", async () => {
  const cases: [string, (w: Awaited<ReturnType<typeof makeWorkspace>>) => Promise<void>, RegExp][] =
    [
      [
        "plugins.json",
        (w) => Deno.writeTextFile(join(w.home, "plugins.json"), "{ not json"),
        /plugins\.json is not valid JSON/,
      ],
      [
        "trust.json",
        (w) => Deno.writeTextFile(join(w.home, "trust.json"), "[1,2"),
        /trust file .*trust\.json is not valid/,
      ],
      [
        "module",
        (w) =>
          Deno.writeTextFile(
            join(w.home, "plugins.json"),
            JSON.stringify({ runtimePlugins: [{ id: "gone", module: join(w.root, "nope.ts") }] }),
          ),
        /required runtime plugin "gone" could not load/,
      ],
    ];
  for (const [name, breakIt, message] of cases) {
    const w = await makeWorkspace();
    try {
      await breakIt(w);
      const r = await runHs(["doctor"], { cwd: w.ws, env: w.env });
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      assert.match(r.stderr, message, name);
      assert.match(r.stderr, /^hint: /m, name);
      assertNoDenoWording(r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 2, `${name}: ${r.stderr}`);
    } finally {
      await w.cleanup();
    }
  }
});

Deno.test("settings from HARNESS_* reach the built-in tools (HARNESS_READ_LIMIT, HARNESS_TOOL_TIMEOUT)", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "r", name: "read_file", input: { path: "big.txt" } }] },
    { toolCalls: [{ id: "b", name: "bash", input: { command: "echo before; sleep 30" } }] },
    { text: "ok" },
  ]);
  try {
    const body = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n") + "\n";
    await writeFile(join(t.w.ws, "big.txt"), body);
    const r = await runHs(["--events", "go"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_READ_LIMIT: "50", HARNESS_TOOL_TIMEOUT: "1" },
    });
    assert.equal(r.code, 0, r.stderr);
    const done = toolDone(r.stdout);
    assert.match(done[0].result, /limit: 50/);
    assert.match(done[1].result, /before[\s\S]*timed out after 1s/);
  } finally {
    await t.close();
  }
});

Deno.test("a malformed HARNESS_* setting is an error naming it", async () => {
  const w = await makeWorkspace();
  try {
    const r = await runHs(["tools"], { cwd: w.ws, env: { ...w.env, HARNESS_MAX_TURNS: "lots" } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^hs: HARNESS_MAX_TURNS="lots": must be a positive whole number$/m);
    assert.match(r.stderr, /^hint: fix or unset HARNESS_MAX_TURNS/m);
  } finally {
    await w.cleanup();
  }
});

Deno.test("A9: a hanging --schema is rejected after its time limit, not a hang", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(
      join(w.ws, ".harness/tools/stuck"),
      '#!/bin/sh\n[ "$1" = --schema ] && { sleep 600 & sleep 600; }\necho stuck\n',
    );
    const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /rejected .*stuck: `--schema` timed out after 10 s/);
    assert.match(r.stdout, /^bash /m, "the other tools are still listed");
  } finally {
    await w.cleanup();
  }
});
