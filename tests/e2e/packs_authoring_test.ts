/**
 * Authoring a pack (seed 000 §1–§5): every load error names `file:line:col` and says what was
 * expected — unbalanced parentheses, a bad `plugin.json`, a bad frontmatter, `:short-circuit`
 * — state-module load errors are found by `hs packs`, which then exits non-zero, and a guard's
 * or hook's runtime error goes to HARNESS_LOG with its Scheme backtrace and to `hs packs log`.
 * Through `deno task hs` with a scripted model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runHs, writeFile } from "../support/workspace.ts";
import { call, events, type PackFiles, packsWorkspace, results } from "./_packs_kit.ts";

const PLUGIN = JSON.stringify({
  name: "au",
  extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
});

function pack(files: Record<string, string>): PackFiles {
  return {
    name: "au",
    files: {
      "plugin.json": PLUGIN,
      "bots/main.prompt": "---\nattach: foreground\nbehavior:\n  program: ../main.scm\n---\nAu.\n",
      "main.scm": "(define x 1)\n",
      ...files,
    },
  };
}

async function packsListing(p: PackFiles): Promise<{ code: number; out: string }> {
  const t = await packsWorkspace([], [p]);
  try {
    const r = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    return { code: r.code, out: r.stdout + r.stderr };
  } finally {
    await t.close();
  }
}

Deno.test("'A second reducer in the module is a load error' (and JSON.parse, and no reducer): hs packs shows them, rc≠0", async () => {
  const reducer = `(define/reducer :initial (lambda () 0) :reduce (lambda (s a) s))\n`;
  const r = await packsListing({
    name: "st",
    files: {
      "plugin.json": JSON.stringify({
        name: "st",
        extensions: {
          "tools.inhuman": {
            states: { session: "./two.scm", project: "./parse.scm", global: "./none.scm" },
          },
        },
      }),
      "two.scm": reducer + reducer,
      "parse.scm":
        `(define/reducer :initial (lambda () 0)\n  :reduce (lambda (s a) (JSON.parse a)))\n`,
      "none.scm": `(define x 1)\n`,
    },
  });
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /load error .*two\.scm:2:1: define\/reducer: a second reducer/);
  assert.match(r.out, /load error .*parse\.scm:1:1: .*JSON\.parse/);
  assert.match(r.out, /load error .*none\.scm: a state module defines one reducer/);
  const help = await runHsHelp();
  assert.match(help, /exits 1 when a pack has a load\s+error/);
});

async function runHsHelp(): Promise<string> {
  const t = await packsWorkspace([], []);
  try {
    const r = await runHs(["packs", "--help"], { cwd: t.w.ws, env: t.w.env });
    return r.stdout;
  } finally {
    await t.close();
  }
}

Deno.test("unbalanced parentheses: file:line:col of the open list and the ')' expected", async () => {
  const r = await packsListing(
    pack({ "main.scm": "(define x 1)\n\n  (define (f y)\n    (+ y 1)\n" }),
  );
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /main\.scm:3:3: cannot read the program: .*expected '\)'/);
});

Deno.test("a bad plugin.json names its line and column and what was expected", async () => {
  const r = await packsListing(pack({
    "plugin.json": '{\n  "name": "au",\n  "extensions": { "tools.inhuman": { "bots": [] }\n}\n',
  }));
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /plugin\.json:\d+:\d+: not valid JSON: .*expected/i);
  const shape = await packsListing(pack({
    "plugin.json":
      '{\n  "name": "au",\n  "extensions": {\n    "tools.inhuman": { "bots": "x" }\n  }\n}\n',
  }));
  assert.equal(shape.code, 1, shape.out);
  assert.match(
    shape.out,
    /plugin\.json:4:\d+: extensions\["tools\.inhuman"\]\.bots: expected a list/,
  );
});

Deno.test("frontmatter errors name the bot file's line:col and what was expected, never raw schema text", async () => {
  const r = await packsListing(pack({
    "bots/main.prompt": "---\nattach: background\nbehavior:\n  program: ../main.scm\n---\nAu.\n",
  }));
  assert.equal(r.code, 1, r.out);
  assert.match(
    r.out,
    /main\.prompt:2:9: attach: expected "foreground" \(or no attach: a named bot\), got "background"/,
  );
  assert.doesNotMatch(r.out, /undefined scope/);
  const tools = await packsListing(pack({
    "bots/main.prompt":
      "---\nattach: foreground\ntools: read_file\nbehavior:\n  program: ../main.scm\n---\nAu.\n",
  }));
  assert.match(tools.out, /main\.prompt:3:8: tools: expected a list/);
  const key = await packsListing(pack({
    "bots/main.prompt":
      "---\nattach: foreground\nbehavior:\n  program: ../main.scm\n  config: {}\n---\nAu.\n",
  }));
  assert.match(
    key.out,
    /main\.prompt:5:3: behavior\.config: unknown key \(expected one of program, configuration, bindings\)/,
  );
});

Deno.test("':short-circuit' in any form gets 'there is no short-circuit'", async () => {
  for (
    const form of [
      `(guard/shell :short-circuit #t :middleware (lambda (r i) (i r)))`,
      `(guard/shell :capabilities '(replace short-circuit) :contract 'redaction :middleware (lambda (r i) (i r)))`,
      `(hook/shell :short-circuit #t :post (lambda (c r) r))`,
      `(define/tool 'x :kind 'procedure :short-circuit #t :handler (lambda (s) s))`,
    ]
  ) {
    const r = await packsListing(pack({ "main.scm": `(define x 1)\n${form}\n` }));
    assert.match(r.out, /main\.scm:2:1: .*there is no short-circuit/, form);
  }
});

Deno.test("a guard's runtime error goes to HARNESS_LOG with a Scheme backtrace and to hs packs log", async () => {
  const program = `(define (shout s) (string-apend s "!"))
(guard/shell :id 'broken
  :middleware (lambda (raw invoke)
                (shout (:command raw))
                (invoke raw)))
`;
  const t = await packsWorkspace(
    [
      call("b1", "bash", { command: "echo hi" }),
      { text: "done" },
      call("b2", "bash", { command: "echo again" }),
      { text: "done" },
    ],
    [pack({ "main.scm": program })],
  );
  try {
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(results(r.stdout).get("b1")!.result, /refused by guard au\/main\/broken/);
    assert.ok(events(r.stdout).length > 0);
    const log = await Deno.readTextFile(t.w.env.HARNESS_LOG);
    assert.match(
      log,
      /\[pack au\/main\] guard broken \(shell\) failed: .*unbound variable: string-apend/,
    );
    assert.match(log, /\n {2}at shout \(.*main\.scm:4:17\)/, "the Scheme backtrace");
    const listed = await runHs(["packs", "log"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /au\/main guard broken \(shell\) failed: .*string-apend/);
    assert.match(listed.stdout, /at shout/);
    // hooks fail open, but their errors are logged and listed too
    await writeFile(
      join(t.w.ws, ".harness/packs/au/main.scm"),
      `(hook/shell :id 'noisy :post (lambda (command result) (car '())))\n`,
    );
    const again = await runHs(["--events", "again"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(results(again.stdout).get("b2")!.result, /refused/);
    const hooks = await runHs(["packs", "log", "--pack", "au"], { cwd: t.w.ws, env: t.w.env });
    assert.match(hooks.stdout, /au\/main hook noisy \(shell\) :post failed: .*car/);
  } finally {
    await t.close();
  }
});
