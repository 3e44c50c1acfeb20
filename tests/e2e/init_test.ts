/**
 * `hs init` through the launcher in a fresh HOME: it writes the provider `.conf` and
 * `settings.conf`, trusts the workspace (the next run uses the `.conf`), sends one check
 * request, refuses to overwrite without `--force`, and says what is missing; `hs doctor
 * --provider` sends the check again and fails with rc 1 when nothing answers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { hsArgs, makeWorkspace, runHs } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

Deno.test("hs init writes, trusts and checks; the next run uses the provider; no overwrite without --force", async () => {
  const w = await makeWorkspace({ trusted: false });
  const server = await startScriptedServer([{ text: "ok" }, { text: "first answer" }, {
    text: "checked again",
  }]);
  try {
    const origin = new URL(server.url).origin;
    const args = ["init", "--protocol", "openai", "--url", `${origin}/v1`, "--model", "m1"];
    const init = await runHs(args, { cwd: w.ws, env: w.env });
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /ok: local answered \(model m1/);
    assert.match(init.stdout, new RegExp(`trusted ${w.ws}`));
    const conf = await Deno.readTextFile(join(w.ws, ".harness/providers/local.conf"));
    assert.match(conf, new RegExp(`^url=${origin}/v1/chat/completions$`, "m"));
    assert.match(conf, /^auth=none$/m);
    assert.equal(
      await Deno.readTextFile(join(w.ws, ".harness/settings.conf")),
      "provider=local\nmodel=m1\n",
    );
    const run = await runHs(["hello"], { cwd: w.ws, env: w.env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "first answer\n");
    assert.equal((server.requests[1].body as { model: string }).model, "m1");
    const again = await runHs(args, { cwd: w.ws, env: w.env });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /local\.conf exists; hs init does not overwrite it/);
    assert.match(again.stderr, /--force/);
    const doctor = await runHs(["doctor", "--provider"], { cwd: w.ws, env: w.env });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.match(doctor.stdout, /ok: local answered/);
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("hs init without a terminal says which flag is missing; a remote URL needs --auth-env or --no-auth", async () => {
  const w = await makeWorkspace({ trusted: false });
  try {
    const bare = await runHs(["init"], { cwd: w.ws, env: w.env });
    assert.equal(bare.code, 2, bare.stderr);
    assert.match(bare.stderr, /hs init needs --url when stdin is not a terminal/);
    const remote = await runHs(
      ["init", "--protocol", "openai", "--url", "https://example.invalid", "--model", "m"],
      { cwd: w.ws, env: w.env },
    );
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(remote.stderr, /--auth-env VAR \(or --no-auth\)/);
    const bad = await runHs(["init", "--protocol", "opanai", "--url", "http://127.0.0.1:9"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown protocol "opanai"/);
    assert.equal((await Array.fromAsync(Deno.readDir(join(w.ws, ".harness")))).length, 0);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs doctor --provider fails with rc 1 and what to check when nothing answers", async () => {
  const w = await makeWorkspace({ trusted: false });
  try {
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    const init = await runHs(
      ["init", "--protocol", "openai", "--url", `http://127.0.0.1:${port}`, "--model", "m"],
      { cwd: w.ws, env: { ...w.env, HARNESS_RETRY_BASE_MS: "5" } },
    );
    assert.equal(init.code, 1, init.stdout + init.stderr);
    assert.match(
      init.stdout,
      /nothing listens at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/,
    );
    const doctor = await runHs(["doctor", "--provider", "local"], {
      cwd: w.ws,
      env: { ...w.env, HARNESS_RETRY_BASE_MS: "5" },
    });
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /is the server running\? \(url= in .*local\.conf:3\)/);
    assert.match(doctor.stderr, /hint: start the server/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs init on a terminal asks for protocol, URL and model; hs doctor --provider checks it", async () => {
  const w = await makeWorkspace({ trusted: false });
  // two answers: init's own check (where the process may reach the URL) and hs doctor's
  const server = await startScriptedServer([{ text: "ok" }, { text: "ok" }]);
  try {
    const origin = new URL(server.url).origin;
    const r = await runInPty([Deno.execPath(), ...hsArgs(), "init"], [
      ["protocol (openai, anthropic, openai-responses) [openai]: ", "\r"],
      ["URL of the server: ", `${origin}\r`],
      ["model: ", "m2\r"],
    ], { cwd: w.ws, env: w.env });
    assert.equal(r.exit, 0, r.text);
    assert.match(r.text, /trusted /);
    // a URL typed in was not in the launch grant (the bundle's too): the check is left to
    // hs doctor --provider
    assert.match(r.text, /check it: hs doctor --provider local/);
    const conf = await Deno.readTextFile(join(w.ws, ".harness/providers/local.conf"));
    assert.match(conf, /^protocol=openai$/m);
    assert.match(conf, /^model=m2$/m);
    const doctor = await runHs(["doctor", "--provider"], { cwd: w.ws, env: w.env });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.match(doctor.stdout, /ok: local answered \(model m2/);
  } finally {
    await server.close();
    await w.cleanup();
  }
});
