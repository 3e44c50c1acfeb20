/**
 * Guard consent through the real CLI (seed 000 §7, issue 27 point 1): an approval belongs to
 * one pack, bot and guard id, and covers everything the guard's handler can reach in the pack
 * — the procedures it calls, transitively, in the entry file and in the files it requires —
 * with the declaration's point, matchers, capability and contract. Each test checks what a
 * guard without consent did not do (the command that ran, what reached the model).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readAll, write } from "../../scheme/mod.ts";
import { sha256Hex } from "../../core/base/sha256.ts";
import {
  BWRAP_OK,
  hsArgs,
  type LoopbackWorkspace,
  loopbackWorkspace,
  runHs,
} from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import { events, type PackFiles, writePack } from "./_packs_kit.ts";

/** A pack whose foreground bot runs `main.scm` (and any other files given). */
function pack(name: string, files: Record<string, string>): PackFiles {
  return {
    name,
    files: {
      "plugin.json": JSON.stringify({
        name,
        version: "1.0.0",
        extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
      }),
      "bots/main.prompt": "---\nattach: foreground\nbehavior:\n  program: ../main.scm\n---\nBot.\n",
      ...files,
    },
  };
}

/** A guard that appends `(suffix)` to every shell command before it runs. */
const TAGGER = `(guard/shell :id 'tagger
  :middleware (lambda (raw invoke)
                (invoke (dict-set raw :command (string-append (:command raw) (suffix))))))
`;

const echo = (id: string) => ({ toolCalls: [{ id, name: "bash", input: { command: "echo x" } }] });

async function workspace(packs: PackFiles[], turns = 0): Promise<LoopbackWorkspace> {
  const script = [];
  for (let i = 0; i < turns; i++) script.push(echo(`b${i}`), { text: "done" });
  const t = await loopbackWorkspace(script);
  for (const p of packs) await writePack(join(t.w.ws, ".harness/packs"), p);
  return t;
}

const hs = (t: LoopbackWorkspace, ...args: string[]) => runHs(args, { cwd: t.w.ws, env: t.w.env });

/** Runs one headless turn (`echo x` through bash); what the command printed and its stderr. */
async function echoTurn(t: LoopbackWorkspace): Promise<{ output: string; stderr: string }> {
  const r = await hs(t, "--events", "go");
  assert.equal(r.code, 0, r.stderr);
  const done = events(r.stdout).find((e) => e.type === "tool_done");
  assert.ok(done, r.stdout);
  return { output: String(done.result).trim(), stderr: r.stderr };
}

/**
 * Runs one headless turn while `pack`'s guards wait: nobody can be asked, so the unapproved
 * foreground guard is a load error — the run is refused before any model request or tool.
 */
async function refusedTurn(t: LoopbackWorkspace, pack: string): Promise<void> {
  const before = t.server.requests.length;
  const r = await hs(t, "--events", "go");
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`the behavior pack ${pack}/main did not load.*its guards wait for approval`),
  );
  assert.match(r.stderr, new RegExp(`hs packs approve ${pack}`));
  assert.equal(t.server.requests.length, before, "no request reached the model");
  assert.equal(events(r.stdout).filter((e) => e.type === "tool_done").length, 0, "no tool ran");
}

/** The pack listing's line for the bot of `name`, and its waiting guards. */
async function status(t: LoopbackWorkspace, name: string): Promise<string> {
  const r = await hs(t, "packs");
  assert.equal(r.code, 0, r.stderr);
  const at = r.stdout.indexOf(`${name} 1.0.0`);
  assert.ok(at >= 0, r.stdout);
  const rest = r.stdout.slice(at);
  const next = rest.slice(1).search(/\n\S/);
  return next < 0 ? rest : rest.slice(0, next + 1);
}

async function edit(
  t: LoopbackWorkspace,
  packName: string,
  file: string,
  from: string,
  to: string,
) {
  const path = join(t.w.ws, ".harness/packs", packName, file);
  const text = await Deno.readTextFile(path);
  assert.ok(text.includes(from), `${file} contains ${from}`);
  await Deno.writeTextFile(path, text.replace(from, to));
}

Deno.test("consent is not borrowed: a byte-identical guard of another pack asks, and rewrites nothing until approved", async () => {
  const program = `(define (suffix) " +guarded")\n${TAGGER}`;
  const t = await workspace([
    pack("alpha", { "main.scm": program }),
    pack("beta", { "main.scm": program }),
  ], 1);
  try {
    const ok = await hs(t, "packs", "approve", "alpha");
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /approved alpha\/main tagger \(shell/);
    assert.match(await status(t, "alpha"), /bot main .*: attached/);
    const beta = await status(t, "beta");
    assert.match(beta, /bot main .*: awaiting approval/);
    assert.match(beta, /waiting: guard tagger \(shell\)/);
    // headless, beta's borrowed-looking guard is not approved: the run is refused
    await refusedTurn(t, "beta");
    // opted out by the user, beta is absent: only alpha's approved guard rewrites
    await Deno.writeTextFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({ plugins: { beta: { foreground: false } } }),
    );
    const run = await echoTurn(t);
    assert.equal(run.output, "x +guarded", "only the approved pack's guard rewrote the command");
    const body = JSON.stringify(t.server.requests[1].body);
    assert.match(body, /x \+guarded/);
    assert.doesNotMatch(body, /\+guarded \+guarded/, "beta's guard did not run");
  } finally {
    await t.close();
  }
});

