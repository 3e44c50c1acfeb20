/**
 * A broken foreground pack fails closed (seed 000 §2 "configuration … validated by
 * validate/configuration before the agent works", §3 "#f blocks activation"): a parse error or
 * a `validate/configuration` that returns #f stops the run with the reason (file:line:col) and
 * a non-zero answer — headless, in the REPL, in `hs acp` and in `hs web` — and no tool runs.
 * Through `deno task hs` with a scripted model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { type LoopbackWorkspace, runHs } from "../support/workspace.ts";
import { startHsWeb } from "../support/web.ts";
import { type PackFiles, packsWorkspace } from "./_packs_kit.ts";
import { editor, initialize } from "./_acp_kit.ts";

/** A pack `fc` whose foreground bot runs `program` (with `front` added to its behavior). */
function foregroundPack(program: string, front = ""): PackFiles {
  return {
    name: "fc",
    files: {
      "plugin.json": JSON.stringify({
        name: "fc",
        extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
      }),
      "bots/main.prompt":
        `---\nattach: foreground\nbehavior:\n  program: ../main.scm\n${front}---\nFail-closed bot.\n`,
      "main.scm": program,
    },
  };
}

/** The list opened on line 2 is never closed. */
const UNBALANCED = `(guard/shell :id 'g :middleware (lambda (raw invoke) (invoke raw)))
(define/tool 'x :kind 'procedure
  :handler (lambda (s) s)
`;

/** A predicate that rejects the bot's configuration (it has no "required"). */
const REJECTING = `(define (ok? c) (dict-has? c "required"))
(validate/configuration ok?)
`;

/** The scripted model writes a file first: if the run went on, out.txt would exist. */
const WRITE = [
  { toolCalls: [{ id: "w", name: "write_file", input: { path: "out.txt", content: "ran\n" } }] },
  { text: "done" },
];

function assertNothingRan(t: LoopbackWorkspace): void {
  assert.equal(t.server.requests.length, 0, "no model request was made");
  assert.throws(() => Deno.statSync(join(t.w.ws, "out.txt")), "no tool ran");
}

Deno.test("a parse error in the foreground bot's program stops a headless run: rc≠0, file:line:col, no tool", async () => {
  const t = await packsWorkspace(WRITE, [foregroundPack(UNBALANCED)]);
  try {
    const r = await runHs(["write", "out.txt"], { cwd: t.w.ws, env: t.w.env });
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /fc\/main/);
    assert.match(r.stderr, /main\.scm:2:1: .*expected '\)'/);
    assertNothingRan(t);
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(list.code, 1, list.stdout);
    assert.match(list.stdout, /bot main \(foreground\) main\.scm: not attached\n.*main\.scm:2:1/);
    assert.match(list.stdout, /the main agent does not run: a foreground pack did not load/);
    const agent = await runHs(["agent", "write", "out.txt"], { cwd: t.w.ws, env: t.w.env });
    assert.notEqual(agent.code, 0, agent.stdout);
    assert.match(agent.stderr, /main\.scm:2:1/);
    assertNothingRan(t);
  } finally {
    await t.close();
  }
});

Deno.test("'#f blocks activation': validate/configuration returning #f stops the run with its file:line", async () => {
  const t = await packsWorkspace(WRITE, [foregroundPack(REJECTING)]);
  try {
    const r = await runHs(["write", "out.txt"], { cwd: t.w.ws, env: t.w.env });
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /main\.scm:2:1: validate\/configuration returned #f/);
    assert.match(r.stderr, /bots\/main\.prompt/, "it names where the configuration is");
    assertNothingRan(t);
    // the opt-out the message names lets the agent run without the pack
    await Deno.writeTextFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({ plugins: { fc: { foreground: false } } }),
    );
    const off = await runHs(["write", "out.txt"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(off.code, 0, off.stderr);
    assert.equal(Deno.readTextFileSync(join(t.w.ws, "out.txt")), "ran\n");
  } finally {
    await t.close();
  }
});

Deno.test("the REPL does not start on a broken foreground pack: the reason and rc≠0", async () => {
  const t = await packsWorkspace(WRITE, [foregroundPack(UNBALANCED)]);
  try {
    const r = await runHs(["repl"], { cwd: t.w.ws, env: t.w.env, stdin: "write out.txt\n" });
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /main\.scm:2:1/);
    assertNothingRan(t);
  } finally {
    await t.close();
  }
});

Deno.test("hs acp: session/prompt on a broken foreground pack answers an error naming file:line:col", async () => {
  const t = await packsWorkspace(WRITE, [foregroundPack(REJECTING)]);
  try {
    await editor(t, () => "reject", async (ctx) => {
      await initialize(ctx);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      const err = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write out.txt" }],
      }).then(() => undefined, (e) => e);
      assert.ok(err, "the prompt was refused");
      assert.match(JSON.stringify(err) + String(err?.message), /main\.scm:2:1/);
    });
    assertNothingRan(t);
  } finally {
    await t.close();
  }
});

Deno.test("hs web: starting a turn on a broken foreground pack answers an error naming file:line:col", async () => {
  const t = await packsWorkspace(WRITE, [foregroundPack(UNBALANCED)]);
  const web = await startHsWeb([], { cwd: t.w.ws, env: t.w.env });
  try {
    const res = await fetch(`${web.origin}/new`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${web.token}`,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ message: "write out.txt" }),
    });
    assert.ok(res.status >= 400, `answered ${res.status}`);
    const body = await res.json();
    assert.match(body.error, /main\.scm:2:1/);
    assertNothingRan(t);
  } finally {
    await web.stop();
    await t.close();
  }
});

Deno.test("a foreground pack whose state module does not load (a second reducer) stops the run at load, not at the first call/method", async () => {
  const reducer = `(define/reducer :initial (lambda () 0) :reduce (lambda (s a) s))\n`;
  const p = foregroundPack(`(define x 1)\n`);
  p.files["plugin.json"] = JSON.stringify({
    name: "fc",
    extensions: {
      "tools.inhuman": { bots: ["./bots/main.prompt"], states: { session: "./state.scm" } },
    },
  });
  p.files["state.scm"] = reducer + reducer;
  const t = await packsWorkspace(WRITE, [p]);
  try {
    const r = await runHs(["write", "out.txt"], { cwd: t.w.ws, env: t.w.env });
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /the behavior pack fc did not load/);
    assert.match(r.stderr, /state\.scm:2:1: define\/reducer: a second reducer/);
    assertNothingRan(t);
  } finally {
    await t.close();
  }
});
