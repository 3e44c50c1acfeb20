/**
 * hs's own files through links, one reader at a time (core/base/safe_fs.ts and its users):
 * the plugin-state logs, the auth store and lookup, the trust store, the web's session
 * listing and a session's index. Each case plants a symbolic or hard link to a file
 * holding a secret and checks that the secret is never returned, that the target is never
 * written, and that the refusal is reported once with the path and why.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  isOwnFile,
  openOwnFile,
  readOwnText,
  RefusedFileError,
  setRefusalSink,
} from "../../core/base/mod.ts";
import { FileStateLog, readLogDir, Session, workspaceSessions } from "../../core/session/mod.ts";
import { credentialLookup, readAuth, setKey } from "../../core/providers/mod.ts";
import { TrustStore } from "../../core/trust/mod.ts";
import { recentSessions } from "../../cli/web/session_list.ts";

const SECRET = "sk-FILES-SECRET-88120";

/** A temp dir with `secret.json` (the secret as an auth file) and the refusals reported. */
async function withDir(fn: (dir: string, told: string[]) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hs-own-files-" });
  const told: string[] = [];
  const prev = setRefusalSink((line) => told.push(line));
  try {
    await Deno.writeTextFile(
      join(dir, "secret.json"),
      JSON.stringify({ loop: [{ type: "api_key", key: SECRET }] }),
    );
    await fn(dir, told);
  } finally {
    setRefusalSink(prev);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("safe_fs: a symlink, a hard link and a directory are refused; a plain file is read", () =>
  withDir(async (dir, told) => {
    const secret = join(dir, "secret.json");
    await Deno.symlink(secret, join(dir, "sym"));
    await Deno.link(secret, join(dir, "hard"));
    await Deno.mkdir(join(dir, "subdir"));
    await Deno.writeTextFile(join(dir, "plain"), "fine\n");
    assert.equal(readOwnText(join(dir, "sym")), undefined);
    assert.equal(readOwnText(join(dir, "hard")), undefined);
    assert.equal(readOwnText(join(dir, "subdir")), undefined);
    assert.equal(readOwnText(join(dir, "missing")), undefined);
    assert.equal(readOwnText(join(dir, "plain")), "fine\n");
    assert.ok(!isOwnFile(join(dir, "sym")) && !isOwnFile(join(dir, "hard")));
    assert.equal(told.length, 3);
    assert.match(told[0], /hs refused \S+\/sym: it is a symbolic link/);
    assert.match(told[1], /hs refused \S+\/hard: it is a hard link \(2 names share it\)/);
    assert.ok(told.every((l) => !l.includes(SECRET)));
    // reported once per path
    readOwnText(join(dir, "sym"));
    assert.equal(told.length, 3);
  }));

Deno.test("safe_fs: an open for writing never writes through a link; replace swaps the link", () =>
  withDir(async (dir) => {
    const secret = join(dir, "secret.json");
    const before = await Deno.readTextFile(secret);
    await Deno.symlink(secret, join(dir, "stream"));
    assert.throws(() => openOwnFile(join(dir, "stream"), { append: true }), RefusedFileError);
    // a dangling link: create never follows it to make its target
    await Deno.symlink(join(dir, "made-through-link"), join(dir, "dangling"));
    assert.throws(() => openOwnFile(join(dir, "dangling"), { write: true, create: true }));
    assert.ok(!isOwnFile(join(dir, "made-through-link")));
    const f = openOwnFile(join(dir, "stream"), { append: true, create: true, replace: true });
    f.truncateSync(0);
    f.writeSync(new TextEncoder().encode("new\n"));
    f.close();
    assert.equal(await Deno.readTextFile(secret), before);
    assert.ok(!(await Deno.lstat(join(dir, "stream"))).isSymlink);
    assert.equal(await Deno.readTextFile(join(dir, "stream")), "new\n");
  }));

Deno.test("state logs: a chunk that is a link is never read; the lock never written through", () =>
  withDir(async (dir, told) => {
    const log = join(dir, "plugin-state", "p");
    const l = FileStateLog.open(log);
    l.append({ n: 1 }, 0);
    const chunk = join(log, "0000000000.jsonl");
    await Deno.remove(chunk);
    await Deno.symlink(join(dir, "secret.json"), chunk);
    assert.ok(!JSON.stringify(readLogDir(log)).includes(SECRET));
    assert.ok(told.some((t) => t.includes("0000000000.jsonl")));
    // the lock: a link to the secret is replaced, the secret untouched
    const before = await Deno.readTextFile(join(dir, "secret.json"));
    await Deno.remove(join(log, ".lock"));
    await Deno.link(join(dir, "secret.json"), join(log, ".lock"));
    FileStateLog.open(log).append({ n: 2 }, 0);
    assert.equal(await Deno.readTextFile(join(dir, "secret.json")), before);
  }));

Deno.test("auth: a linked .auth.json is neither used nor rewritten", () =>
  withDir(async (dir, told) => {
    const home = join(dir, "home");
    const ws = join(dir, "ws");
    await Deno.mkdir(home);
    await Deno.mkdir(join(ws, ".harness"), { recursive: true });
    await Deno.symlink(join(dir, "secret.json"), join(ws, ".harness", ".auth.json"));
    await Deno.link(join(dir, "secret.json"), join(home, ".auth.json"));
    const lookup = credentialLookup({ HOME: dir, HARNESS_HOME: home }, ws);
    assert.equal(await lookup("loop"), undefined);
    assert.equal(told.length, 2);
    await assert.rejects(() => readAuth(join(home, ".auth.json")), /refused .*hard link/);
    await assert.rejects(() => setKey(join(home, ".auth.json"), "other", "sk-x"), /refused/);
    assert.match(await Deno.readTextFile(join(dir, "secret.json")), new RegExp(SECRET));
  }));

Deno.test("trust: a trust.json that is a link trusts nothing and is replaced, never written through", () =>
  withDir(async (dir, told) => {
    const home = join(dir, "home");
    await Deno.mkdir(home);
    const other = join(dir, "other-trust.json");
    await Deno.writeTextFile(other, JSON.stringify({ version: 1, trusted: { "/": { at: "x" } } }));
    await Deno.symlink(other, join(home, "trust.json"));
    const store = new TrustStore(home);
    assert.equal(store.isTrusted("/anything/.harness"), false);
    assert.match(told.join(""), /trust\.json: it is a symbolic link/);
    await store.trust([join(dir, "ws")]);
    assert.match(await Deno.readTextFile(other), /"\/"/); // untouched
    assert.ok(!(await Deno.lstat(join(home, "trust.json"))).isSymlink);
  }));

Deno.test("sessions: the index, the web listing and a swapped message never read a link", () =>
  withDir(async (dir, told) => {
    const s = Session.create(join(dir, "sessions"), { cwd: dir, model: "m", provider: "p" });
    s.appendUser("hello");
    const first = join(s.dir, "messages", "0001-user.md");
    // swapped for a link behind the index's back: a validating refresh drops it
    await Deno.remove(first);
    await Deno.symlink(join(dir, "secret.json"), first);
    s.refresh(true);
    assert.ok(!JSON.stringify(s.messages()).includes(SECRET));
    assert.equal(s.count, 1);
    // the next message still gets a fresh number; nothing overwrote the link's target
    assert.equal(s.appendUser("again"), 2);
    const web = recentSessions(workspaceSessions({ sessions: join(dir, "sessions") }), 10);
    assert.ok(!JSON.stringify(web).includes(SECRET));
    assert.ok(!JSON.stringify(Session.open(s.dir).messages()).includes(SECRET));
    assert.ok(told.some((t) => t.includes("0001-user.md")));
  }));

Deno.test("sessions: a message another writer is linking into place is read once it settled", () =>
  withDir(async (dir, told) => {
    const s = Session.create(join(dir, "sessions"), { cwd: dir, model: "m", provider: "p" });
    s.appendUser("hello");
    const mdir = join(s.dir, "messages");
    // the other writer's state between link() and removing its temp file
    const tmp = join(mdir, ".a1b2c3d4.tmp");
    await Deno.writeTextFile(tmp, "---\nrole: user\nseq: 0002\n---\nfrom the other writer\n");
    await Deno.link(tmp, join(mdir, "0002-user.md"));
    s.refresh(false);
    assert.equal(s.messages().length, 1);
    assert.deepEqual(told, [], "a write in progress is not a refusal");
    await Deno.remove(tmp);
    s.refresh(false);
    assert.deepEqual(s.messages().map((m) => m.role === "user" ? m.text : ""), [
      "hello",
      "from the other writer",
    ]);
    assert.deepEqual(told, []);
  }));
