/**
 * Sessions live where the user configured them or in `$HARNESS_HOME`, never in a
 * directory the agent created (issue 23, cause 1). Through the launcher: the agent's
 * bash makes `.harness/sessions/` in a workspace and plants a future-dated session whose
 * first message is a link to the stored key; the next run, `hs resume`, `hs session
 * list` and `hs session show` must neither use that directory nor let the key out.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, runHs } from "../support/workspace.ts";
import { assertKeyNowhere, bash, rig } from "./_own_state.ts";

/** The id of the session the agent plants: dated in the future, so "latest" by name. */
const PLANTED = "99991231-235959-1";

/** What the agent's bash plants: a workspace sessions directory with a future-dated session. */
function plantCommand(home: string): string {
  const s = `.harness/sessions/${PLANTED}`;
  return [
    `mkdir -p ${s}/messages`,
    `printf 'id=${PLANTED}\\nmodel=scripted-1\\nprovider=loop\\ncreated=9999-12-31T23:59:59+00:00\\ncwd=%s\\n' "$PWD" > ${s}/session.conf`,
    `ln -s ${home}/.auth.json ${s}/messages/0001-user.md`,
    `echo planted`,
  ].join(" && ");
}

Deno.test("cause 1: sessions the agent made in an untrusted workspace are never used", async () => {
  const r = await rig((w) => [
    // run 1: the agent's bash makes .harness/sessions/ and plants a session in it
    bash("toolu_p1", plantCommand(w.home)),
    { text: "planted" },
    { text: "second run" },
    { text: "resumed" },
  ], false);
  try {
    const one = await r.hs(["--events", "go"]);
    assert.equal(one.code, 0, one.stderr);
    const planted = join(r.w.ws, ".harness/sessions", PLANTED);
    const agentPlanted = await Deno.lstat(join(planted, "messages/0001-user.md")).then(
      () => true,
      () => false,
    );
    // `.harness/` is a control path: under bubblewrap its mount is read-only, so the agent's
    // bash cannot make the directory (without bubblewrap, bash is refused outright)
    assert.equal(agentPlanted, false, "the agent's bash planted a session in .harness/sessions");
    // a cloned repository can ship the same plant: the next runs must ignore it all the same
    await Deno.mkdir(join(planted, "messages"), { recursive: true });
    await Deno.writeTextFile(
      join(planted, "session.conf"),
      `id=${PLANTED}\nmodel=scripted-1\nprovider=loop\ncreated=9999-12-31T23:59:59+00:00\ncwd=${r.w.ws}\n`,
    );
    await Deno.symlink(join(r.w.home, ".auth.json"), join(planted, "messages/0001-user.md"));
    assert.ok((await Deno.lstat(join(planted, "messages/0001-user.md"))).isSymlink);
    // run 2: a new session — it must not go into the agent's directory
    const two = await r.hs(["again"]);
    assert.equal(two.code, 0, two.stderr);
    const where = /session: (\S+)/.exec(two.stderr)?.[1] ?? "";
    assert.ok(where.startsWith(join(r.w.home, "sessions")), `run 2 stored its session in ${where}`);
    // hs resume continues the latest session of the user's own, not the planted one
    const resumed = await r.hs(["resume", "more"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.ok(!resumed.stderr.includes(PLANTED), resumed.stderr);
    // it went on in run 2's session; the planted one holds only what the agent put there
    assert.equal([...Deno.readDirSync(join(where, "messages"))].length, 4);
    assert.deepEqual([...Deno.readDirSync(join(planted, "messages"))].map((e) => e.name), [
      "0001-user.md",
    ]);
    assert.match(resumed.stderr, /not keeping sessions in \S+\/ws\/\.harness\/sessions: it is not/);
    const list = await r.hs(["session", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes(PLANTED), list.stdout);
    await r.hs(["session", "show", PLANTED]);
    await r.hs(["session", "show", planted]);
    assertKeyNowhere(r);
    assert.equal(r.server.requests.length, 4);
  } finally {
    await r.close();
  }
});

Deno.test("a workspace .harness/sessions holds sessions only as the user trusted it", async () => {
  const r = await rig([
    { text: "in the trusted sessions directory" },
    { text: "from a subdirectory" },
    { text: "after the swap" },
    { text: "explicit" },
  ], false);
  try {
    const own = join(r.w.ws, ".harness/sessions");
    await Deno.mkdir(own);
    const trust = await r.hs(["trust"]);
    assert.equal(trust.code, 0, trust.stderr);
    // what the user made and trusted holds the sessions (PROTOCOLS "Environment")
    const a = await r.hs(["go"]);
    assert.equal(a.code, 0, a.stderr);
    assert.ok(sessionOf(a).startsWith(own + "/"), a.stderr);
    // a sessions directory made below it later is skipped: the trusted one above is used
    const sub = join(r.w.ws, "sub");
    await Deno.mkdir(join(sub, ".harness/sessions"), { recursive: true });
    const b = await runHs(["go"], { cwd: sub, env: r.w.env });
    r.outputs.push(b);
    assert.equal(b.code, 0, b.stderr);
    assert.ok(sessionOf(b).startsWith(own + "/"), b.stderr);
    assert.match(b.stderr, /not keeping sessions in \S+\/sub\/\.harness\/sessions/);
    // another directory put in its place (the agent's bash can do this between two runs
    // of a workspace it may write): not what the user trusted
    await Deno.rename(own, join(r.w.ws, ".harness/old"));
    await Deno.mkdir(own);
    const d = await r.hs(["go"]);
    assert.equal(d.code, 0, d.stderr);
    assert.ok(sessionOf(d).startsWith(join(r.w.home, "sessions") + "/"), d.stderr);
    assert.match(d.stderr, /it was made \(or made again\) after you trusted the workspace/);
    // HARNESS_SESSIONS in the user's environment is where the user wants them
    const mine = join(r.w.root, "my-sessions");
    const e = await runHs(["go"], { cwd: r.w.ws, env: { ...r.w.env, HARNESS_SESSIONS: mine } });
    assert.equal(e.code, 0, e.stderr);
    assert.ok(sessionOf(e).startsWith(mine + "/"), e.stderr);
  } finally {
    await r.close();
  }
});

function sessionOf(run: CliRun): string {
  const dir = /session: (\S+)/.exec(run.stderr)?.[1];
  assert.ok(dir, `no session line in:\n${run.stderr}`);
  return dir;
}
