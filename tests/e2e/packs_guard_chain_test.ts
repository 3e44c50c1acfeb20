/**
 * The guard chain of a bot (seed 000 §4) when guards nest, through `deno task hs` with a
 * scripted model: `guard/retry` restarts the whole chain from the raw value wherever the
 * retrying guard sits, under the finite budget; the floor's denial behind a Scheme guard
 * reaches the model as the floor's own refusal, with its reason and hint.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { call, packsWorkspace, results } from "./_packs_kit.ts";
import { runHs, writeFile } from "../support/workspace.ts";

/** A foreground bot whose two read guards nest: `outer` around `flaky`. */
function chainPack(program: string) {
  return {
    name: "chain",
    files: {
      "plugin.json": JSON.stringify({
        name: "chain",
        extensions: { "tools.inhuman": { bots: ["./bot.prompt"] } },
      }),
      "bot.prompt": "---\nattach: foreground\nbehavior:\n  program: ./chain.scm\n---\nChain bot.\n",
      "chain.scm": program,
    },
  };
}

const NESTED = `
(define tries 0)
(guard/read :id 'outer :match "**"
  :middleware (lambda (raw invoke)
                (display (string-append "outer saw " (:path raw) "\\n"))
                (invoke raw)))
(guard/read :id 'flaky :match "**"
  :middleware (lambda (raw invoke)
                (set! tries (+ tries 1))
                (display (string-append "flaky try " (number->string tries) " " (:path raw) "\\n"))
                (cond ((equal? (:path raw) "never.txt") (guard/retry "never settles"))
                      ((equal? tries 1) (guard/retry "first try is rejected"))
                      (else (invoke raw)))))
`;

Deno.test("'guard/retry restarts the chain from the raw value under a finite budget' — nested inside another guard", async () => {
  const t = await packsWorkspace([
    call("r1", "read_file", { path: "a.txt" }),
    call("r2", "read_file", { path: "never.txt" }),
    { text: "done" },
  ], [chainPack(NESTED)]);
  try {
    await writeFile(join(t.w.ws, "a.txt"), "the content of a\n");
    await writeFile(join(t.w.ws, "never.txt"), "never read\n");
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const done = results(r.stdout);
    // the retried call ran: the model got the file
    assert.equal(done.get("r1")?.error, false, done.get("r1")?.result);
    assert.match(done.get("r1")!.result, /the content of a/);
    // the budget ends as a refusal naming the retrying guard
    assert.equal(
      done.get("r2")?.result,
      "error: refused by guard chain/bot/flaky: retry budget of 3 exhausted (never settles)",
    );
    const log = await Deno.readTextFile(t.w.env.HARNESS_LOG);
    const lines = log.split("\n").filter((l) => /\] (outer saw|flaky try)/.test(l))
      .map((l) => l.replace(/^.*\] /, ""));
    assert.deepEqual(lines, [
      // the whole chain again, from the raw value: the outer guard is entered again
      "outer saw a.txt",
      "flaky try 1 a.txt",
      "outer saw a.txt",
      "flaky try 2 a.txt",
      // one attempt and three retries
      ...[3, 4, 5, 6].flatMap((n) => ["outer saw never.txt", `flaky try ${n} never.txt`]),
    ]);
  } finally {
    await t.close();
  }
});

const PASS_THROUGH = `
(guard/read :id 'pass :match (list "**" "/**")
  :middleware (lambda (raw invoke) (invoke raw)))
`;

Deno.test("'The chain is guards, then the floor, then the core': the floor's denial behind a guard keeps its reason and hint", async () => {
  const elsewhere = await Deno.makeTempDir({ prefix: "hs-outside-" });
  const outside = join(elsewhere, "outside.txt");
  await writeFile(outside, "outside the workspace\n");
  const t = await packsWorkspace(
    [call("r1", "read_file", { path: outside }), { text: "done" }],
    [chainPack(PASS_THROUGH)],
  );
  try {
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const got = results(r.stdout).get("r1");
    assert.ok(got?.error, "refused");
    assert.match(got!.result, /^error: permission denied for read_file: .*outside\.txt/);
    assert.match(got!.result, /--allow-read /);
    assert.doesNotMatch(got!.result, /refused by guard|guards fail closed/);
  } finally {
    await t.close();
    await Deno.remove(elsewhere, { recursive: true });
  }
});
