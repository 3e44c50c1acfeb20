/**
 * Fault injection: `hs` killed with SIGKILL at every stage of a tool-using
 * turn (the whole process tree of `deno task hs`, as a crash or an OOM kill
 * would), then resumed. The session must be intact — whole files, unique
 * numbers, no temp file after the next turn — and the next turn must work,
 * with any call left without a result answered as interrupted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, loopbackWorkspace, writeExe } from "../support/workspace.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";

/** Stages to stop in: `<stage>/<hook name>` (before or after the built-in hook of that stage). */
const STOPS = [
  "start/05-block",
  "assemble/05-block",
  "send/05-block",
  "receive/05-block",
  "receive/20-block",
  "tool_exec/05-block",
  "tool_exec/20-block",
  "tool_done/05-block",
  "tool_done/20-block",
];

/** A hook that says where it is, then blocks (bounded, in case the kill misses it). */
const BLOCK = `#!/bin/sh
touch "$HARNESS_CWD/.reached-$HARNESS_STAGE"
exec sleep 20
`;

async function waitFor(path: string, child: Deno.ChildProcess, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < end) {
    try {
      Deno.statSync(path);
      return;
    } catch { /* not yet */ }
    if (exited) throw new Error(`hs exited before reaching ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${path}`);
}

for (const stop of STOPS) {
  Deno.test(`fault: SIGKILL in ${stop.replace("/", " (hook ")}) — the session is intact and resumes`, async () => {
    const t = await loopbackWorkspace([
      {
        text: "Let me look.",
        toolCalls: [{ id: "call_k", name: "bash", input: { command: "echo hi" } }],
      },
      { text: "first turn done" },
      { text: "resumed fine" },
      { text: "resumed fine" },
    ]);
    try {
      const [stage, name] = stop.split("/");
      await writeExe(join(t.w.ws, ".harness/hooks.d", stage, name), BLOCK);
      const child = new Deno.Command(Deno.execPath(), {
        args: [...hsArgs(), "look", "around"],
        cwd: t.w.ws,
        env: t.w.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: true, // its own process group: the kill takes the launcher and hs together
      }).spawn();
      const out = Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
      ]);
      await waitFor(join(t.w.ws, `.reached-${stage}`), child);
      Deno.kill(-child.pid, "SIGKILL");
      const status = await child.status;
      const [, stderr] = await out;
      assert.equal(status.signal, "SIGKILL", stderr);

      const dir = sessionDirOf(t);
      assertSessionIntact(dir);
      await Deno.remove(join(t.w.ws, ".harness/hooks.d", stage, name));
      const before = t.server.requests.length;
      const again = new Deno.Command(Deno.execPath(), {
        args: [...hsArgs(), dir.split("/").pop()!, "go", "on"],
        cwd: t.w.ws,
        env: t.w.env,
        clearEnv: true,
        stdin: "null",
      });
      const r = await again.output();
      const text = new TextDecoder().decode(r.stdout);
      const err = new TextDecoder().decode(r.stderr);
      assert.equal(r.code, 0, err);
      assert.match(text, /^(first turn done|resumed fine)\n$/);
      assert.ok(t.server.requests.length > before);
      const msgs = assertSessionIntact(dir);
      // every call has its result now, and the conversation ends with the new answer
      const last = msgs.at(-1);
      assert.ok(last?.role === "assistant", `ends with ${last?.role}`);
      const results = msgs.flatMap((m) => (m.role === "tool_result" ? [m] : []));
      for (const m of results) {
        assert.match(m.text, /^(hi|error: no result was recorded .*interrupted\))$/);
      }
      const names = [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name);
      assert.deepEqual(names.filter((n) => !n.endsWith(".md")), [], "no temp file is left");
    } finally {
      await t.close();
    }
  });
}