Deno.test("on a terminal, the byte-identical guard of the other pack is put to the user; declined, it rewrites nothing", async () => {
  const program = `(define (suffix) " +guarded")\n${TAGGER}`;
  const t = await workspace([
    pack("alpha", { "main.scm": program }),
    pack("beta", { "main.scm": program }),
  ], 1);
  try {
    assert.equal((await hs(t, "packs", "approve", "alpha")).code, 0);
    const floor = BWRAP_OK ? [] : ["--unsandboxed"];
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "--transcript", ...floor, "go"],
      [["Approve them? [y/N]", "n\r"], ["done", ""]],
      { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", NO_COLOR: "1" } },
    );
    assert.equal(out.code, 0, out.text);
    assert.match(
      out.text,
      /Behavior pack beta\/main declares guards that run on every matching call/,
    );
    assert.match(out.text, /tagger \(shell\) at .*main\.scm:\d+:\d+/);
    assert.doesNotMatch(out.text, /Behavior pack alpha\/main/, "the approved pack does not ask");
    const body = JSON.stringify(t.server.requests[1].body);
    assert.match(body, /x \+guarded/);
    assert.doesNotMatch(body, /\+guarded \+guarded/, "beta's guard did not run");
  } finally {
    await t.close();
  }
});

Deno.test("consent covers what the guard reaches: a helper it calls transitively, a required file — not an unrelated procedure", async () => {
  const main = `(require "lib.scm")
(define (marker) "+guarded")
(define (suffix) (string-append " " (marker) (lib-mark)))
(define (unrelated x) (string-append x "!"))
${TAGGER}`;
  const lib = `(define (lib-mark) "")\n(define (lib-unused) 1)\n`;
  const t = await workspace([pack("tags", { "main.scm": main, "lib.scm": lib })], 3);
  try {
    assert.equal((await hs(t, "packs", "approve")).code, 0);
    assert.match(await status(t, "tags"), /bot main .*: attached/);

    // a helper two calls away
    await edit(t, "tags", "main.scm", `"+guarded"`, `"+changed"`);
    let s = await status(t, "tags");
    assert.match(s, /bot main .*: awaiting approval/);
    assert.match(s, /waiting: guard tagger \(shell\)/);
    await refusedTurn(t, "tags"); // the edited helper does not run without consent
    assert.equal((await hs(t, "packs", "approve")).code, 0);
    assert.equal((await echoTurn(t)).output, "x +changed");

    // a helper of a required file
    await edit(t, "tags", "lib.scm", `(lib-mark) ""`, `(lib-mark) "!lib"`);
    s = await status(t, "tags");
    assert.match(s, /bot main .*: awaiting approval/);
    await refusedTurn(t, "tags"); // nor the edited required file
    assert.equal((await hs(t, "packs", "approve")).code, 0);
    assert.equal((await echoTurn(t)).output, "x +changed!lib");

    // what the guard cannot reach does not ask again
    await edit(t, "tags", "main.scm", `(string-append x "!")`, `(string-append x "?")`);
    await edit(t, "tags", "lib.scm", "(lib-unused) 1", "(lib-unused) 2");
    assert.match(await status(t, "tags"), /bot main .*: attached/);
  } finally {
    await t.close();
  }
});

Deno.test("changing the declaration's point, matchers, capability or contract asks again, also through a definition", async () => {
  const main = `(define guarded "echo *")
(define (suffix) " +guarded")
(guard/shell :id 'tagger :match guarded
  :middleware (lambda (raw invoke)
                (invoke (dict-set raw :command (string-append (:command raw) (suffix))))))
(guard/shell :id 'scrub :capabilities 'replace :contract 'redaction
  :middleware (lambda (raw invoke) (invoke raw)))
`;
  const t = await workspace([pack("decl", { "main.scm": main })]);
  try {
    const asks = async (what: string, from: string, to: string, guard: string) => {
      assert.equal((await hs(t, "packs", "approve")).code, 0);
      assert.match(await status(t, "decl"), /bot main .*: attached/, what);
      await edit(t, "decl", "main.scm", from, to);
      const s = await status(t, "decl");
      assert.match(s, /bot main .*: awaiting approval/, what);
      assert.match(s, new RegExp(`waiting: guard ${guard} \\(`), what);
    };
    await asks("matchers", `"echo *"`, `"echo x*"`, "tagger");
    await asks("contract", "'redaction", "'summarize", "scrub");
    await asks("capability", ":capabilities 'replace :contract 'summarize", "", "scrub");
    await asks("point", "(guard/shell :id 'tagger", "(guard/mcp :id 'tagger", "tagger");
  } finally {
    await t.close();
  }
});

Deno.test("an approval of the old format (keyed by the guard's hash alone) does not grant: the guard asks once", async () => {
  const source = `(define (suffix) " +guarded")\n${TAGGER}`;
  const t = await workspace([pack("old", { "main.scm": source })], 1);
  try {
    // what an earlier hs recorded for this guard: its top-level form's hash, nothing else
    const form = readAll(source).find((f) => write(f).startsWith("(guard/shell"));
    const oldHash = sha256Hex(JSON.stringify({
      id: "tagger",
      point: "shell",
      match: [],
      capabilities: [],
      contract: null,
      source: write(form),
    }));
    const file = join(t.w.home, "guard-approvals.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        version: 1,
        approved: { [oldHash]: { pack: "old", bot: "main", guard: "tagger", at: "earlier" } },
      }),
    );
    assert.match(await status(t, "old"), /bot main .*: awaiting approval/);
    await refusedTurn(t, "old"); // an old-format approval grants nothing
    assert.equal((await hs(t, "packs", "approve")).code, 0);
    assert.match(await status(t, "old"), /bot main .*: attached/);
    assert.equal(JSON.parse(await Deno.readTextFile(file)).version, 2);
  } finally {
    await t.close();
  }
});
