/**
 * `hs packs test` through the real CLI (issue 27 point 7): a pack's guards, hooks and methods
 * run against a test script (the scripted provider's format with `expect`) or a session
 * directory as a cassette, in a throwaway HARNESS_HOME and workspace copy; per tool call it
 * prints each guard's decision; a failed expectation or a failing guard exits 1; a bad script
 * names the file and what was expected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type PackFiles, writePack } from "./_packs_kit.ts";
import { loopbackWorkspace, makeWorkspace, REPO, runHs, writeFile } from "../support/workspace.ts";

/** A foreground bot with a refusing guard, a rewriting guard, a hook and a committing tool. */
const GATE = `
(guard/shell :id 'no-force :match "git push*"
  :middleware (lambda (raw invoke)
    (if (string-contains (:command raw) "--force") (refuse "never force-push") (invoke raw))))
(guard/shell :id 'quiet-ls :match "ls*"
  :middleware (lambda (raw invoke) (invoke (dict-set raw :command "echo rewritten"))))
(guard/write :id 'no-env :match "**/.env"
  :middleware (lambda (raw invoke) (refuse "no .env files")))
(guard/write :id 'peek :match "made.txt"
  :middleware (lambda (raw invoke) (call/method 'notes 'items (dict)) (invoke raw)))
(guard/turn :id 'topic :match "*password*"
  :middleware (lambda (record invoke) (refuse "this bot does not discuss passwords")))
(hook/shell :id 'count :post (lambda (command result) (display "saw a shell call\\n")))
(define/tool 'jot :kind 'tool :description "jot a note" :input (z/object (dict :text z/string))
  :handler (lambda (input) (call/method 'notes 'add (dict :text (:text input)))))
`;

const NOTES = `
(define/reducer :initial (lambda () (dict :items (vector)))
  :reduce (lambda (s a) (dict-set s :items (vector-append (:items s) (vector (:text a))))))
(define/method 'items :kind 'query :input (z/object (dict)) :output z/any
  :handler (lambda (i s) (:items s)))
(define/method 'add :kind 'command :input (z/object (dict :text z/string)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "add" :text (:text i)))
                         (+ 1 (vector-length (:items s)))))
`;

function gatePack(program = GATE): PackFiles {
  return {
    name: "gate",
    files: {
      "plugin.json": JSON.stringify({
        name: "gate",
        version: "1.0.0",
        extensions: {
          "tools.inhuman": { bots: ["./bots/main.prompt"], states: { session: "./notes.scm" } },
        },
      }),
      "notes.scm": NOTES,
      "bots/main.prompt": "---\nattach: foreground\nbehavior:\n  program: ../gate.scm\n" +
        "  bindings:\n    notes: { plugin: gate, scope: session, methods: [add, items] }\n---\nGate.\n",
      "gate.scm": program,
    },
  };
}

const bash = (id: string, command: string) => ({
  toolCalls: [{ id, name: "bash", input: { command } }],
});

const SCRIPT = {
  message: "tidy up",
  turns: [
    bash("c1", "git push --force origin main"),
    bash("c2", "ls -la"),
    { toolCalls: [{ id: "c3", name: "write_file", input: { path: "sub/.env", content: "K=1" } }] },
    { toolCalls: [{ id: "c4", name: "write_file", input: { path: "made.txt", content: "x" } }] },
    { toolCalls: [{ id: "c5", name: "jot", input: { text: "first" } }] },
    { text: "done" },
  ],
  expect: [
    { call: 1, outcome: "refused", guard: "no-force", reason: "never force-push" },
    { call: "c2", outcome: "rewritten", input: { command: "echo rewritten" }, result: "rewritten" },
    { call: 2, hooks: ["count"] },
    { call: 3, tool: "write_file", outcome: "refused", guard: "no-env" },
    { call: 4, outcome: "allowed" },
  ],
};

async function gateWorkspace(program?: string) {
  const w = await makeWorkspace();
  await writePack(join(w.ws, ".harness/packs"), gatePack(program));
  await writeFile(join(w.ws, "README.md"), "fixture\n");
  return w;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch { /* absent */ }
  return out.sort();
}

