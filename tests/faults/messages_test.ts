/**
 * Messages a user must not misread: a broken `.conf` names its line (not
 * "unknown provider"), a call a gate stopped says so (not "interrupted" at the
 * next run), and `--transcript` prints the session once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, loopbackWorkspace, runHs, writeExe, writeFile } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";

Deno.test("a broken .conf is reported with its file and line, not as an unknown provider", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const conf = join(t.w.ws, ".harness/providers/loop.conf");
    const cases: [string, RegExp][] = [
      [
        `protocol=anthropic\nurl ${t.server.url}/v1/messages\n`,
        /hs: provider "loop" cannot be used: \S+loop\.conf:2: expected key=value, found "url http/,
      ],
      [
        "protocol=anthropic\nmodel=x\n",
        /hs: provider "loop" cannot be used: \S+loop\.conf: missing url=/,
      ],
      [
        "protocol=anthropic\nurl=ftp://example.com\n",
        /provider "loop" cannot be used: \S+loop\.conf:2: url= must be an http\(s\) URL/,
      ],
    ];
    for (const [text, re] of cases) {
      await writeFile(conf, text);
      const r = await runHs(["hello"], { cwd: t.w.ws, env: t.w.env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, re);
      assert.doesNotMatch(r.stderr, /unknown provider/);
      assert.match(r.stderr, /hint: fix that line of the \.conf/);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a call stopped by a gate says so in its result, also after the next run", async () => {
  const t = await loopbackWorkspace([
    {
      text: "I will run it.",
      toolCalls: [{ id: "call_g", name: "bash", input: { command: "rm -rf x" } }],
    },
    { text: "resumed fine" },
  ]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/tool_exec/05-gate"),
      "#!/bin/sh\ncat >/dev/null\necho 'denied by the gate' >&2\nexit 1\n",
    );
    const r = await runHs(["clean", "up"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /hook \S+05-gate exited 1 during tool_exec: denied by the gate/);
    const dir = sessionDirOf(t, r);
    const msgs = assertSessionIntact(dir);
    const result = msgs.find((m) => m.role === "tool_result");
    assert.ok(result?.role === "tool_result");
    assert.match(
      result.text,
      /^error: this call was not run: hook \S+05-gate exited 1 during tool_exec: denied by the gate$/,
    );
    const again = await runHs([dir.split("/").pop()!, "fine,", "skip", "it"], {
      cwd: t.w.ws,
      env: t.w.env,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, "resumed fine\n");
    const sent = JSON.stringify(t.server.requests[1].body);
    assert.ok(sent.includes("this call was not run"), sent);
    assert.ok(!sent.includes("interrupted"), "never labelled as interrupted");
  } finally {
    await t.close();
  }
});

Deno.test("--transcript prints the session once", async () => {
  const t = await loopbackWorkspace([
    { text: "a", toolCalls: [{ id: "c1", name: "bash", input: { command: "echo x" } }] },
    { text: "done" },
    { text: "again" },
  ]);
  try {
    const r = await runHs(["--transcript", "hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((r.stderr.match(/session: /g) ?? []).length, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /session: /);
    const pty = await runInPty([Deno.execPath(), ...hsArgs(), "--transcript", "hello"], [], {
      cwd: t.w.ws,
      env: { ...t.w.env, TERM: "xterm" },
    });
    assert.match(pty.text, /EXIT 0/);
    assert.equal((pty.text.match(/session: /g) ?? []).length, 1, pty.text);
  } finally {
    await t.close();
  }
});
