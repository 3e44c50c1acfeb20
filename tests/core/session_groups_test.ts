/**
 * Sessions grouped by workspace (core/session/groups.ts, core/base/workspace_key.ts): the key
 * of a group, the sessions of one workspace (its group and the flat ones made before grouping,
 * matched by real path), every workspace's, and an id found in any group.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { chooseSessionsDir, workspaceKey } from "../../core/base/mod.ts";
import {
  everySession,
  findSessionDir,
  Session,
  workspaceSessions,
} from "../../core/session/mod.ts";

Deno.test("workspaceKey: a readable tail and a hash of the whole real path", () => {
  const a = workspaceKey("/home/me/src/my app");
  const b = workspaceKey("/home/you/src/my app");
  assert.match(a, /^my_app-[0-9a-f]{12}$/);
  assert.match(b, /^my_app-[0-9a-f]{12}$/);
  assert.notEqual(a, b);
  assert.equal(workspaceKey("/home/me/src/my app"), a);
  assert.match(workspaceKey("/"), /^root-[0-9a-f]{12}$/);
  assert.match(workspaceKey("/x/../.."), /^root-/);
  assert.ok(!workspaceKey("/x/a\nb/..hidden").includes("\n"));
});

Deno.test("sessions of a workspace: its group, its flat old ones by real path, ids anywhere", () => {
  const root = Deno.makeTempDirSync({ prefix: "hs-groups-" });
  try {
    const home = join(root, "home");
    const a = join(root, "a");
    const b = join(root, "b");
    Deno.mkdirSync(a);
    Deno.mkdirSync(b);
    Deno.symlinkSync(a, join(root, "a-link"));
    const pa = chooseSessionsDir({}, a, home);
    const pb = chooseSessionsDir({}, b, home);
    assert.ok(pa.grouped && pb.grouped);
    assert.notEqual(pa.sessions, pb.sessions);
    // the same workspace through a link: the same group
    assert.equal(chooseSessionsDir({}, join(root, "a-link"), home).sessions, pa.sessions);
    const wa = { sessions: pa.sessions, sessionsGrouped: pa.grouped };
    const wb = { sessions: pb.sessions, sessionsGrouped: pb.grouped };
    const sa = Session.create(pa.sessions, { cwd: a, model: "m", provider: "p" });
    const sb = Session.create(pb.sessions, { cwd: b, model: "m", provider: "p" });
    // made before grouping, flat, its cwd A through the link
    const old = Session.create(join(home, "sessions"), {
      cwd: join(root, "a-link"),
      model: "m",
      provider: "p",
    });
    // made in the same second by one process, in different groups: still three ids
    assert.equal(new Set([sa.id, sb.id, old.id]).size, 3);
    const ids = (refs: { id: string }[]) => refs.map((r) => r.id).sort();
    assert.deepEqual(ids(workspaceSessions(wa)), [sa.id, old.id].sort());
    assert.deepEqual(ids(workspaceSessions(wb)), [sb.id]);
    assert.deepEqual(ids(everySession(wb)), [sa.id, sb.id, old.id].sort());
    assert.equal(everySession(wb).find((r) => r.id === sa.id)?.cwd, a);
    assert.equal(findSessionDir(wb, sa.id), sa.dir);
    assert.equal(findSessionDir(wb, old.id), old.dir);
    assert.equal(findSessionDir(wb, ".."), undefined);
    assert.equal(findSessionDir(wb, "nothing"), undefined);
    // a sessions directory the user chose is not grouped
    const chosen = chooseSessionsDir({ HARNESS_SESSIONS: join(root, "mine") }, a, home);
    assert.equal(chosen.grouped, undefined);
    assert.equal(chosen.sessions, join(root, "mine"));
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
