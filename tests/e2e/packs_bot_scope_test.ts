/**
 * Named bots (seed 000 §2, §3, §5) through `deno task hs` with a scripted model: a named bot's
 * `scope` (session, project, global) names where its one instance lives — whose state its
 * program's own reducer (`call/method 'self`) is — and `validate/configuration` is a pure
 * predicate.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { call, results } from "./_packs_kit.ts";
import { hsArgs, loopbackWorkspace, runHs, writeFile } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

/** A bot program whose `count` tool bumps the program's own state and answers the count. */
const COUNTER = `
(define/reducer
  :initial (lambda () (dict :n 0))
  :reduce (lambda (s a) (dict-set s :n (+ 1 (:n s)))))
(define/method 'bump :kind 'command :input (z/object (dict)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "bump")) (+ 1 (:n s))))
(define/tool 'count :kind 'tool :description "count a call" :input (z/object (dict))
  :handler (lambda (i) (number->string (call/method 'self 'bump (dict)))))
`;

function bot(scope: string | undefined, program = "../counter.scm", extra = ""): string {
  return `---\ntools: [count]\n${
    scope ? `scope: ${scope}\n` : ""
  }behavior:\n  program: ${program}\n` +
    `${extra}---\nA counter.\n`;
}

/** The `counters` pack in `$HARNESS_HOME/packs/` (every project sees it). */
async function writeCounters(home: string): Promise<void> {
  const root = join(home, "packs/counters");
  const bots = ["sess", "proj", "glob"];
  await writeFile(
    join(root, "plugin.json"),
    JSON.stringify({
      name: "counters",
      extensions: { "tools.inhuman": { bots: bots.map((b) => `./bots/${b}.prompt`) } },
    }),
  );
  await writeFile(join(root, "counter.scm"), COUNTER);
  await writeFile(join(root, "bots/sess.prompt"), bot(undefined));
  await writeFile(join(root, "bots/proj.prompt"), bot("project"));
  await writeFile(join(root, "bots/glob.prompt"), bot("global"));
}

