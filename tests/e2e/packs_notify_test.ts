/**
 * self/notify and subscribe (seed 000 §6) through `deno task hs` and a scripted model. One
 * program reacts to the user message (it is in every boundary record), so each step is one
 * run in the same workspace; each step quotes the sentence it checks.
 */
import assert from "node:assert/strict";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { hsArgs, runHs } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import {
  call,
  events,
  type PackFiles,
  packsWorkspace,
  requestOf,
  runHsInterrupted,
} from "./_packs_kit.ts";

const PROGRAM = `
(define tag (dict-get (configuration) "tag" "main"))
(define/tool 'nt_noop :kind 'tool :description "does nothing" :input (z/object (dict))
  :handler (lambda (i) "nothing"))
(hook/round :id 'notes
  :pre (lambda (r)
         (let ((m (:message r)))
           (cond ((and (equal? m "ambient") (= (:round r) 1))
                  (self/notify 'ambient "context for round one"))
                 ((equal? m "start-only") (self/notify 'activating "left at the start"))
                 ((member m '("delegate" "work")) (self/notify 'ambient (string-append "note of " tag))))))
  :post (lambda (r res)
          (let ((m (:message r)) (n (:round r)))
            (cond ((equal? m "origin") (self/notify "shown to you"))
                  ((equal? m "ambient") (self/notify 'ambient "left at the end"))
                  ((equal? m "empty") (self/notify 'activating "   "))
                  ((and (member m '("activating" "work")) (= n 1))
                   (self/notify 'activating (string-append "one more round for " tag)))
                  ((and (equal? m "both") (= n 1)) (self/notify 'activating "from the first pack"))
                  ((equal? m "cancel") (display (string-append "round end: " (:stop r) "\\n"))
                                       (self/notify 'activating "keep going"))
                  ((and (equal? m "once") (= n 1)) (self/notify 'ambient "use this once")))))
  :post-fail (lambda (r failure)
               (if (equal? (:message r) "cancel")
                   (begin (display (string-append "round end: " (:stop r) "\\n"))
                          (self/notify 'activating "keep going")))))
(hook/turn :id 'turn-end
  :post (lambda (r res)
          (if (equal? (:message r) "turn-end") (self/notify 'activating "after the turn"))))
(subscribe 'trace :events '(turn_start tool_done turn_end)
  :handler (lambda (e) (display (string-append "outbound " (:type e) "\\n"))))
`;

const SECOND = `
(hook/round :id 'second
  :post (lambda (r res)
          (if (and (equal? (:message r) "both") (= (:round r) 1))
              (self/notify 'activating "from the second pack"))))
`;

function pack(name: string, program: string, bots: Record<string, string>): PackFiles {
  const files: Record<string, string> = {
    "plugin.json": JSON.stringify({
      name,
      extensions: { "tools.inhuman": { bots: Object.keys(bots).map((b) => `./${b}.prompt`) } },
    }),
    "program.scm": program,
  };
  for (const [bot, front] of Object.entries(bots)) {
    files[`${bot}.prompt`] = `---\n${front}behavior:\n  program: ./program.scm\n` +
      `  configuration:\n    tag: ${bot}\n---\nBot ${bot}.\n`;
  }
  return { name, files };
}

const script: ScriptedTurn[] = [
  { text: "o" }, // origin
  { text: "a" }, // ambient
  { text: "e" }, // empty activating
  { text: "s" }, // activating at the start
  { text: "a1" }, // activating: round 1
  { text: "a2" }, //             round 2
  { text: "t" }, // turn-end
  call("n1", "nt_noop", {}), // once: round 1
  call("n2", "nt_noop", {}), //       round 2
  { text: "x" }, //                   round 3
  { text: "b1" }, // both: round 1
  { text: "b2" }, //       round 2
  call("d1", "agent", { prompt: "work", bot: "worker" }), // delegate: main round 1
  { text: "w1" }, // worker round 1
  { text: "w2" }, // worker round 2
  { text: "main done" }, // main round 2
  { text: "c1" }, // cancel: round 1
  { text: "slow ".repeat(300), chunkSize: 3, delayMs: 40 }, // round 2, interrupted
];

