/**
 * Reducers and methods (seed 000 §5) through `deno task hs` and a scripted model: a bot's tool
 * reaches the `nb` notebook through its bindings with `call/method`; `hs packs state | call |
 * propose` read, call and propose from the command line. Each step quotes the sentence it checks.
 */
import assert from "node:assert/strict";
import { runHs } from "../support/workspace.ts";
import { events, notebookPack, packsWorkspace, results } from "./_packs_kit.ts";

const nb = (id: string, input: Record<string, unknown>) => ({ id, name: "nb_call", input });

Deno.test("seed 000 §5: call/method admission, queries, commands, call ids, host-only, pure reducers", async (t) => {
  const w = await packsWorkspace([
    {
      toolCalls: [
        nb("c1", { binding: "notes", method: "add", input: { text: "one" } }),
        nb("c2", { binding: "few", method: "add", input: { text: "x" } }),
        nb("c3", { binding: "notes", method: "add", input: { text: "x" }, widen: true }),
        nb("c4", { binding: "notes", method: "add", input: { text: "x" }, abi: 2 }),
        nb("c5", { binding: "notes", method: "add", input: { text: 5 } }),
        nb("c6", { binding: "notes", method: "wrong", input: {} }),
        nb("c7", { binding: "notes", method: "sneak", input: {} }),
        nb("c8", { binding: "notes", method: "seal", input: { text: "ok" } }),
        nb("c9", { binding: "notes", method: "add", input: { text: "two" }, callid: "k" }),
        nb("c10", { binding: "notes", method: "add", input: { text: "two" }, callid: "k" }),
        nb("c11", { binding: "notes", method: "add", input: { text: "three" }, callid: "k" }),
        nb("c12", { binding: "notes", method: "impure", input: { what: "loud" } }),
        nb("c13", { binding: "notes", method: "impure", input: { what: "notify" } }),
        nb("c14", { binding: "notes", method: "impure", input: { what: "propose" } }),
        nb("c15", { binding: "notes", method: "impure", input: { what: "call" } }),
        nb("c16", { binding: "notes", method: "shout", input: {} }),
        nb("c17", { binding: "elsewhere", method: "items", input: {} }),
      ],
    },
    { text: "done" },
  ], [notebookPack(), {
    name: "bad",
    files: {
      "plugin.json": JSON.stringify({
        name: "bad",
        extensions: { "tools.inhuman": { states: { session: "./s.scm" } } },
      }),
      "s.scm": "(define/reducer :initial (lambda () 0) :reduce (lambda (s a) s))\n" +
        "(define/reducer :initial (lambda () 1) :reduce (lambda (s a) s))\n",
    },
  }]);
  try {
    const run = await runHs(["--events", "go"], { cwd: w.w.ws, env: w.w.env });
    assert.equal(run.code, 0, run.stderr);
    const r = results(run.stdout);
    const session = events(run.stdout).find((e) => e.type === "session").id as string;
    const text = (id: string) => r.get(id)?.result ?? "";
    const state = async () => {
      const s = await runHs(["packs", "state", "nb", "--session", session, "--json"], {
        cwd: w.w.ws,
        env: w.w.env,
      });
      assert.equal(s.code, 0, s.stderr);
      return JSON.parse(s.stdout) as {
        revision: number;
        state: { items: string[]; sealed: string };
      };
    };

    await t.step(
      "'call/method is the only admission path.' (a bot's tool reaches the state through its binding)",
      () => {
        assert.equal(text("c1"), "1");
      },
    );
    await t.step(
      "'The host pins the owner id and the method list. Arguments cannot widen that grant or point at a different owner.'",
      () => {
        assert.match(text("c2"), /call\/method nb\.add: not granted \(the binding grants items\)/);
        assert.match(
          text("c3"),
          /:plugin :scope — arguments cannot widen the grant or point at a different owner/,
        );
        assert.match(text("c17"), /bot main has no binding "elsewhere"/);
      },
    );
    await t.step("'The host checks the grant, the ABI revision, and both schemas.'", () => {
      assert.match(text("c4"), /ABI revision 2 is not supported \(this host speaks 1\)/);
      assert.match(text("c5"), /call\/method nb\.add: invalid input: text: /);
      assert.match(text("c6"), /call\/method nb\.wrong: invalid output: /);
    });
    await t.step("'A query cannot propose.'", () => {
      assert.match(text("c7"), /state\/propose in a query: a query cannot propose/);
    });
    await t.step(
      "':host-only actions reject a proposal that lacks host authority, including when the proposal comes from a method.'",
      () => {
        assert.match(text("c8"), /is host-only: a proposal without host authority/);
      },
    );
    await t.step(
      "'The same call id with the same input returns the recorded result and does not append again. A different input on that id is an error.'",
      async () => {
        assert.equal(text("c9"), "2");
        assert.equal(text("c10"), "2");
        assert.match(text("c11"), /call id "k" was already used with a different input/);
        const s = await state();
        assert.deepEqual(s.state.items, ["one", "two"]);
        assert.equal(s.revision, 2);
      },
    );
    await t.step(
      "'Reducing is pure: no I/O, no self/notify, no call/method, no state/propose.'",
      () => {
        assert.match(text("c12"), /reducing is pure: no I\/O/);
        assert.match(text("c13"), /reducing is pure: no self\/notify/);
        assert.match(text("c14"), /reducing is pure: no state\/propose/);
        assert.match(text("c15"), /reducing is pure: no call\/method/);
        for (const id of ["c12", "c13", "c14", "c15"]) assert.equal(r.get(id)?.error, true);
      },
    );
    await t.step(
      "'Writing shared state does not wake a bot.' (the run's appends start no round)",
      () => {
        assert.equal(w.server.requests.length, 2);
      },
    );
    await t.step("'A method call has no notification destination.'", () => {
      assert.match(
        text("c16"),
        /self\/notify in a method: a method call has no notification destination/,
      );
    });
    await t.step(
      "'A command proposes against the revision it observed.' 'A stale revision does not overwrite.'",
      async () => {
        const stale = await runHs(
          [
            "packs",
            "call",
            "nb",
            "add",
            '{"text":"late"}',
            "--session",
            session,
            "--revision",
            "1",
          ],
          { cwd: w.w.ws, env: w.w.env },
        );
        assert.equal(stale.code, 1);
        assert.match(stale.stderr, /stale revision 1 \(the state is at 2\); nothing was written/);
        const fresh = await runHs(
          [
            "packs",
            "call",
            "nb",
            "add",
            '{"text":"three"}',
            "--session",
            session,
            "--revision",
            "2",
          ],
          { cwd: w.w.ws, env: w.w.env },
        );
        assert.equal(fresh.code, 0, fresh.stderr);
        assert.equal(fresh.stdout.trim(), "3");
      },
    );
    await t.step(
      "host authority: the person at the terminal proposes a host-only action (hs packs propose); the session verb cannot",
      async () => {
        const verb = await runHs(
          ["packs", "call", "nb", "seal", '{"text":"x"}', "--session", session],
          { cwd: w.w.ws, env: w.w.env },
        );
        assert.equal(verb.code, 1);
        assert.match(verb.stderr, /host-only/);
        const host = await runHs(
          ["packs", "propose", "nb", '{"type":"seal","text":"final"}', "--session", session],
          { cwd: w.w.ws, env: w.w.env },
        );
        assert.equal(host.code, 0, host.stderr);
        assert.equal(host.stdout.trim(), "nb: revision 4");
        const s = await state();
        assert.equal(s.state.sealed, "final");
        assert.deepEqual(s.state.items, ["one", "two", "three"]);
      },
    );
    await t.step(
      "'One :initial, one :reduce, optional :host-only. A second reducer in the module is a load error.'",
      async () => {
        const bad = await runHs(["packs", "state", "bad", "--session", session], {
          cwd: w.w.ws,
          env: w.w.env,
        });
        assert.equal(bad.code, 1);
        assert.match(bad.stderr, /s\.scm:2:1: define\/reducer: a second reducer in the module/);
      },
    );
  } finally {
    await w.close();
  }
});
