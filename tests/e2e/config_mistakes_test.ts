/**
 * Configuration mistakes are named, not ignored: an unknown key in a provider `.conf` or in
 * `settings.conf` is reported with its file, line and the nearest known key (on stderr when a
 * run uses the file, and by `hs doctor`); a provider failure says what to check (nothing
 * listening at `url=`, a wrong path, a server of another protocol).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import {
  hsArgs,
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  sessionsOf,
  writeFile,
} from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

Deno.test("an unknown key in a .conf and in settings.conf is named with file:line and the nearest key", async () => {
  const t = await loopbackWorkspace([{ text: "never sent" }]);
  try {
    const conf = join(t.w.ws, ".harness/providers/loop.conf");
    const text = await Deno.readTextFile(conf);
    await writeFile(conf, text.replace(/^model=.*$/m, "modle=scripted-1"));
    const settings = join(t.w.ws, ".harness/settings.conf");
    await writeFile(settings, "provider=loop\nmdoel=scripted-1\n");
    const line = text.split("\n").findIndex((l) => l.startsWith("model=")) + 1;
    const run = await runHs(["hello"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`${conf}:${line}: unknown key modle= \\(did you mean model=\\?\\)`),
    );
    assert.match(
      run.stderr,
      new RegExp(`${settings}:2: unknown key mdoel= \\(did you mean model=\\?\\)`),
    );
    assert.match(run.stderr, /no model selected/);
    assert.equal(t.server.requests.length, 0);
    const doctor = await runHs(["doctor"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.match(
      doctor.stdout,
      new RegExp(`${conf}:${line}: unknown key modle= \\(did you mean model=\\?\\)`),
    );
    assert.match(doctor.stdout, new RegExp(`${settings}:2: unknown key mdoel=`));
    assert.doesNotMatch(doctor.stdout, /no unknown keys/);
  } finally {
    await t.close();
  }
});

Deno.test("a refused connection says nothing listens at url= and where url= is set", async () => {
  const w = await makeWorkspace();
  try {
    // a port nothing listens on: taken, then released
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    const conf = join(w.ws, ".harness/providers/loop.conf");
    const url = `http://127.0.0.1:${port}/v1/messages`;
    await writeFile(conf, `protocol=anthropic\nurl=${url}\nmodel=m\n`);
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const run = await runHs(["hello"], {
      cwd: w.ws,
      env: { ...w.env, HARNESS_RETRY_BASE_MS: "5" },
    });
    assert.equal(run.code, 1, run.stderr);
    assert.ok(
      run.stderr.includes(
        `nothing listens at ${url} — is the server running? (url= in ${conf}:2)`,
      ),
      run.stderr,
    );
  } finally {
    await w.cleanup();
  }
});

Deno.test("an HTTP 404 says to check the path in url= and protocol=", async () => {
  const t = await loopbackWorkspace([{ text: "never" }]);
  try {
    const conf = join(t.w.ws, ".harness/providers/loop.conf");
    await writeFile(conf, `protocol=anthropic\nurl=${t.server.url}/v2/message\nmodel=m\n`);
    const run = await runHs(["hello"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /HTTP 404/);
    assert.ok(
      run.stderr.includes(
        `check the path in url= (${t.server.url}/v2/message) (url= in ${conf}:2)`,
      ),
      run.stderr,
    );
    assert.match(run.stderr, /protocol=anthropic/);
  } finally {
    await t.close();
  }
});

Deno.test("a body in another protocol says the server does not speak protocol=", async () => {
  const server = await startScriptedServer([{ text: "anthropic answer" }, { text: "again" }]);
  const w = await makeWorkspace();
  try {
    // an Anthropic server behind a .conf that says openai
    const conf = join(w.ws, ".harness/providers/loop.conf");
    await writeFile(conf, `protocol=openai\nurl=${server.url}/v1/messages\nmodel=m\n`);
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const run = await runHs(["hello"], { cwd: w.ws, env: w.env });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    assert.match(run.stderr, /the server does not speak protocol=openai/);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("a first request that reaches no server leaves no session behind", async () => {
  const w = await makeWorkspace();
  try {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    await writeFile(
      join(w.ws, ".harness/providers/loop.conf"),
      `protocol=anthropic\nurl=http://127.0.0.1:${port}/v1/messages\nmodel=m\n`,
    );
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const env = { ...w.env, HARNESS_RETRY_BASE_MS: "5" };
    const before = await runHs(["session", "list"], { cwd: w.ws, env });
    const run = await runHs(["hello"], { cwd: w.ws, env });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /nothing listens at/);
    assert.match(run.stderr, /no session was kept/);
    const after = await runHs(["session", "list"], { cwd: w.ws, env });
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, before.stdout);
    // nothing in this workspace's sessions group (docs/sessions.md "Sessions by workspace")
    const dirs = await Array.fromAsync(Deno.readDir(sessionsOf(w))).catch(() => []);
    assert.deepEqual(dirs.filter((d) => !d.name.startsWith(".")).map((d) => d.name), []);
  } finally {
    await w.cleanup();
  }
});

Deno.test("the REPL names an unknown key of the provider's .conf before the first prompt", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const conf = join(t.w.ws, ".harness/providers/loop.conf");
    await writeFile(conf, (await Deno.readTextFile(conf)) + "max_token=10\n");
    const out = await runInPty([Deno.execPath(), ...hsArgs()], [
      ["unknown key max_token= (did you mean max_tokens=?)", ""],
      ["› ", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    assert.ok(out.text.includes(`${conf}:5: unknown key max_token=`), out.text);
  } finally {
    await t.close();
  }
});
