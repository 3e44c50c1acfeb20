/**
 * Turns started from the browser (WebRuns) with a fake `run`: the floor's
 * question reaches the session whose turn asks (two at once stay apart),
 * answers come back, a cancelled turn's question is denied, one turn per
 * session, a turn that cannot start says why, close() ends everything.
 */
import assert from "node:assert/strict";
import type { Answer, RunOptions, RunResult } from "../../../core/mod.ts";
import { HarnessError } from "../../../core/mod.ts";
import { WebRuns } from "../../../cli/web/runs.ts";

function result(session: string, o: Partial<RunResult> = {}): RunResult {
  return {
    output: "",
    error: false,
    sessionId: session,
    sessionDir: `/x/${session}`,
    provider: "p",
    model: "m",
    usage: { input_tokens: 0, output_tokens: 0 },
    cancelled: false,
    ...o,
  };
}

/** A fake harness run: names its session, asks the floor once, returns what it heard. */
function fake(holder: { runs?: WebRuns }, answers: Map<string, Answer>) {
  let n = 0;
  return async (o: RunOptions): Promise<RunResult> => {
    const id = o.session ?? `new-${++n}`;
    o.onEvent?.({ type: "session", id, dir: `/x/${id}` });
    const a = await holder.runs!.asker(`\nhs: the agent wants to touch ${id}.\nAllow? [o]nce: `);
    answers.set(id, a);
    if (o.signal?.aborted) return result(id, { error: true, cancelled: true });
    return result(id, { output: a });
  };
}

/** Resolves once `pred` holds (checked at each state change). */
function when(runs: WebRuns, pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (pred()) return resolve();
    const off = runs.subscribe(() => {
      if (pred()) {
        off();
        resolve();
      }
    });
  });
}

Deno.test("each session gets its own question; the answer goes back to its turn", async () => {
  const holder: { runs?: WebRuns } = {};
  const answers = new Map<string, Answer>();
  const runs = holder.runs = new WebRuns({ run: fake(holder, answers), log: () => {} });
  const a = await runs.start("hello", "sa");
  const b = await runs.start("hello", "sb");
  assert.deepEqual([a, b], ["sa", "sb"]);
  await when(runs, () => runs.asks().length === 2);
  const qa = runs.state("sa").asks;
  assert.equal(qa.length, 1);
  assert.equal(qa[0].question, "The agent wants to touch sa.");
  assert.equal(runs.state("sb").asks[0].question, "The agent wants to touch sb.");
  assert.equal(runs.state("sa").running, true);
  assert.ok(runs.answer(qa[0].id, "always"));
  assert.ok(!runs.answer(qa[0].id, "once"), "a question is answered once");
  await when(runs, () => !runs.running("sa"));
  assert.equal(answers.get("sa"), "always");
  assert.equal(runs.state("sa").outcome, "done");
  assert.equal(runs.running("sb"), true);
  runs.answer(runs.state("sb").asks[0].id, "never");
  await when(runs, () => !runs.running("sb"));
  assert.equal(answers.get("sb"), "never");
  await runs.close();
});

Deno.test("a new session is known once the turn names it; one turn per session", async () => {
  const holder: { runs?: WebRuns } = {};
  const runs = holder.runs = new WebRuns({ run: fake(holder, new Map()), log: () => {} });
  const id = await runs.start("hi");
  assert.equal(id, "new-1");
  await assert.rejects(runs.start("again", id), /already running/);
  await assert.rejects(runs.start("   ", "other"), /empty/);
  await when(runs, () => runs.asks(id).length === 1);
  await runs.close();
  assert.equal(runs.running(id), false);
  await assert.rejects(runs.start("late"), /stopping/);
});

Deno.test("cancel aborts the turn and denies its question", async () => {
  const holder: { runs?: WebRuns } = {};
  const answers = new Map<string, Answer>();
  const runs = holder.runs = new WebRuns({ run: fake(holder, answers), log: () => {} });
  await runs.start("go", "sc");
  await when(runs, () => runs.asks("sc").length === 1);
  assert.equal(runs.cancel("nope"), false);
  assert.equal(runs.cancel("sc"), true);
  await when(runs, () => !runs.running("sc"));
  assert.equal(answers.get("sc"), "never");
  assert.equal(runs.state("sc").outcome, "cancelled");
  assert.deepEqual(runs.asks(), []);
  await runs.close();
});

Deno.test("a turn that cannot start rejects with the harness's reason; a late failure is kept", async () => {
  const early = new WebRuns({
    run: () => Promise.reject(new HarnessError("no ready provider found", "run: hs providers")),
    log: () => {},
  });
  await assert.rejects(early.start("x"), /no ready provider found/);
  await early.close();
  const late = new WebRuns({
    run: (o) => {
      o.onEvent?.({ type: "session", id: "sl", dir: "/x/sl" });
      return Promise.reject(new HarnessError("provider exploded", "check it"));
    },
    log: () => {},
  });
  assert.equal(await late.start("x", "sl"), "sl");
  await when(late, () => !late.running("sl"));
  assert.deepEqual(late.state("sl"), {
    running: false,
    outcome: "error",
    error: "provider exploded (check it)",
    asks: [],
  });
  await late.close();
});
