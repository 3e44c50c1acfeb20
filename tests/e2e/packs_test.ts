/**
 * Behavior packs through the real CLI (`deno task hs`) and a scripted model, with the example
 * pack of the repository (examples/packs/reviewer): consent, the foreground bot's guards,
 * hooks, tools, prompt and effect ceiling, a named bot, and what an untrusted workspace does.
 * Each test quotes the seed 000 sentence it checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  BWRAP_OK,
  hsArgs,
  loopbackWorkspace,
  plainBody,
  REPO,
  runHs,
} from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function withReviewer(script: ScriptedTurn[], opts: { trusted?: boolean } = {}) {
  const t = await loopbackWorkspace([...script, { text: "done" }], opts);
  await copyDir(join(REPO, "examples/packs/reviewer"), join(t.w.ws, ".harness/packs/reviewer"));
  await Deno.writeTextFile(join(t.w.ws, "config.txt"), "token=sk-live123 backup ghp_abc\n");
  return t;
}

function events(stdout: string) {
  return stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

const bashCall = (id: string, command: string): ScriptedTurn => ({
  toolCalls: [{ id, name: "bash", input: { command } }],
});

Deno.test("'Every new or changed hash prompts … An unapproved guard is a load error.' (consent before attaching)", async () => {
  const t = await withReviewer([bashCall("b1", "cat config.txt")]);
  try {
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /bot reviewer \(foreground\) behaviors\/reviewer\.scm: awaiting approval/,
    );
    assert.match(list.stdout, /waiting: guard redact-secrets \(shell\) at .*reviewer\.scm:\d+:\d+/);
    assert.match(
      list.stdout,
      /bot auditor \(named, session scope\) behaviors\/auditor\.scm: awaiting approval/,
    );
    // headless, nobody can be asked: the unapproved foreground guard is a load error, and the
    // main agent does not run as if the pack were absent (it would have sent sk-live123 on)
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /pack reviewer\/reviewer is not attached: 2 guard\(s\) wait for approval/,
    );
    assert.match(
      r.stderr,
      /the behavior pack reviewer\/reviewer did not load, so the agent does not run without it .*its guards wait for approval \(an unapproved guard is a load error\): redact-secrets \(shell\) at .*reviewer\.scm:\d+:\d+/,
    );
    assert.match(r.stderr, /hs packs approve reviewer/);
    assert.equal(t.server.requests.length, 0, "no request reached the model");
    assert.doesNotMatch(r.stdout, /sk-live123/);
  } finally {
    await t.close();
  }
});

Deno.test("the foreground bot's guard redacts shell output ('A guard … :capabilities 'replace :contract 'redaction')", async () => {
  const t = await withReviewer([
    bashCall("b1", "cat config.txt"),
    bashCall("b2", "git push --force origin main"),
    { toolCalls: [{ id: "n1", name: "review_note", input: { finding: "no secrets in code" } }] },
  ]);
  try {
    const ok = await runHs(["packs", "approve"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /approved reviewer\/reviewer redact-secrets \(shell/);
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const done = new Map(
      events(r.stdout).filter((e) => e.type === "tool_done").map((e) => [e.id, e]),
    );
    if (BWRAP_OK) {
      assert.equal(done.get("b1").result, "token=[redacted] backup [redacted]");
    }
    assert.equal(
      done.get("b2").result,
      "error: refused by guard reviewer/reviewer/no-force-push: the reviewer never force-pushes",
    );
    assert.equal(done.get("n1").result, "noted: no secrets in code");
    // the bot's prompt and its effect ceiling shape the request
    const first = plainBody<{ system: string; tools: { name: string }[] }>(
      t.server.requests[0].body,
    );
    assert.match(first.system, /You are reviewing this workspace/);
    assert.deepEqual(
      first.tools.map((x) => x.name).sort(),
      ["bash", "read_file", "review_note", "skill"],
      "'The bot's tools list is its effect ceiling'",
    );
    // the hook (fail open, observing) wrote to the log through display
    const log = await Deno.readTextFile(t.w.env.HARNESS_LOG);
    assert.match(log, /\[pack reviewer\/reviewer\] shell call 1: cat config\.txt/);
  } finally {
    await t.close();
  }
});

Deno.test("'Every new or changed hash prompts, … including a source-only change.'", async () => {
  const t = await withReviewer([]);
  try {
    await runHs(["packs", "approve"], { cwd: t.w.ws, env: t.w.env });
    const attached = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.match(attached.stdout, /bot reviewer .*: attached/);
    const file = join(t.w.ws, ".harness/packs/reviewer/behaviors/reviewer.scm");
    const src = await Deno.readTextFile(file);
    await Deno.writeTextFile(file, src.replace("the reviewer never force-pushes", "no force"));
    const changed = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.match(changed.stdout, /bot reviewer .*: awaiting approval/);
    assert.match(changed.stdout, /waiting: guard no-force-push/);
    assert.doesNotMatch(
      changed.stdout,
      /waiting: guard redact-secrets/,
      "unchanged hashes do not prompt",
    );
  } finally {
    await t.close();
  }
});

Deno.test("a named bot runs with its own behavior and ceiling ('A child bot selects its own behavior.')", async () => {
  const t = await withReviewer([
    { toolCalls: [{ id: "r1", name: "read_file", input: { path: ".env" } }] },
    { toolCalls: [{ id: "r2", name: "bash", input: { command: "ls" } }] },
  ]);
  try {
    await Deno.writeTextFile(join(t.w.ws, ".env"), "A=1\n");
    await runHs(["packs", "approve", "reviewer", "auditor"], { cwd: t.w.ws, env: t.w.env });
    const r = await runHs(["--events", "--bot", "auditor", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const done = new Map(
      events(r.stdout).filter((e) => e.type === "tool_done").map((e) => [e.id, e]),
    );
    assert.match(done.get("r1").result, /refused by guard reviewer\/auditor\/sources-only/);
    assert.equal(done.get("r2").result, "error: tool 'bash' not found", "outside its ceiling");
    const first = plainBody<{ system: string; tools: { name: string }[] }>(
      t.server.requests[0].body,
    );
    assert.deepEqual(first.tools.map((x) => x.name), ["read_file"]);
    assert.match(first.system, /You audit one file at a time/);
    assert.doesNotMatch(
      first.system,
      /You are reviewing this workspace/,
      "not the foreground bot's",
    );
    const missing = await runHs(["--bot", "nobody", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^hs: no bot named "nobody"/m);
  } finally {
    await t.close();
  }
});

Deno.test("an untrusted workspace's packs do not load", async () => {
  const t = await withReviewer([], { trusted: false });
  try {
    const list = await runHs(["packs"], { cwd: t.w.ws, env: { ...t.w.env } });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^no packs/m);
  } finally {
    await t.close();
  }
});

Deno.test("trusting the workspace at the prompt loads its packs in the same run, then asks for their guards", async () => {
  const t = await withReviewer([bashCall("b1", "cat config.txt")], { trusted: false });
  try {
    const floor = BWRAP_OK ? [] : ["--unsandboxed"];
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "--transcript", ...floor, "read the config"],
      [["Trust and load them? [y/N]", "y\r"], ["Approve them? [y/N]", "y\r"], ["done", ""]],
      { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", NO_COLOR: "1" } },
    );
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /Behavior pack reviewer\/reviewer declares guards/);
    assert.match(out.text, /token=\[redacted\]/, out.text);
    assert.doesNotMatch(out.text, /sk-live123/);
  } finally {
    await t.close();
  }
});

Deno.test("the pack demo (`deno task demo:packs`) runs offline: consent, a redacted read, a refused force-push, the pack's tool", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "demo:packs"],
    cwd: REPO,
    env: { HS_DEMO_FAST: "1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(stdout, /waiting: guard redact-secrets \(shell\)/);
  assert.match(stdout, /approved reviewer\/reviewer no-force-push/);
  assert.match(
    stdout,
    /● bash cat config\.txt\n\s+✓ api_key=\[redacted\] backup_token=\[redacted\]/,
  );
  assert.doesNotMatch(stdout, /sk-live-4f9a2c|ghp_77Xq/);
  assert.match(stdout, /✗ error: refused by guard reviewer\/reviewer\/no-force-push/);
  assert.match(stdout, /✓ noted: config\.txt holds a live API key/);
  assert.match(stdout, /\[pack reviewer\/reviewer\] shell call 1: cat config\.txt/);
});