Deno.test("seed 000 §6: self/notify — origin, ambient, activating; turn end; consumed once; ORed; workers; cancellation; subscribe", async (t) => {
  const w = await packsWorkspace(script, [
    pack("nt", PROGRAM, { main: "attach: foreground\n", worker: "scope: session\n" }),
    pack("nt2", SECOND, { second: "attach: foreground\n" }),
  ]);
  const go = async (message: string, expectRequests: number) => {
    const before = w.server.requests.length;
    const r = await runHs(["--events", message], { cwd: w.w.ws, env: w.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(w.server.requests.length - before, expectRequests, `requests of "${message}"`);
    return { r, first: before };
  };
  try {
    await t.step(
      "'(self/notify message) Origin atom. Unchanged. Does not request another round.'",
      async () => {
        const { r } = await go("origin", 1);
        const notes = events(r.stdout).filter((e) => e.type === "note");
        assert.deepEqual(notes, [{
          type: "note",
          kind: "origin",
          from: "nt/main",
          message: "shown to you",
        }]);
      },
    );
    await t.step(
      "'(self/notify 'ambient message) Context for this boundary. Never continues the loop.'",
      async () => {
        const { first } = await go("ambient", 1);
        assert.match(requestOf(w, first).system, /context for round one/);
        assert.doesNotMatch(requestOf(w, first).system, /left at the end/);
      },
    );
    await t.step(
      "'(self/notify 'activating message) … Requests another round only at round end, and only with a non-empty message.'",
      async () => {
        await go("empty", 1);
        const start = await go("start-only", 1);
        assert.match(requestOf(w, start.first).system, /left at the start/, "context, no round");
        const { first } = await go("activating", 2);
        const second = requestOf(w, first + 1);
        assert.match(second.last, /one more round for main/, "the note closes the next request");
        assert.doesNotMatch(second.system, /one more round/);
      },
    );
    await t.step("'Turn-end activation is rejected.'", async () => {
      await go("turn-end", 1);
      const log = await Deno.readTextFile(w.w.env.HARNESS_LOG);
      assert.match(log, /nt\/main\/turn-end: .*turn-end activation is rejected/);
    });
    await t.step("'Notes are consumed once.' ('subscribe' delivers outbound events)", async () => {
      const { first } = await go("once", 3);
      assert.match(requestOf(w, first + 1).system, /use this once/);
      assert.doesNotMatch(requestOf(w, first + 2).system, /use this once/);
      const log = await Deno.readTextFile(w.w.env.HARNESS_LOG);
      assert.match(
        log,
        /\[pack nt\/main\] outbound turn_start\n(.*\n)*?.*outbound tool_done\n(.*\n)*?.*outbound tool_done\n(.*\n)*?.*outbound turn_end\n/,
      );
      assert.doesNotMatch(log, /outbound round_start/, ":events filters");
    });
    await t.step(
      "'Two plugins share one continuation decision: the host ORs their notes with the existing loopEnd addenda.'",
      async () => {
        const { first } = await go("both", 2);
        const closing = requestOf(w, first + 1).last;
        assert.match(closing, /from the first pack/);
        assert.match(closing, /from the second pack/);
      },
    );
    await t.step(
      "'A worker's note does not continue its parent.' 'Two agents that loaded the same module do not share notes.'",
      async () => {
        const { r, first } = await go("delegate", 4);
        const done = events(r.stdout).find((e) => e.type === "tool_done" && e.id === "d1");
        assert.equal(done.result, "w2", "the worker went on for its own note");
        const main1 = requestOf(w, first);
        const worker1 = requestOf(w, first + 1);
        const worker2 = requestOf(w, first + 2);
        assert.match(main1.system, /note of main/);
        assert.doesNotMatch(main1.system, /note of worker/);
        assert.match(worker1.system, /note of worker/);
        assert.doesNotMatch(worker1.system, /note of main/);
        assert.match(worker2.last, /one more round for worker/);
        assert.doesNotMatch(requestOf(w, first + 3).last, /one more round/);
      },
    );
    await t.step("'Cancellation is not reactivated.'", async () => {
      const before = w.server.requests.length;
      const r = await runHsInterrupted(
        ["cancel"],
        { cwd: w.w.ws, env: w.w.env },
        () => w.server.requests.length >= before + 2,
      );
      assert.equal(r.code, 130, r.stderr);
      await new Promise((res) => setTimeout(res, 300));
      assert.equal(w.server.requests.length - before, 2, "no round after the cancelled one");
      const log = await Deno.readTextFile(w.w.env.HARNESS_LOG);
      assert.match(log, /round end: end\n(.*\n)*?.*round end: cancelled\n/);
    });
  } finally {
    await w.close();
  }
});

Deno.test("'Unused round-end notes expire with the turn.' (two turns in one REPL process; origin notes shown)", async () => {
  const w = await packsWorkspace([{ text: "first answer" }, { text: "second answer" }], [
    pack("nt", PROGRAM, { main: "attach: foreground\n" }),
  ]);
  try {
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "repl"],
      [["› ", "ambient\r"], ["first answer", ""], ["› ", "origin\r"], ["second answer", ""], [
        "› ",
        "/quit\r",
      ]],
      { cwd: w.w.ws, env: { ...w.w.env, TERM: "dumb" } },
    );
    assert.equal(out.exit, 0, out.text);
    assert.equal(w.server.requests.length, 2);
    assert.match(requestOf(w, 0).system, /context for round one/);
    assert.doesNotMatch(requestOf(w, 1).system, /left at the end/, "expired with turn 1");
    assert.match(out.text, /◆ nt\/main: shown to you/);
  } finally {
    await w.close();
  }
});
