/**
 * State logs by scope (seed 000 §5 "State") through `deno task hs` and a scripted model: the
 * `nb` notebook at session, project and global scope and a bot's private reducer; restarts
 * (every `hs` run is a new process), a second project under the same harness home, turn
 * records, rewind (and its undo) and fork with tool calls in between, and `kill -9` of a
 * real child process writing each file-backed scope. Each step quotes the sentence it checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, runHs } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import {
  call,
  CALLER,
  events,
  notebookPack,
  packsWorkspace,
  requestOf,
  writePack,
} from "./_packs_kit.ts";
import { readLogDir } from "../../core/session/mod.ts";

const PRIVATE = `${CALLER}
(define/reducer :initial (lambda () 0) :reduce (lambda (s a) (+ s 1)))
(define/method 'bump :kind 'command :input (z/object (dict)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "bump")) (+ s 1)))
`;

const nb = (id: string, binding: string, method: string, input: unknown) => ({
  id,
  name: "nb_call",
  input: { binding, method, input },
});

/** A session's directory (hs session dir). */
async function sessionDir(cwd: string, env: Record<string, string>, id: string): Promise<string> {
  const r = await runHs(["session", "dir", id], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim();
}

type View = { revision: number; state: { items: string[] } };

Deno.test("seed 000 §5 State: session, project, global and private logs; restart; rewind and fork with tool calls between", async (t) => {
  const w = await packsWorkspace([
    // turn 1
    {
      toolCalls: [
        nb("a1", "notes", "add", { text: "s1" }),
        nb("a2", "proj", "add", { text: "p1" }),
        nb("a3", "glob", "add", { text: "g1" }),
        nb("a4", "self", "bump", {}),
      ],
    },
    { text: "first done" },
    // turn 2 (a new process: a restart)
    {
      toolCalls: [
        nb("b1", "notes", "add", { text: "s2" }),
        nb("b2", "proj", "add", { text: "p2" }),
        nb("b3", "self", "bump", {}),
      ],
    },
    { text: "second done" },
    // turn 3, in the fork at turn 1
    { text: "fork goes on" },
  ], [notebookPack(PRIVATE)]);
  const env = w.w.env;
  const hs = (args: string[], cwd = w.w.ws) => runHs(args, { cwd, env });
  const view = async (scope: string, session?: string, cwd = w.w.ws): Promise<View> => {
    const args = ["packs", "state", "nb", "--scope", scope, "--json"];
    const r = await hs(session ? [...args, "--session", session] : args, cwd);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const messages = async (dir: string) => {
    const out: string[] = [];
    for await (const e of Deno.readDir(join(dir, "messages"))) out.push(e.name);
    return out.sort();
  };
  try {
    const one = await hs(["--events", "first"]);
    assert.equal(one.code, 0, one.stderr);
    const session = events(one.stdout).find((e) => e.type === "session").id as string;
    const sdir = await sessionDir(w.w.ws, env, session);
    const done = (out: string, id: string) =>
      events(out).find((e) => e.type === "tool_done" && e.id === id)?.result;
    assert.equal(done(one.stdout, "a4"), "1");
    const turn1Files = await messages(sdir);
    const two = await hs(["--events", session, "second"]);
    assert.equal(two.code, 0, two.stderr);

    await t.step(
      "'A session log lives on the session document …, so it survives a park and a restart.'",
      async () => {
        const s = await view("session", session);
        assert.deepEqual(s.state.items, ["s1", "s2"]);
        assert.deepEqual(readLogDir(join(sdir, "plugin-state/nb")).length, 2);
      },
    );

    await t.step(
      "'Project and global logs … survive restart as files under the kernel root's plugin-state/.'",
      async () => {
        assert.deepEqual((await view("project")).state.items, ["p1", "p2"]);
        assert.deepEqual((await view("global")).state.items, ["g1"]);
        assert.equal(readLogDir(join(w.w.home, "plugin-state/nb/global")).length, 1);
        const projects = [...Deno.readDirSync(join(w.w.home, "plugin-state/nb/project"))];
        assert.equal(projects.length, 1);
      },
    );

    await t.step(
      "'Private logs stay in memory.' (a new process starts the bot's own state again)",
      () => {
        assert.equal(done(two.stdout, "b3"), "1");
      },
    );

    await t.step(
      "'Two projects do not share a log. An explicit global binding does.'",
      async () => {
        const other = join(w.w.root, "other");
        await writePack(join(other, ".harness/packs"), notebookPack(PRIVATE));
        assert.equal((await hs(["packs", "approve"], other)).code, 0);
        for (const [scope, text] of [["project", "q1"], ["global", "g2"]]) {
          const r = await hs(
            ["packs", "call", "nb", "add", JSON.stringify({ text }), "--scope", scope],
            other,
          );
          assert.equal(r.code, 0, r.stderr);
        }
        assert.deepEqual((await view("project", undefined, other)).state.items, ["q1"]);
        assert.deepEqual((await view("project")).state.items, ["p1", "p2"]);
        assert.deepEqual((await view("global")).state.items, ["g1", "g2"]);
      },
    );

    await t.step(
      "'Each turn records the session's logs when it ends' (hs session turns)",
      async () => {
        const r = await hs(["session", "turns", session]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /turn +1 .* nb@1\n/);
        assert.match(r.stdout, /turn +2 .* nb@2\n/);
      },
    );

    await t.step(
      "'a rewind restores the target turn's record' 'Session … logs roll back with the caller.' (nothing is lost)",
      async () => {
        const before = await messages(sdir);
        const r = await hs(["session", "rewind", session, "1"]);
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stdout,
          /rewound to turn 1 \(from 2\); \d+ message file\(s\), session state nb 2 → 1 kept in /,
        );
        assert.deepEqual(await messages(sdir), turn1Files);
        assert.deepEqual((await view("session", session)).state.items, ["s1"]);
        const aside = [...Deno.readDirSync(join(sdir, "rewound"))].map((e) => e.name);
        assert.equal(aside.length, 1);
        const kept = await messages(join(sdir, "rewound", aside[0]));
        assert.deepEqual([...turn1Files, ...kept].sort(), before);
        assert.equal(readLogDir(join(sdir, "rewound", aside[0], "plugin-state/nb")).length, 2);
      },
    );

    await t.step(
      "'Project and global logs refuse that rollback.' 'A caller rollback does not retract an accepted project task.'",
      async () => {
        assert.deepEqual((await view("project")).state.items, ["p1", "p2"]);
        assert.deepEqual((await view("global")).state.items, ["g1", "g2"]);
      },
    );

    await t.step(
      "a rewind is undone while nothing happened since (hs session rewind --undo)",
      async () => {
        const r = await hs(["session", "rewind", session, "--undo"]);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual((await view("session", session)).state.items, ["s1", "s2"]);
        assert.equal((await messages(sdir)).length > turn1Files.length, true);
      },
    );

    await t.step(
      "hs session fork copies a session at a turn (its messages and session logs); the fork goes on from there",
      async () => {
        const f = await hs(["session", "fork", session, "1"]);
        assert.equal(f.code, 0, f.stderr);
        const fork = f.stdout.trim();
        assert.notEqual(fork, session);
        const fdir = await sessionDir(w.w.ws, env, fork);
        assert.deepEqual(await messages(fdir), turn1Files);
        assert.deepEqual((await view("session", fork)).state.items, ["s1"]);
        assert.deepEqual((await view("session", session)).state.items, ["s1", "s2"]);
        const before = w.server.requests.length;
        const three = await hs(["--events", fork, "third"]);
        assert.equal(three.code, 0, three.stderr);
        const sent = JSON.stringify(w.server.requests[before]?.body);
        assert.match(sent, /first done/);
        assert.doesNotMatch(sent, /second done/);
        assert.match(requestOf(w, before).last, /third/);
        const turns = await hs(["session", "turns", fork]);
        assert.match(turns.stdout, /turn +2 .* nb@1\n/);
      },
    );
  } finally {
    await w.close();
  }
});

/** Spawns the writer, waits until it reached 540 revisions, kills it with SIGKILL; returns the last revision it printed. */
async function killMidWrite(
  cwd: string,
  env: Record<string, string>,
  scope: string,
  sessionDir?: string,
): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      join(import.meta.dirname!, "_state_writer.ts"),
      scope,
      ...(sessionDir ? [sessionDir] : []),
    ],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const err = new Response(child.stderr).text();
  let last = 0;
  let buf = "";
  const deadline = Date.now() + 90_000;
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  /** Reads one chunk; false at the end of the output. `last` is the last complete line. */
  const readMore = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buf += value;
    const lines = buf.split("\n");
    buf = lines.pop()!;
    if (lines.length) last = Number(lines.at(-1));
    return true;
  };
  // past one chunk boundary (512 entries), so a rewrite of a fresh chunk is under way too
  while (last < 540 && Date.now() < deadline && await readMore());
  child.kill("SIGKILL");
  // the writer went on between the last line read and the kill: the lines it printed meanwhile
  // are still in the pipe, and the last complete one is the revision it surely reached (a write
  // that finished but was not printed makes the log one longer)
  while (await readMore());
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL", await err);
  await err;
  return last;
}

