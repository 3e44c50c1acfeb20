/**
 * Sessions are grouped by workspace (issue 24, item 4; docs/sessions.md "Where sessions
 * live"). Through the launcher, two workspaces A and B under one HOME: `hs resume` in A
 * continues A's session — what reached the model is A's history, never B's —, `hs session
 * list` in A shows only A's (`--all` both, each with its workspace), a flat session made
 * before grouping (cwd=A) is listed in A and resumable by id, and `hs web` lists only this
 * workspace's sessions unless asked for every workspace.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedServer, ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  loopbackConf,
  makeWorkspace,
  runHs,
  type Workspace,
  writeFile,
} from "../support/workspace.ts";
import { startHsWeb } from "../support/web.ts";

/** A session made before grouping: flat in `$HARNESS_HOME/sessions`, dated in the past. */
const OLD = "20200101-000000-1";

interface Two {
  w: Workspace;
  a: string;
  b: string;
  server: ScriptedServer;
  close(): Promise<void>;
}

/** Workspaces A and B (both trusted: one root) under one HOME, the provider in `$HARNESS_HOME`. */
async function two(script: ScriptedTurn[]): Promise<Two> {
  const w = await makeWorkspace();
  const a = join(w.root, "ws");
  const b = join(w.root, "wsb");
  await Deno.mkdir(join(b, ".harness"), { recursive: true });
  const server = await startScriptedServer(script);
  await writeFile(join(w.home, "providers/loop.conf"), loopbackConf(server.url, "anthropic"));
  await writeFile(join(w.home, "settings.conf"), "provider=loop\n");
  // the old layout: a session straight under $HARNESS_HOME/sessions, its cwd A
  const old = join(w.home, "sessions", OLD);
  await writeFile(
    join(old, "session.conf"),
    `id=${OLD}\nmodel=scripted-1\nprovider=loop\ncreated=2020-01-01T00:00:00+00:00\ncwd=${a}\n`,
  );
  await writeFile(join(old, "messages/0001-user.md"), "old question from A");
  await writeFile(join(old, "messages/0002-assistant.md"), "old answer in A");
  return {
    w,
    a,
    b,
    server,
    async close() {
      await server.close();
      await w.cleanup();
    },
  };
}

/** The text of every message of a recorded request. */
function sent(server: ScriptedServer, i: number): string {
  return JSON.stringify((server.requests[i].body as { messages?: unknown }).messages ?? []);
}

const sessionOf = (stderr: string) => /session: (\S+)/.exec(stderr)?.[1] ?? "";