Deno.test("'scope is session (default), project, or global, and names where one instance lives' — whose state a named bot sees", async () => {
  const runs = 8;
  const script = Array.from({ length: runs }, (_, i) => [
    call(`c${i}`, "count", {}),
    { text: "done" },
  ]).flat();
  const t = await loopbackWorkspace(script);
  try {
    await writeCounters(t.w.home);
    // a second project, on the same server and home
    const other = join(t.w.root, "other");
    for (const f of ["providers/loop.conf", "settings.conf"]) {
      await writeFile(
        join(other, ".harness", f),
        await Deno.readTextFile(join(t.w.ws, ".harness", f)),
      );
    }
    let n = 0;
    const count = async (name: string, cwd = t.w.ws): Promise<string> => {
      const r = await runHs(["--events", "--bot", name, "count"], { cwd, env: t.w.env });
      assert.equal(r.code, 0, r.stderr);
      const got = results(r.stdout).get(`c${n++}`);
      assert.equal(got?.error, false, got?.result);
      return got!.result;
    };
    // session (the default): each session has its own instance
    assert.equal(await count("sess"), "1");
    assert.equal(await count("sess"), "1", "a second session does not see the first's");
    // project: one instance for every session of the project, not another project's
    assert.equal(await count("proj"), "1");
    assert.equal(await count("proj"), "2", "the same project's second session shares it");
    assert.equal(await count("proj", other), "1", "two projects do not share it");
    // global: one instance across projects
    assert.equal(await count("glob"), "1");
    assert.equal(await count("glob", other), "2", "another project shares the global one");
    assert.equal(await count("sess", other), "1");
    // where they live: the scope's logs (seed 000 §5)
    const state = join(t.w.home, "plugin-state");
    const names = [...Deno.readDirSync(state)].map((e) => e.name).sort();
    assert.deepEqual(names, ["counters+glob", "counters+proj"]);
    assert.equal([...Deno.readDirSync(join(state, "counters+proj/project"))].length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("'validate/configuration — a pure predicate over configuration': an effectful primitive in it keeps the bot from attaching", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const root = join(t.w.ws, ".harness/packs/pure");
    const bots = ["loud", "caller", "notifier", "fine"];
    await writeFile(
      join(root, "plugin.json"),
      JSON.stringify({
        name: "pure",
        extensions: { "tools.inhuman": { bots: bots.map((b) => `./${b}.prompt`) } },
      }),
    );
    const predicates: Record<string, string> = {
      loud: `(lambda (c) (display "checking") #t)`,
      caller: `(lambda (c) (call/method 'self 'bump (dict)) #t)`,
      notifier: `(lambda (c) (self/notify "checked") #t)`,
      fine: `(lambda (c) (dict-has? c "limit"))`,
    };
    for (const b of bots) {
      await writeFile(
        join(root, `${b}.scm`),
        `${COUNTER}\n(validate/configuration ${predicates[b]})\n`,
      );
      await writeFile(
        join(root, `${b}.prompt`),
        bot(undefined, `./${b}.scm`, "  configuration:\n    limit: 3\n"),
      );
    }
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    // a bot that does not attach is a load error: `hs packs` says so by its exit code
    assert.equal(list.code, 1, list.stderr);
    const line = (name: string) =>
      list.stdout.split("\n").find((l) => l.includes(`bot ${name} `)) ?? "";
    const lines = list.stdout;
    assert.match(
      lines,
      /loud\.scm:\d+:\d+: validate\/configuration failed \(a failing predicate blocks activation, like #f\): validate\/configuration is pure: no I\/O/,
    );
    assert.match(
      lines,
      /caller\.scm:\d+:\d+: validate\/configuration failed \(a failing predicate blocks activation, like #f\): validate\/configuration is pure: no call\/method/,
    );
    assert.match(
      lines,
      /notifier\.scm:\d+:\d+: validate\/configuration failed \(a failing predicate blocks activation, like #f\): validate\/configuration is pure: no self\/notify/,
    );
    assert.match(line("fine"), /: ready|: attached/, list.stdout);
  } finally {
    await t.close();
  }
});

/** A program with a top-level variable (its instance's) and its own reducer (its state). */
const VISITS = `${COUNTER}
(define visits 0)
(define/tool 'visit :kind 'tool :description "visit" :input (z/object (dict))
  :handler (lambda (i)
             (set! visits (+ visits 1))
             (string-append "instance " (number->string visits)
                            " state " (number->string (call/method 'self 'bump (dict))))))
`;

Deno.test("a session-scope bot has one instance per conversation session in one process (the REPL's /new)", async () => {
  const child = (id: string) => [call(id, "visit", {}), { text: `child ${id} done` }];
  const t = await loopbackWorkspace([
    call("a1", "agent", { prompt: "visit", bot: "sess" }),
    ...child("v1"),
    call("a2", "agent", { prompt: "visit", bot: "sess" }),
    ...child("v2"),
    { text: "first session done" },
    call("a3", "agent", { prompt: "visit", bot: "sess" }),
    ...child("v3"),
    { text: "second session done" },
  ]);
  try {
    const root = join(t.w.ws, ".harness/packs/visits");
    await writeFile(
      join(root, "plugin.json"),
      JSON.stringify({
        name: "visits",
        extensions: { "tools.inhuman": { bots: ["./sess.prompt"] } },
      }),
    );
    await writeFile(join(root, "visits.scm"), VISITS);
    await writeFile(
      join(root, "sess.prompt"),
      "---\ntools: [visit]\nbehavior:\n  program: ./visits.scm\n---\nA visitor.\n",
    );
    const out = await runInPty([Deno.execPath(), ...hsArgs(), "repl"], [
      ["›", "one\r"],
      ["first session done", ""],
      ["›", "/new\r"],
      ["new session", ""],
      ["›", "two\r"],
      ["second session done", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    // what each child's visit answered, as the model got it
    const perRequest = t.server.requests.map((r) =>
      [...JSON.stringify(r.body).matchAll(/instance \d+ state \d+/g)].map((m) => m[0]).at(-1)
    );
    assert.deepEqual(
      perRequest.filter((x, i) => x !== undefined && x !== perRequest[i - 1]),
      ["instance 1 state 1", "instance 2 state 2", "instance 1 state 1"],
      out.text,
    );
  } finally {
    await t.close();
  }
});