Deno.test("'Writes are atomic': kill -9 of a real child process mid-write never leaves a torn log (session, project, global)", async (t) => {
  const w = await packsWorkspace([{ text: "hello" }], [notebookPack()]);
  try {
    const r = await runHs(["--events", "hello"], { cwd: w.w.ws, env: w.w.env });
    assert.equal(r.code, 0, r.stderr);
    const session = events(r.stdout).find((e) => e.type === "session").id as string;
    const sdir = await sessionDir(w.w.ws, w.w.env, session);
    for (const scope of ["session", "project", "global"]) {
      await t.step(
        `${scope}: killed past revision N, the log reopens with every entry up to N intact`,
        async () => {
          const reached = await killMidWrite(
            w.w.ws,
            w.w.env,
            scope,
            scope === "session" ? sdir : undefined,
          );
          assert.ok(reached >= 540, `the writer reached ${reached}`);
          const args = ["packs", "state", "nb", "--scope", scope, "--json"];
          const s = await runHs(scope === "session" ? [...args, "--session", session] : args, {
            cwd: w.w.ws,
            env: w.w.env,
          });
          assert.equal(s.code, 0, s.stderr);
          const v = JSON.parse(s.stdout) as View;
          assert.ok(
            v.revision >= reached && v.revision <= reached + 1,
            `${v.revision} vs ${reached}`,
          );
          v.state.items.forEach((item, i) =>
            assert.ok(item.startsWith(`${i} x`), `entry ${i} intact`)
          );
          assert.equal(v.state.items.length, v.revision);
        },
      );
    }
    await t.step("a temp file a crash left half-written beside the chunks is ignored", async () => {
      const dir = join(w.w.home, "plugin-state/nb/global");
      await Deno.writeTextFile(join(dir, ".deadbeef.tmp"), '{"type":"add","te');
      const s = await runHs(
        ["packs", "call", "nb", "add", '{"text":"after"}', "--scope", "global"],
        {
          cwd: w.w.ws,
          env: w.w.env,
        },
      );
      assert.equal(s.code, 0, s.stderr);
      const entries = readLogDir(dir);
      assert.deepEqual(entries.at(-1)?.actions, [{ type: "add", text: "after" }]);
    });
  } finally {
    await w.close();
  }
});

