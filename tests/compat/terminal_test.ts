/**
 * Items 2 and 6: interactive stages get the terminal hs runs on — an `auth-set` hook that
 * prompts on /dev/tty (the reference's `50-default`) and a `tool_exec` approval gate — on a
 * pseudo-terminal, through `deno task hs`; their stderr is shown. An `auth-set` chain that
 * only passes its input through falls back to hs's own prompt or stdin.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runInPty } from "../support/pty.ts";
import { hsArgs, loopbackWorkspace, makeWorkspace, runHs } from "../support/workspace.ts";
import { install, PASS_THROUGH_AUTH_HOOK, TTY_APPROVAL_HOOK, TTY_AUTH_HOOK } from "./kit.ts";

const auth = (home: string) => JSON.parse(Deno.readTextFileSync(join(home, ".auth.json")));

Deno.test("an auth-set hook prompts on the terminal (pty) and its key is stored", async () => {
  const w = await makeWorkspace();
  try {
    await install(w.home, {
      "hooks.d/auth-set/10-claude-oauth": PASS_THROUGH_AUTH_HOOK,
      "hooks.d/auth-set/50-default": TTY_AUTH_HOOK,
    });
    const r = await runInPty(
      [Deno.execPath(), ...hsArgs(), "auth", "set", "myprov"],
      [["API key for myprov: ", "sk-typed-0123456789\r"]],
      { cwd: w.ws, env: w.env },
    );
    assert.equal(r.exit, 0, r.text);
    assert.match(r.text, /stored a key for myprov/);
    assert.deepEqual(auth(w.home).myprov, [{ type: "api_key", key: "sk-typed-0123456789" }]);
    assert.equal(Deno.statSync(join(w.home, ".auth.json")).mode! & 0o777, 0o600);
  } finally {
    await w.cleanup();
  }
});

Deno.test("auth-set hooks that pass their input through: hs's own stdin key is stored", async () => {
  const w = await makeWorkspace();
  try {
    await install(w.home, { "hooks.d/auth-set/10-claude-oauth": PASS_THROUGH_AUTH_HOOK });
    const r = await runHs(["auth", "set", "groq"], {
      cwd: w.ws,
      env: w.env,
      stdin: "gsk-piped-0123456789\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(auth(w.home).groq, [{ type: "api_key", key: "gsk-piped-0123456789" }]);
    // the provider the hook handles gets the hook's credential (stdin unused)
    const c = await runHs(["auth", "set", "claude"], { cwd: w.ws, env: w.env, stdin: "" });
    assert.equal(c.code, 0, c.stderr);
    assert.equal(auth(w.home).claude[0].access_token, "from-the-login-flow");
    // a chain that prints a record with a type that is not a credential is still an error
    await install(w.home, {
      "hooks.d/auth-set/90-bad":
        `#!/usr/bin/env bash\ncat >/dev/null; echo '{"type":"nonsense"}'\n`,
    });
    const bad = await runHs(["auth", "set", "groq"], { cwd: w.ws, env: w.env, stdin: "k\n" });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /auth-set hooks printed no credential for "groq"/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a tool_exec approval gate asks on the terminal (pty); its stderr is shown", async () => {
  const t = await loopbackWorkspace([
    { text: "Running.", toolCalls: [{ id: "b1", name: "bash", input: { command: "echo ran" } }] },
    { text: "All done." },
  ]);
  try {
    await install(join(t.w.ws, ".harness"), { "hooks.d/tool_exec/05-confirm": TTY_APPROVAL_HOOK });
    const r = await runInPty(
      [Deno.execPath(), ...hsArgs(), "agent", "run", "it"],
      [["run it? [y/N] ", "y\r"]],
      { cwd: t.w.ws, env: t.w.env },
    );
    assert.equal(r.exit, 0, r.text);
    assert.match(r.text, /\[approval required\] bash/);
    assert.match(r.text, /All done\./);
    const last = (t.server.requests[1].body as { messages: { content: unknown }[] }).messages
      .at(-1)!.content as { content: string }[];
    assert.equal(last[0].content.trim(), "ran");
  } finally {
    await t.close();
  }
});
