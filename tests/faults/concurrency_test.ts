/**
 * Fault injection: concurrent appenders through `deno task hs`. Eight
 * `hs <id> "msg-N"` at once on one session: every turn is kept whole (a user
 * message followed by its answer, turns never interleaved), numbers stay
 * unique and ordered. With no wait allowed, the losers are told the session is
 * busy (exit 75) and nothing of theirs is written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Session } from "../../core/mod.ts";
import { hsArgs, loopbackWorkspace, runHs } from "../support/workspace.ts";
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

Deno.test("fault: a busy session — exit 75 at once with HARNESS_SESSION_WAIT=0, else a wait that says so", async () => {
  const t = await loopbackWorkspace([{ text: "first" }, { text: "after the wait" }]);
  try {
    const first = await runHs(["start"], { cwd: t.w.ws, env: t.w.env });
    const dir = sessionDirOf(t, first);
    const id = dir.split("/").pop()!;
    // this test process holds the session, as another hs in a turn would
    const holder = Session.open(dir);
    await holder.lock({ waitMs: 0 });
    let held = true;
    try {
      const busy = await runHs([id, "impatient"], {
        cwd: t.w.ws,
        env: { ...t.w.env, HARNESS_SESSION_WAIT: "0" },
      });
      assert.equal(busy.code, 75, busy.stderr);
      assert.match(
        busy.stderr,
        new RegExp(`hs: session ${id} is busy: pid ${Deno.pid} since \\S+ is running a turn in it`),
      );
      assert.match(
        busy.stderr,
        /hint: wait for that turn to end and run again, raise HARNESS_SESSION_WAIT/,
      );
      assert.equal(t.server.requests.length, 1, "the loser sent nothing");
      assert.deepEqual(assertSessionIntact(dir).map((m) => m.role), ["user", "assistant"]);

      // with the default wait, the run says it waits, then goes on once the session is free
      const child = new Deno.Command(Deno.execPath(), {
        args: [...hsArgs(), id, "patient"],
        cwd: t.w.ws,
        env: t.w.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const stdout = new Response(child.stdout).text();
      const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let stderr = "";
      while (!/waiting up to 60 s/.test(stderr)) {
        const { value, done } = await reader.read();
        if (done) break;
        stderr += value;
      }
      assert.match(
        stderr,
        new RegExp(
          `hs: session ${id} is busy \\(pid ${Deno.pid} since \\S+ is running a turn in it\\); waiting up to 60 s`,
        ),
      );
      holder.unlock();
      held = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stderr += value;
      }
      assert.equal((await child.status).code, 0, stderr);
      assert.equal(await stdout, "after the wait\n");
    } finally {
      if (held) holder.unlock();
    }
    assert.deepEqual(assertSessionIntact(dir).map((m) => m.role), [
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    assert.ok(Deno.statSync(join(dir, ".lock")).isFile);
  } finally {
    await t.close();
  }
});