Deno.test("hs packs test: each guard's decision per call, hooks and methods; the user's workspace, sessions and approvals untouched", async () => {
  const w = await gateWorkspace();
  try {
    await writeFile(join(w.ws, "t.json"), JSON.stringify(SCRIPT));
    const tmp = join(w.root, "tmp");
    await Deno.mkdir(tmp);
    const env = { ...w.env, TMPDIR: tmp };
    const r = await runHs(["packs", "test", "gate", "--script", "t.json"], { cwd: w.ws, env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = r.stdout;
    assert.match(out, /call 1 bash \{"command":"git push --force origin main"\}/);
    assert.match(out, /guard gate\/main\/no-force: refuse — never force-push/);
    assert.match(out, /call 2 bash \{"command":"ls -la"\}/);
    assert.match(out, /guard gate\/main\/quiet-ls: rewrite → \{"command":"echo rewritten"\}/);
    assert.match(out, /hook gate\/main\/count: post/);
    assert.match(out, /result rewritten: rewritten/);
    assert.match(out, /guard gate\/main\/no-env: refuse — no \.env files/);
    assert.match(
      out,
      /call 5 jot \{"text":"first"\}[^\n]*\n(?: {2}[^\n]*\n)* {2}methods: notes\.add\n {2}state: gate session revision 1 \(add\)/,
    );
    assert.match(out, /\[pack gate\/main\] saw a shell call/);
    assert.match(
      out,
      /5 tool call\(s\), \d+ guard decision\(s\), 5\/5 expectation\(s\) held: passed/,
    );
    // the throwaway copy took the write; the workspace, its sessions and approvals did not
    assert.deepEqual(await listing(w.ws), [".harness", "README.md", "t.json"]);
    assert.deepEqual(await listing(join(w.home, "sessions")), []);
    assert.deepEqual(await listing(tmp), [], "the throwaway directory is removed");
    assert.doesNotMatch(r.stderr, /wait for approval/, "no consent question for the user's bots");
    assert.ok(!(await listing(w.home)).includes("guard-approvals.json"), "no approval stored");

    const j = await runHs(["packs", "test", "gate", "--script", "t.json", "--json", "--keep"], {
      cwd: w.ws,
      env,
    });
    assert.equal(j.code, 0, j.stderr);
    const report = JSON.parse(j.stdout);
    assert.equal(report.passed, true);
    const calls = report.steps.filter((s: { kind: string }) => s.kind === "call");
    assert.deepEqual(calls[1].guards, [{
      guard: "gate/main/quiet-ls",
      decision: "rewrite",
      value: { command: "echo rewritten" },
    }]);
    assert.deepEqual(calls[3].methods, ["notes.items"], "a query a guard made");
    assert.deepEqual(calls[3].guards.map((d: { guard: string }) => d.guard), ["gate/main/peek"]);
    assert.deepEqual(calls[4].methods, ["notes.add"]);
    assert.deepEqual(calls[4].commits, ["gate session revision 1 (add)"]);
    // --keep: the copy took call 4's write
    assert.equal(await Deno.readTextFile(join(report.kept, "ws/made.txt")), "x");
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test: an expectation that does not hold exits 1 and says what was seen", async () => {
  const w = await gateWorkspace();
  try {
    const script = {
      turns: [bash("c1", "ls"), bash("c2", "git push origin main")],
      expect: [
        { call: 1, outcome: "refused", guard: "quiet-ls" },
        { call: 2, input: { command: "git push --force" } },
        { call: 7, outcome: "allowed" },
      ],
    };
    await writeFile(join(w.ws, "t.json"), JSON.stringify(script));
    const r = await runHs(["packs", "test", "gate", "--script", "t.json"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /FAIL call 1: .*\n\s+expected refused, it was rewritten/);
    assert.match(
      r.stdout,
      /FAIL call 2: .*\n\s+expected the input \{"command":"git push --force"\}, the floor got \{"command":"git push origin main"\}/,
    );
    assert.match(
      r.stdout,
      /FAIL call 7: .*\n\s+call 7 was never made \(the test made 2 tool call\(s\)\)/,
    );
    assert.match(r.stdout, /0\/3 expectation\(s\) held: FAILED/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test: a turn guard's refusal is a step of its own, and an expectation on the turn", async () => {
  const w = await gateWorkspace();
  try {
    const script = {
      message: "what is the password?",
      turns: [bash("c1", "ls")],
      expect: [{ turn: 1, outcome: "refused", guard: "topic", reason: "passwords" }],
    };
    await writeFile(join(w.ws, "t.json"), JSON.stringify(script));
    const r = await runHs(["packs", "test", "gate", "--script", "t.json"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /turn \{[^\n]*"message":"what is the password\?"[^\n]*\n {2}guard gate\/main\/topic: refuse — this bot does not discuss passwords/,
    );
    assert.match(r.stdout, /turn 1: 1 recorded answer\(s\) were not asked for/);
    assert.match(r.stdout, /ok {3}turn 1: /);
    assert.match(
      r.stdout,
      /0 tool call\(s\), 1 guard decision\(s\), 1\/1 expectation\(s\) held: passed/,
    );
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test --workspace copies a fixture; --bot runs a named bot under its ceiling; an unknown pack is named", async () => {
  const w = await gateWorkspace();
  try {
    await writeFile(
      join(w.ws, ".harness/packs/gate/bots/helper.prompt"),
      "---\ntools: [read_file]\n---\nHelper.\n",
    );
    const manifest = JSON.parse(gatePack().files["plugin.json"]);
    manifest.extensions["tools.inhuman"].bots.push("./bots/helper.prompt");
    await writeFile(join(w.ws, ".harness/packs/gate/plugin.json"), JSON.stringify(manifest));
    await writeFile(join(w.root, "fixture/f.txt"), "from the fixture\n");
    const script = {
      turns: [
        { toolCalls: [{ id: "r", name: "read_file", input: { path: "f.txt" } }] },
        bash("b", "ls"),
      ],
      expect: [
        { call: 1, outcome: "allowed", result: "from the fixture" },
        { call: 2, outcome: "refused" },
      ],
    };
    await writeFile(join(w.ws, "t.json"), JSON.stringify(script));
    const r = await runHs(
      [
        "packs",
        "test",
        "gate",
        "--bot",
        "helper",
        "--workspace",
        "../fixture",
        "--script",
        "t.json",
      ],
      { cwd: w.ws, env: w.env },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /pack gate, bot helper/);
    assert.match(r.stdout, /2\/2 expectation\(s\) held: passed/);
    const none = await runHs(["packs", "test", "nope", "--script", "t.json"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /no pack named nope/);
    assert.match(none.stderr, /packs found: gate/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test: a failing guard fails closed and fails the test", async () => {
  const broken = `(guard/shell :id 'broken :match "*"
  :middleware (lambda (raw invoke) (vector-ref (vector) 3)))`;
  const w = await gateWorkspace(broken);
  try {
    await writeFile(join(w.ws, "t.json"), JSON.stringify([bash("c1", "echo hi")]));
    const r = await runHs(["packs", "test", "gate", "--script", "t.json"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /guard gate\/main\/broken: ERROR — .* \(fails closed\)/);
    assert.match(r.stdout, /1 guard error\(s\): FAILED/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test --session: a recorded session replays as a cassette", async () => {
  const t = await loopbackWorkspace([
    bash("r1", "git push --force origin main"),
    bash("r2", "ls"),
    { text: "recorded" },
  ]);
  try {
    const rec = await runHs(["--events", "push it"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(rec.code, 0, rec.stderr);
    const id = rec.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.type === "session").id;
    await writePack(join(t.w.ws, ".harness/packs"), gatePack());
    await writeFile(
      join(t.w.ws, "expect.json"),
      JSON.stringify([{ call: "r1", outcome: "refused" }, { call: 2, outcome: "rewritten" }]),
    );
    const before = await listing(join(t.w.home, "sessions"));
    const r = await runHs(
      ["packs", "test", "gate", "--session", id, "--expect", "expect.json"],
      { cwd: t.w.ws, env: t.w.env },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /call 1 bash \{"command":"git push --force origin main"\} {2}r1/);
    assert.match(r.stdout, /guard gate\/main\/no-force: refuse — never force-push/);
    assert.match(r.stdout, /guard gate\/main\/quiet-ls: rewrite/);
    assert.match(r.stdout, /2\/2 expectation\(s\) held: passed/);
    assert.deepEqual(await listing(join(t.w.home, "sessions")), before, "no session written");
  } finally {
    await t.close();
  }
});

Deno.test("hs packs test: a bad script names the file and what was expected", async () => {
  const w = await gateWorkspace();
  try {
    await writeFile(join(w.ws, "bad.json"), JSON.stringify({ turns: [{ toolCalls: [{}] }] }));
    const r = await runHs(["packs", "test", "gate", "--script", "bad.json"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /bad\.json: invalid test script at turns\.0\.toolCalls\.0\.name/);
    assert.match(r.stderr, /expected a JSON array of model turns or an object like/);
    const none = await runHs(["packs", "test", "gate"], { cwd: w.ws, env: w.env });
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /needs the model's turns: --script <file> or --session <dir\|id>/);
    const help = await runHs(["packs", "test", "--help"], { cwd: w.ws, env: w.env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /hs packs test reviewer --script/);
    assert.match(help.stdout, /"expect": \[\{"call": 1, "outcome": "refused"/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs packs test: the reviewer example's test script passes (examples/packs/reviewer/tests)", async () => {
  const w = await makeWorkspace();
  try {
    const script = join(REPO, "examples/packs/reviewer/tests/force_push.json");
    await copyDir(join(REPO, "examples/packs/reviewer"), join(w.home, "packs/reviewer"));
    const r = await runHs(["packs", "test", "reviewer", "--script", script], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /guard reviewer\/reviewer\/redact-secrets: allow \(result replaced: redaction\)/,
    );
    assert.match(r.stdout, /4\/4 expectation\(s\) held: passed/);
  } finally {
    await w.cleanup();
  }
});