Deno.test("'A helper keeps the conversation session id it was given.' (a worker bot writes the conversation's session state)", async () => {
  const pack = notebookPack(PRIVATE);
  const manifest = JSON.parse(pack.files["plugin.json"]);
  manifest.extensions["tools.inhuman"].bots.push("./bots/worker.prompt");
  pack.files["plugin.json"] = JSON.stringify(manifest);
  pack.files["bots/worker.prompt"] = pack.files["bots/main.prompt"]
    .replace("attach: foreground", "scope: session").replace("Notebook bot.", "Worker.");
  const w = await packsWorkspace([
    { toolCalls: [{ id: "d1", name: "agent", input: { prompt: "note it", bot: "worker" } }] },
    call("w1", "nb_call", { binding: "notes", method: "add", input: { text: "from the helper" } }),
    { text: "noted" },
    { text: "the helper noted it" },
  ], [pack]);
  try {
    const r = await runHs(["--events", "delegate"], { cwd: w.w.ws, env: w.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(w.server.requests.length, 4);
    const session = events(r.stdout).find((e) => e.type === "session").id as string;
    const s = await runHs(["packs", "state", "nb", "--session", session, "--json"], {
      cwd: w.w.ws,
      env: w.w.env,
    });
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual((JSON.parse(s.stdout) as View).state.items, ["from the helper"]);
  } finally {
    await w.close();
  }
});

Deno.test("REPL /rewind and /fork: 'Session and private logs roll back with the caller.' (the private state and the messages go back to turn 1)", async () => {
  const w = await packsWorkspace([
    call("r1", "nb_call", { binding: "self", method: "bump", input: {} }),
    { text: "one" },
    call("r2", "nb_call", { binding: "self", method: "bump", input: {} }),
    { text: "two" },
    call("r3", "nb_call", { binding: "self", method: "bump", input: {} }),
    { text: "three" },
  ], [notebookPack(PRIVATE)]);
  try {
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "repl"],
      [
        ["› ", "alpha\r"],
        ["one", ""],
        ["› ", "bravo\r"],
        ["two", ""],
        ["› ", "/rewind 1\r"],
        ["rewound to turn 1", ""],
        ["› ", "charlie\r"],
        ["three", ""],
        ["› ", "/fork 1\r"],
        ["now in", ""],
        ["› ", "/quit\r"],
      ],
      { cwd: w.w.ws, env: { ...w.w.env, TERM: "dumb" } },
    );
    assert.equal(out.exit, 0, out.text);
    assert.equal(w.server.requests.length, 6);
    const third = JSON.stringify(w.server.requests[4].body);
    assert.match(third, /alpha/);
    assert.doesNotMatch(third, /bravo/, "turn 2 was rewound away");
    // the private counter stood at 1 after turn 1: the bump of turn 3 answers 2, not 3
    const result = JSON.stringify(w.server.requests[5].body);
    assert.match(requestOf(w, 5).last, /"tool_use_id":"r3","content":"2"/);
    assert.match(result, /charlie/);
    // /fork: the REPL goes on in a copy of the session as it stood at turn 1
    const fork = /forked at turn 1: now in (\S+)/.exec(out.text)?.[1];
    assert.ok(fork, out.text);
    const dir = await sessionDir(w.w.ws, w.w.env, fork);
    const conf = await Deno.readTextFile(join(dir, "session.conf"));
    assert.match(conf, /^forked_turn=1$/m);
    const files = [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name);
    const texts = files.map((f) => Deno.readTextFileSync(join(dir, "messages", f))).join("\n");
    assert.match(texts, /alpha/);
    assert.doesNotMatch(texts, /charlie/);
  } finally {
    await w.close();
  }
});