Deno.test("sessions are grouped by workspace: resume, list, --all, an old flat session", async () => {
  const t = await two([
    { text: "answer A" },
    { text: "answer B" },
    { text: "resumed A" },
    { text: "old resumed" },
    { text: "every workspace" },
  ]);
  const env = t.w.env;
  try {
    const inA = await runHs(["hello from A"], { cwd: t.a, env });
    assert.equal(inA.code, 0, inA.stderr);
    const inB = await runHs(["hello from B"], { cwd: t.b, env });
    assert.equal(inB.code, 0, inB.stderr);
    const dirA = sessionOf(inA.stderr);
    const dirB = sessionOf(inB.stderr);
    // under the user's home, never in the workspace; one group per workspace
    assert.ok(dirA.startsWith(join(t.w.home, "sessions") + "/"), dirA);
    assert.ok(dirB.startsWith(join(t.w.home, "sessions") + "/"), dirB);
    assert.notEqual(join(dirA, ".."), join(dirB, ".."), "A and B share one sessions group");
    assert.notEqual(join(dirA, ".."), join(t.w.home, "sessions"));
    const idA = dirA.split("/").at(-1)!;
    const idB = dirB.split("/").at(-1)!;

    // hs resume in A continues A's session, though B's is the newest
    const resumed = await runHs(["resume", "more"], { cwd: t.a, env });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal([...Deno.readDirSync(join(dirA, "messages"))].length, 4, "A's session went on");
    assert.equal([...Deno.readDirSync(join(dirB, "messages"))].length, 2);
    const third = sent(t.server, 2);
    assert.ok(third.includes("hello from A"), third);
    assert.ok(!third.includes("hello from B"), `A's resume sent B's history: ${third}`);

    // the list in A: A's session and the old flat one, not B's
    const listA = await runHs(["session", "list"], { cwd: t.a, env });
    assert.equal(listA.code, 0, listA.stderr);
    assert.ok(listA.stdout.includes(idA), listA.stdout);
    assert.ok(listA.stdout.includes(OLD), listA.stdout);
    assert.ok(!listA.stdout.includes(idB), listA.stdout);
    const listB = await runHs(["session", "list"], { cwd: t.b, env });
    assert.ok(listB.stdout.includes(idB) && !listB.stdout.includes(idA), listB.stdout);
    assert.ok(!listB.stdout.includes(OLD), listB.stdout);
    // --all: every workspace, each session with its own
    const all = await runHs(["session", "list", "--all"], { cwd: t.b, env });
    assert.equal(all.code, 0, all.stderr);
    const line = (id: string) => all.stdout.split("\n").find((l) => l.startsWith(id)) ?? "";
    assert.ok(line(idA).includes(t.a) && !line(idA).includes(t.b), all.stdout);
    assert.ok(line(idB).includes(t.b), all.stdout);
    assert.ok(line(OLD).includes(t.a), all.stdout);

    // the old session: shown and resumed by id, its history what the model receives
    const show = await runHs(["session", "show", OLD], { cwd: t.b, env });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /old question from A/);
    const old = await runHs([OLD, "and the old one"], { cwd: t.a, env });
    assert.equal(old.code, 0, old.stderr);
    const fourth = sent(t.server, 3);
    assert.ok(fourth.includes("old question from A"), fourth);
    assert.ok(!fourth.includes("hello from A"), fourth);
    // in a third workspace with no session: resume has nothing; resume --all takes the newest
    // session (by id) of every workspace
    const c = join(t.w.root, "wsc");
    await Deno.mkdir(c);
    const none = await runHs(["resume", "on"], { cwd: c, env });
    assert.equal(none.code, 1, none.stderr);
    assert.match(none.stderr, /no session to resume in this workspace/);
    const any = await runHs(["resume", "--all", "on"], { cwd: c, env });
    assert.equal(any.code, 0, any.stderr);
    const fifth = sent(t.server, 4);
    const [want, not] = idB > idA
      ? ["hello from B", "hello from A"]
      : ["hello from A", "hello from B"];
    assert.ok(fifth.includes(want) && !fifth.includes(not), fifth);
    assert.equal(t.server.requests.length, 5);
  } finally {
    await t.close();
  }
});

Deno.test("hs web lists this workspace's sessions; every workspace's when asked", async () => {
  const t = await two([{ text: "answer A" }, { text: "answer B" }]);
  const env = t.w.env;
  try {
    const idA = sessionOf((await runHs(["hello from A"], { cwd: t.a, env })).stderr).split("/")
      .at(-1)!;
    const idB = sessionOf((await runHs(["hello from B"], { cwd: t.b, env })).stderr).split("/")
      .at(-1)!;
    assert.ok(idA && idB);
    const web = await startHsWeb([], { cwd: t.a, env });
    try {
      const auth = { authorization: `Bearer ${web.token}` };
      const here = await (await fetch(`${web.origin}/`, { headers: auth })).text();
      assert.ok(here.includes(idA) && here.includes(OLD), here);
      assert.ok(!here.includes(idB), "hs web in A lists B's session");
      const every = await (await fetch(`${web.origin}/?workspaces=all`, { headers: auth })).text();
      assert.ok(every.includes(idA) && every.includes(idB) && every.includes(OLD), every);
      // a session of another workspace opens by id all the same
      const other = await fetch(`${web.origin}/s/${idB}`, { headers: auth });
      assert.equal(other.status, 200);
      assert.match(await other.text(), /hello from B/);
      const old = await fetch(`${web.origin}/s/${OLD}`, { headers: auth });
      assert.equal(old.status, 200);
      assert.match(await old.text(), /old question from A/);
    } finally {
      await web.stop();
    }
    // hs web --all: every workspace's by default
    const all = await startHsWeb(["--all"], { cwd: t.a, env });
    try {
      const auth = { authorization: `Bearer ${all.token}` };
      const every = await (await fetch(`${all.origin}/`, { headers: auth })).text();
      assert.ok(every.includes(idA) && every.includes(idB) && every.includes(OLD), every);
    } finally {
      await all.stop();
    }
  } finally {
    await t.close();
  }
});
