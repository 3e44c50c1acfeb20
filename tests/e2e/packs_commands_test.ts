/**
 * Pack commands (seed 000 §8) through `deno task hs` and a scripted model, with the shipped
 * example pack `examples/packs/planner` (`/goal`, `/plan`, a session tasks state): the agent
 * plans through its binding, then `hs packs command` evaluates the pack's command files into
 * choice rows and performs their leaves through the `plugin/method` session verb. Each step
 * quotes the sentence it checks.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { hsArgs, runHs } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import { call, events, type PackFiles, packsWorkspace, requestOf } from "./_packs_kit.ts";

const PLANNER = join(import.meta.dirname!, "../../examples/packs/planner");

/** The shipped planner pack, as files. */
async function plannerPack(): Promise<PackFiles> {
  const files: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) await walk(p);
      else files[relative(PLANNER, p)] = await Deno.readTextFile(p);
    }
  };
  await walk(PLANNER);
  return { name: "planner", files };
}

Deno.test("seed 000 §8: pack commands — /goal and /plan of the planner example, plugin/method, rpc", async (t) => {
  const w = await packsWorkspace([
    call("p1", "plan_add", { text: "write the tests" }),
    { text: "planned" }, // round end: a task is open → the planner's activating note
    call("p2", "plan_done", { id: 1 }),
    { text: "all done" },
  ], [await plannerPack()]);
  const hs = (args: string[]) => runHs(args, { cwd: w.w.ws, env: w.w.env });
  try {
    const run = await hs(["--events", "make a plan"]);
    assert.equal(run.code, 0, run.stderr);
    const session = events(run.stdout).find((e) => e.type === "session").id as string;
    const state = async () => {
      const s = await hs(["packs", "state", "planner", "--session", session, "--json"]);
      assert.equal(s.code, 0, s.stderr);
      return JSON.parse(s.stdout).state as {
        goal: string;
        tasks: { id: number; text: string; status: string }[];
      };
    };

    await t.step(
      "'A hook may read the method result and then notify.' — the planner example keeps its plan in the session's tasks state; its round hook reads the open tasks and nudges",
      async () => {
        assert.equal(w.server.requests.length, 4);
        assert.match(requestOf(w, 2).last, /Open tasks remain: #1 write the tests/);
        assert.deepEqual((await state()).tasks, [{
          id: 1,
          text: "write the tests",
          status: "done",
        }]);
      },
    );

    await t.step(
      "'The client evaluates them like the kernel defaults …: harness/choice rows and (harness/action 'op :params (dict …)) leaves.'",
      async () => {
        const r = await hs(["packs", "command", "plan", "--session", session, "--json"]);
        assert.equal(r.code, 0, r.stderr);
        const { view } = JSON.parse(r.stdout);
        assert.equal(view.type, "choice");
        assert.equal(view.title, "Plan — 1 task(s)");
        assert.equal(view.rows[0].label, "✓ #1 write the tests");
        assert.deepEqual(view.rows[0].action, {
          op: "plugin/method",
          params: {
            plugin: "planner",
            method: "complete-task",
            scope: "session",
            args: '{"id":1}',
          },
        });
        assert.equal(view.rows[1].label, "Add a task");
        assert.equal(view.rows[1].action.params.field, "text");
      },
    );

    await t.step(
      "'A command reaches its plugin's state through the session verb plugin/method (:plugin, :method, :scope, JSON :args, and :field for the composer text).'",
      async () => {
        const r = await hs([
          "packs",
          "command",
          "goal",
          "ship",
          "it",
          "--session",
          session,
          "--pick",
          "1",
        ]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /goal: ship it/);
        assert.equal((await state()).goal, "ship it");
        const again = await hs(["packs", "command", "goal", "--session", session]);
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /Goal: ship it/);
        assert.match(again.stdout, /1\. Set the goal/);
      },
    );

    await t.step(
      "'Every method of that state is granted; host-only actions are not.'",
      async () => {
        const add = await hs([
          "packs",
          "command",
          "plan",
          "second",
          "task",
          "--session",
          session,
          "--pick",
          "2",
        ]);
        assert.equal(add.code, 0, add.stderr);
        assert.deepEqual((await state()).tasks.map((x) => x.text), [
          "write the tests",
          "second task",
        ]);
        const park = await hs([
          "packs",
          "call",
          "planner",
          "park-task",
          '{"id":2}',
          "--session",
          session,
        ]);
        assert.equal(park.code, 1);
        assert.match(park.stderr, /host-only/);
        assert.equal((await state()).tasks[1].status, "open");
      },
    );

    await t.step(
      "'A read is (rpc 'plugin/method …) while the body evaluates; a failure comes back as {ok: #f, error}, so the body still renders.'",
      async () => {
        const r = await hs(["packs", "command", "plan", "--json"]); // no session: the read fails
        assert.equal(r.code, 0, r.stderr);
        const { view } = JSON.parse(r.stdout);
        assert.match(view.title, /^Plan \(unavailable: .*needs a session/);
        assert.deepEqual(view.rows, []);
      },
    );

    await t.step(
      "pack commands are rendered in the REPL (numbered rows; a pick performs the leaf)",
      async () => {
        const out = await runInPty(
          [Deno.execPath(), ...hsArgs(), "repl", session],
          [["› ", "/plan\r"], ["choose 1–3", "2\r"], ["done: second task", ""], ["› ", "/quit\r"]],
          { cwd: w.w.ws, env: { ...w.w.env, TERM: "dumb" } },
        );
        assert.equal(out.exit, 0, out.text);
        assert.match(out.text, /Plan — 2 task\(s\)/);
        assert.match(out.text, /1\. ✓ #1 write the tests/);
        assert.match(out.text, /2\. ○ #2 second task/);
        assert.equal((await state()).tasks[1].status, "done");
      },
    );
  } finally {
    await w.close();
  }
});
