/**
 * Every own-state file of a session planted as a link between two runs (as any process
 * that can write the session directory could: a hook, the agent's bash where the session
 * is writable to it, another program). After the plant: the session is continued, listed,
 * shown, its turns listed and forked, and a fresh run starts. The consequence checked:
 * neither the stored key nor a secret file outside reaches a request or any hs output,
 * trust.json and .auth.json are unchanged, nothing is written into `$HARNESS_HOME`, and
 * the next `hs` command works (and the refusal was reported).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sessionsOf, writeFile } from "../support/workspace.ts";
import { assertKeyNowhere, rig } from "./_own_state.ts";

const OUTSIDE = "OUTSIDE-SECRET-30271";

interface Plant {
  what: string;
  /** Plants the link in session `dir`; `home` is `$HARNESS_HOME`, `secret` a file outside. */
  plant(dir: string, home: string, secret: string): Promise<void>;
}

const sym = (target: string, path: string) => Deno.symlink(target, path);
const hard = (target: string, path: string) => Deno.link(target, path);
const replace = async (path: string, make: () => Promise<void>) => {
  await Deno.remove(path, { recursive: true }).catch(() => {});
  await make();
};

const PLANTS: Plant[] = [
  {
    what: "a new message: symlink to .auth.json",
    plant: (d, h) => sym(join(h, ".auth.json"), join(d, "messages/0900-user.md")),
  },
  {
    what: "a new message: symlink to a secret outside",
    plant: (d, _h, s) => sym(s, join(d, "messages/0900-user.md")),
  },
  {
    what: "a new message: hard link to a secret outside",
    plant: (d, _h, s) => hard(s, join(d, "messages/0900-user.md")),
  },
  {
    what: "the first message replaced by a symlink to .auth.json",
    plant: (d, h) =>
      replace(
        join(d, "messages/0001-user.md"),
        () => sym(join(h, ".auth.json"), join(d, "messages/0001-user.md")),
      ),
  },
  {
    what: "the first message replaced by a hard link to .auth.json",
    plant: (d, h) =>
      replace(
        join(d, "messages/0001-user.md"),
        () => hard(join(h, ".auth.json"), join(d, "messages/0001-user.md")),
      ),
  },
  {
    what: "an answer replaced by a symlink to a secret outside",
    plant: (d, _h, s) =>
      replace(
        join(d, "messages/0002-assistant.md"),
        () => sym(s, join(d, "messages/0002-assistant.md")),
      ),
  },
  {
    what: "session.conf as a symlink to .auth.json",
    plant: (d, h) =>
      replace(join(d, "session.conf"), () => sym(join(h, ".auth.json"), join(d, "session.conf"))),
  },
  {
    what: ".lock as a symlink to trust.json",
    plant: (d, h) => replace(join(d, ".lock"), () => sym(join(h, "trust.json"), join(d, ".lock"))),
  },
  {
    what: ".lock as a hard link to trust.json",
    plant: (d, h) => replace(join(d, ".lock"), () => hard(join(h, "trust.json"), join(d, ".lock"))),
  },
  {
    what: ".stream as a symlink to .auth.json",
    plant: (d, h) =>
      replace(join(d, ".stream"), () => sym(join(h, ".auth.json"), join(d, ".stream"))),
  },
  {
    what: "a turn record as a symlink to .auth.json",
    plant: (d, h) =>
      replace(
        join(d, "turns/0001.json"),
        () => sym(join(h, ".auth.json"), join(d, "turns/0001.json")),
      ),
  },
  {
    what: "messages/ as a symlink to $HARNESS_HOME",
    plant: (d, h) => replace(join(d, "messages"), () => sym(h, join(d, "messages"))),
  },
];

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

for (const p of PLANTS) {
  Deno.test(`own state through a link: ${p.what}`, async () => {
    const r = await rig([{ text: "first" }, { text: "second" }, { text: "fresh" }], true);
    try {
      const secret = join(r.w.root, "outside-secret.txt");
      await writeFile(secret, `${OUTSIDE}\n`);
      const trustPath = join(r.w.home, "trust.json");
      const one = await r.hs(["go"]);
      assert.equal(one.code, 0, one.stderr);
      const dir = /session: (\S+)/.exec(one.stderr)?.[1];
      assert.ok(dir, one.stderr);
      const id = dir.split("/").pop()!;
      const trustBefore = await Deno.readTextFile(trustPath);
      const authBefore = await Deno.readTextFile(join(r.w.home, ".auth.json"));
      const homeBefore = listing(r.w.home);
      await p.plant(dir, r.w.home, secret);
      // the session goes on (or is refused as a whole), and every reader of it
      await r.hs([id, "more"]);
      await r.hs(["session", "list"]);
      await r.hs(["session", "show", id]);
      await r.hs(["session", "turns", id]);
      await r.hs(["session", "fork", id]);
      for (const s of listing(sessionsOf(r.w))) await r.hs(["session", "show", s]);
      const fresh = await r.hs(["go"]);
      assert.equal(fresh.code, 0, fresh.stderr);
      assertKeyNowhere(r);
      for (const [i, req] of r.server.requests.entries()) {
        assert.ok(!JSON.stringify(req.body).includes(OUTSIDE), `request ${i} carried the secret`);
      }
      for (const out of r.outputs) {
        assert.ok(!(out.stdout + out.stderr).includes(OUTSIDE), "hs printed the outside secret");
      }
      assert.equal(await Deno.readTextFile(trustPath), trustBefore, "trust.json was changed");
      const auth = await Deno.readTextFile(join(r.w.home, ".auth.json"));
      assert.equal(auth, authBefore, ".auth.json was changed");
      assert.deepEqual(listing(r.w.home), homeBefore, "something was written into HARNESS_HOME");
      const next = await r.hs(["tools"]);
      assert.equal(next.code, 0, next.stderr);
      assert.match(r.outputs.map((o) => o.stderr).join(""), /hs refused|not a session|refused/);
    } finally {
      await r.close();
    }
  });
}
