/**
 * Fault injection: concurrent appenders through `deno task hs`. Eight
 * `hs <id> "msg-N"` at once on one session: every turn is kept whole (a user
 * message followed by its answer, turns never interleaved), numbers stay
 * unique and ordered. With no wait allowed, the losers are told the session is
 * busy (exit 75) and nothing of theirs is written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, runHs } from "../support/workspace.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";

Deno.test("fault: eight hs processes continuing one session at once lose nothing", async () => {
  const n = 8;
  const t = await loopbackWorkspace(
    Array.from({ length: n + 1 }, (_, i) => ({ text: `answer ${i}`, delayMs: 2 })),
  );
  try {
    const first = await runHs(["start"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(first.code, 0, first.stderr);
    const dir = sessionDirOf(t, first);
    const id = dir.split("/").pop()!;
    const runs = await Promise.all(
      Array.from({ length: n }, (_, i) => runHs([id, `msg-${i}`], { cwd: t.w.ws, env: t.w.env })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const msgs = assertSessionIntact(dir);
    assert.equal(msgs.length, 2 * (n + 1), "every message is on disk");
    // turns are whole: each user message is followed by the answer of its own turn
    for (let i = 0; i < msgs.length; i += 2) {
      assert.equal(msgs[i].role, "user");
      assert.equal(msgs[i + 1].role, "assistant");
    }
    const users = msgs.flatMap((m) => (m.role === "user" ? [m.text] : []));
    assert.deepEqual(users.slice(1).sort(), Array.from({ length: n }, (_, i) => `msg-${i}`));
    const answers = new Set(runs.map((r) => r.stdout));
    assert.equal(answers.size, n, "each process got an answer of its own");
  } finally {
    await t.close();
  }
});

Deno.test("fault: with HARNESS_SESSION_WAIT=0 a second turn in a busy session exits 75 and writes nothing", async () => {
  const t = await loopbackWorkspace([
    { text: "first" },
    { text: "a slow answer that holds the session for a while", chunkSize: 2, delayMs: 40 },
    { text: "after the wait" },
  ]);
  try {
    const first = await runHs(["start"], { cwd: t.w.ws, env: t.w.env });
    const dir = sessionDirOf(t, first);
    const id = dir.split("/").pop()!;
    const slow = runHs([id, "slow", "one"], { cwd: t.w.ws, env: t.w.env });
    while (t.server.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    const busy = await runHs([id, "impatient"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_SESSION_WAIT: "0" },
    });
    assert.equal(busy.code, 75, busy.stderr);
    assert.match(
      busy.stderr,
      new RegExp(`hs: session ${id} is busy: pid \\d+ since \\S+ is running a turn in it`),
    );
    assert.match(
      busy.stderr,
      /hint: wait for that turn to end and run again, raise HARNESS_SESSION_WAIT/,
    );
    assert.equal((await slow).code, 0);
    const texts = assertSessionIntact(dir).map((
      m,
    ) => (m.role === "assistant" ? "" : m.role === "user" ? m.text : ""));
    assert.ok(!texts.includes("impatient"), "the loser wrote nothing");
    // with a wait, the same run goes through once the session is free
    const waited = await runHs([id, "patient"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, "after the wait\n");
    assert.ok(Deno.statSync(join(dir, ".lock")).isFile);
  } finally {
    await t.close();
  }
});
