/**
 * Issue 23, cause 9 ("Caps"): one model response may ask for at most `max_tool_calls=` tool
 * calls (provider `.conf`; `HARNESS_MAX_TOOL_CALLS` for every provider; default 128). A
 * response over the cap ends the turn with a message naming the cap, the count and how to
 * raise it, exit code 1, none of its calls run, and the session on disk stays whole and
 * resumes. Through the launcher, with the scripted loopback model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  writeExe,
  writeFile,
} from "../support/workspace.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";

/** One response asking for `n` write_file calls (each would create `out/<i>.txt`). */
function manyWrites(n: number): ScriptedTurn {
  return {
    toolCalls: Array.from({ length: n }, (_, i) => ({
      id: `toolu_${i}`,
      name: "write_file",
      input: { path: `out/${i}.txt`, content: `${i}\n` },
    })),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a response with 200 tool calls ends the turn at the default cap of 128; none runs, the session resumes (issue 23, cause 9)", async () => {
  const t = await loopbackWorkspace([manyWrites(200), { text: "resumed fine" }]);
  try {
    const r = await runHs(["write", "everything"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1, r.stderr);
    // streamed: hs stops reading at the first call past the cap (unless the whole answer was
    // already in: then it counts them all)
    assert.match(
      r.stderr,
      /asked for (at least 129 tool calls \(hs stopped reading it there\)|200 tool calls)/,
    );
    assert.match(r.stderr, /cap of 128 \(the default\)/);
    assert.match(r.stderr, /max_tool_calls=/);
    assert.match(r.stderr, /HARNESS_MAX_TOOL_CALLS/);
    assert.equal(r.stdout, "");
    assert.equal(await exists(join(t.w.ws, "out")), false, "no call of that response ran");
    assert.equal(t.server.requests.length, 1, "the turn ended: no further request");
    const dir = sessionDirOf(t, r);
    const msgs = assertSessionIntact(dir);
    assert.deepEqual(msgs.map((m) => m.role), ["user"], "the refused response was not saved");
    // what hs showed and recorded of it stops at the cap
    const shown = (await Deno.readTextFile(join(dir, ".stream"))).split("\n")
      .filter((l) => l.includes('"tool_start"')).length;
    assert.ok(shown <= 128, `${shown} calls past the cap reached .stream`);
    // the kept session resumes: the next request holds the user's messages and nothing else
    const resumed = await runHs(["resume", "go", "on"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, "resumed fine\n");
    const body = t.server.requests[1].body as { messages: { role: string }[] };
    assert.deepEqual(body.messages.map((m) => m.role), ["user", "user"]);
    assertSessionIntact(dir);
  } finally {
    await t.close();
  }
});

Deno.test("max_tool_calls= in the .conf and HARNESS_MAX_TOOL_CALLS set the cap (issue 23, cause 9)", async () => {
  const t = await loopbackWorkspace(
    [manyWrites(5), manyWrites(5), { text: "five written" }, manyWrites(3)],
    { confExtra: "max_tool_calls=4\n" },
  );
  try {
    const over = await runHs(["write"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(over.code, 1, over.stderr);
    assert.match(over.stderr, /5 tool calls.*, more than the cap of 4 .*max_tool_calls=/);
    assert.match(over.stderr, /providers\/loop\.conf/);
    assert.equal(await exists(join(t.w.ws, "out")), false);
    // raised for one run: the environment's setting wins over the .conf's
    const env = { ...t.w.env, HARNESS_MAX_TOOL_CALLS: "5" };
    const raised = await runHs(["write"], { cwd: t.w.ws, env });
    assert.equal(raised.code, 0, raised.stderr);
    assert.equal(raised.stdout, "five written\n");
    for (let i = 0; i < 5; i++) assert.ok(await exists(join(t.w.ws, `out/${i}.txt`)));
    const low = await runHs(["write"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_MAX_TOOL_CALLS: "2" },
    });
    assert.equal(low.code, 1, low.stderr);
    assert.match(
      low.stderr,
      /3 tool calls.*, more than the cap of 2 \(HARNESS_MAX_TOOL_CALLS\)/,
    );
    const bad = await runHs(["write"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_MAX_TOOL_CALLS: "lots" },
    });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /HARNESS_MAX_TOOL_CALLS="lots"/);
  } finally {
    await t.close();
  }
});

Deno.test("a plain (not streamed) response over the cap is refused with its exact count (issue 23, cause 9)", async () => {
  const t = await loopbackWorkspace([manyWrites(200), { text: "resumed fine" }], {
    confExtra: "stream=never\n",
  });
  try {
    const r = await runHs(["write", "everything"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /asked for 200 tool calls, more than the cap of 128 \(the default\)/);
    assert.match(r.stderr, /HARNESS_MAX_TOOL_CALLS=200/);
    assert.equal(await exists(join(t.w.ws, "out")), false);
    assert.deepEqual(assertSessionIntact(sessionDirOf(t, r)).map((m) => m.role), ["user"]);
    const resumed = await runHs(["resume", "go", "on"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, "resumed fine\n");
  } finally {
    await t.close();
  }
});

Deno.test("an executable provider's --defaults max_tool_calls= sets its cap (issue 23, cause 9)", async () => {
  const w = await makeWorkspace();
  try {
    const calls = [0, 1, 2].map((i) =>
      `{"type":"tool_use","id":"toolu_${i}","name":"write_file","input":{"path":"out/${i}.txt","content":"x"}}`
    ).join(",");
    const provider = join(w.ws, ".harness/providers/ex");
    await writeExe(
      provider,
      `#!/usr/bin/env bash
case "$1" in
  --ready) exit 0 ;;
  --defaults) printf 'model=ex-1\\nprotocol=anthropic\\nmax_tool_calls=2\\n' ;;
  *) cat >/dev/null
     echo '{"model":"ex-1","stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"content":[${calls}]}' ;;
esac
`,
    );
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=ex\n");
    const r = await runHs(["write"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /asked for 3 tool calls, more than the cap of 2 \(max_tool_calls= of /);
    assert.ok(r.stderr.includes(`${provider} --defaults`), r.stderr);
    assert.equal(await exists(join(w.ws, "out")), false);
  } finally {
    await w.cleanup();
  }
});
