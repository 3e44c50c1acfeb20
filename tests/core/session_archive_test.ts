/**
 * Session archives (core/session/archive.ts, archive_import.ts; issue 28 item 3): an export
 * reads only the session's own files (a link in it is neither followed nor archived, a busy
 * session is refused with exit code 75), a round trip is byte-exact, and a hostile archive —
 * a path that climbs out or is absolute, a link entry, a bad hash, a wrong size, a truncated
 * file, a file that is also a directory, a lock file, an id that is a path — is refused
 * before anything is written, inside the sessions directory or outside it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HarnessError, setRefusalSink } from "../../core/base/mod.ts";
import { forkSession } from "../../core/session/mod.ts";
import {
  archiveText,
  exportSession,
  type SessionArchive,
  sha256Hex,
} from "../../core/session/archive.ts";
import { importSession, parseArchive, verifyArchive } from "../../core/session/archive_import.ts";
import { acquireLock } from "../../core/session/lock.ts";

const ID = "20261202-101500-4242";

async function tempRoot(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "hs-archive-" });
}

/** A session directory with a message, a capped output of raw bytes and a turn record. */
async function sampleSession(root: string): Promise<string> {
  const dir = join(root, "src", ID);
  await Deno.mkdir(join(dir, "messages"), { recursive: true });
  await Deno.mkdir(join(dir, "outputs"));
  await Deno.mkdir(join(dir, "turns"));
  await Deno.writeTextFile(
    join(dir, "session.conf"),
    `id=${ID}\nmodel=m\nprovider=p\ncreated=2026-12-02T10:15:00+00:00\ncwd=/job\n`,
  );
  await Deno.writeTextFile(join(dir, "messages/0001-user.md"), "review the diff\n");
  await Deno.writeTextFile(join(dir, "messages/0002-assistant.md"), "looks fine\n");
  await Deno.writeFile(join(dir, "outputs/toolu_1.txt"), new Uint8Array([0, 255, 10, 200, 1]));
  await Deno.writeTextFile(join(dir, "turns/0001.json"), "{}\n");
  return dir;
}

function entry(path: string, bytes: Uint8Array) {
  return {
    path,
    type: "file" as const,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    data: btoa(String.fromCharCode(...bytes)),
  };
}

const enc = (s: string) => new TextEncoder().encode(s);

function archiveOf(extra: Record<string, unknown>[], id = ID): string {
  return JSON.stringify({
    format: "hs-session-archive",
    version: 1,
    id,
    exported: "2026-12-02T10:20:00+00:00",
    files: [entry("session.conf", enc(`id=${id}\nmodel=m\n`)), ...extra],
  });
}

/** Imports `text` into `<root>/sessions`; the error it throws. */
function importError(root: string, text: string): HarnessError {
  try {
    const a = parseArchive(text, "job.hs-session.json");
    const files = verifyArchive(a, "job.hs-session.json");
    importSession(a, files, { sessionsDir: join(root, "sessions"), exists: () => false });
  } catch (err) {
    assert.ok(err instanceof HarnessError, String(err));
    return err;
  }
  throw new Error("the archive was imported");
}

/** Every path under `dir` (relative), to show nothing was written. */
function tree(dir: string, rel = ""): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(dir, rel))];
  } catch {
    return out;
  }
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    out.push(r);
    if (e.isDirectory) out.push(...tree(dir, r));
  }
  return out.sort();
}

Deno.test("export then import is byte-exact and leaves no temp directory", async () => {
  const root = await tempRoot();
  try {
    const dir = await sampleSession(root);
    const a = await exportSession(dir);
    assert.deepEqual(a.files.map((f) => f.path), [
      "messages/0001-user.md",
      "messages/0002-assistant.md",
      "outputs/toolu_1.txt",
      "session.conf",
      "turns/0001.json",
    ]);
    const text = archiveText(a);
    const parsed = parseArchive(text, "x");
    const r = importSession(parsed, verifyArchive(parsed, "x"), {
      sessionsDir: join(root, "sessions"),
      exists: () => false,
    });
    assert.equal(r.id, ID);
    // the lock the export held stays in the source; it is never archived
    assert.deepEqual(
      tree(join(root, "sessions")),
      tree(join(root, "src")).filter((p) => !p.endsWith("/.lock")),
    );
    for (const f of a.files) {
      assert.deepEqual(
        await Deno.readFile(join(r.dir, f.path)),
        await Deno.readFile(join(dir, f.path)),
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("export never follows a link in the session: not archived, reported", async () => {
  const root = await tempRoot();
  const told: string[] = [];
  const prev = setRefusalSink((l) => told.push(l));
  try {
    const dir = await sampleSession(root);
    await Deno.writeTextFile(join(root, "secret"), "SECRET-KEY");
    await Deno.mkdir(join(root, "elsewhere"));
    await Deno.writeTextFile(join(root, "elsewhere", "x.txt"), "SECRET-DIR");
    await Deno.symlink(join(root, "secret"), join(dir, "messages/0003-user.md"));
    await Deno.link(join(root, "secret"), join(dir, "outputs/hard.txt"));
    await Deno.symlink(join(root, "elsewhere"), join(dir, "plugin-state"));
    const text = archiveText(await exportSession(dir));
    for (const f of JSON.parse(text).files as { path: string; data: string }[]) {
      assert.ok(!atob(f.data).includes("SECRET"), f.path);
    }
    assert.ok(told.some((l) => l.includes("0003-user.md") && /symbolic link/.test(l)), told.join());
    assert.ok(told.some((l) => l.includes("hard.txt") && /hard link/.test(l)), told.join());
    assert.ok(told.some((l) => l.includes("plugin-state") && /symbolic link/.test(l)), told.join());
  } finally {
    setRefusalSink(prev);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("export of a session a turn holds is refused with exit code 75", async () => {
  const root = await tempRoot();
  try {
    const dir = await sampleSession(root);
    const lock = await acquireLock(dir, ID, { waitMs: 0 });
    try {
      await assert.rejects(() => exportSession(dir), (err: HarnessError) => {
        assert.equal(err.exitCode, 75);
        assert.match(err.message, /is busy/);
        return true;
      });
    } finally {
      lock.release();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("hostile archives are refused before anything is written", async () => {
  const root = await tempRoot();
  try {
    const msg = enc("hello");
    const good = entry("messages/0001-user.md", msg);
    const cases: [string, string, RegExp][] = [
      ["climbs out", archiveOf([entry("../../escape.txt", msg)]), /climbs out with \.\./],
      ["climbs out inside", archiveOf([entry("messages/../../x", msg)]), /climbs out/],
      ["absolute", archiveOf([entry(join(root, "abs.txt"), msg)]), /is absolute/],
      [
        "a link entry",
        archiveOf([{ path: "messages/0002-user.md", type: "symlink", target: "/etc/passwd" }]),
        /"symlink" entry .*never writes a link/,
      ],
      ["bad hash", archiveOf([{ ...good, sha256: "0".repeat(64) }]), /does not match its SHA-256/],
      ["wrong size", archiveOf([{ ...good, size: 4 }]), /5 bytes for .*4 announced/],
      [
        "truncated data",
        archiveOf([{ ...good, data: good.data.slice(0, 3) }]),
        /damaged content|bytes for/,
      ],
      ["truncated file", archiveOf([good]).slice(0, 200), /not a whole session archive.*truncated/],
      [
        "file and directory",
        archiveOf([entry("messages", msg), good]),
        /as a file and a directory/,
      ],
      ["twice", archiveOf([good, good]), /twice/],
      ["a lock", archiveOf([entry(".lock", msg)]), /lock or temp file/],
      ["an id that is a path", archiveOf([], "../../x"), /is not a session id/],
      [
        "no session.conf",
        JSON.stringify({ ...JSON.parse(archiveOf([])), files: [good] }),
        /has no session\.conf/,
      ],
      [
        "another id in session.conf",
        JSON.stringify({ ...JSON.parse(archiveOf([good])), id: "20200101-000000-1" }),
        /says it is session 20200101-000000-1 but its session\.conf says/,
      ],
      ["not an archive", JSON.stringify({ format: "tar" }), /is not a session archive/],
    ];
    for (const [what, text, message] of cases) {
      const err = importError(root, text);
      assert.match(err.message, message, what);
      assert.deepEqual(tree(root).filter((p) => !p.startsWith("sessions")), [], what);
      assert.deepEqual(
        tree(join(root, "sessions")),
        [],
        `${what}: ${tree(join(root, "sessions"))}`,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an import never overwrites a session: the id is refused, --as takes a new one", async () => {
  const root = await tempRoot();
  try {
    const sessions = join(root, "sessions");
    await Deno.mkdir(join(sessions, ID), { recursive: true });
    await Deno.writeTextFile(join(sessions, ID, "session.conf"), `id=${ID}\nmodel=mine\n`);
    const a: SessionArchive = parseArchive(archiveOf([]), "x");
    const files = verifyArchive(a, "x");
    // the name exists on disk although `exists` says no (a race): the claim fails, no overwrite
    assert.throws(
      () => importSession(a, files, { sessionsDir: sessions, exists: () => false }),
      /exists already \(nothing was overwritten\)/,
    );
    assert.equal(
      await Deno.readTextFile(join(sessions, ID, "session.conf")),
      `id=${ID}\nmodel=mine\n`,
    );
    assert.throws(
      () => importSession(a, files, { sessionsDir: sessions, exists: (id) => id === ID }),
      (err: HarnessError) => /exists already/.test(err.message) && /--as /.test(err.hint),
    );
    assert.throws(
      () => importSession(a, files, { sessionsDir: sessions, as: "../up", exists: () => false }),
      /is not a session id/,
    );
    const r = importSession(a, files, { sessionsDir: sessions, as: "copy-1", exists: () => false });
    assert.match(await Deno.readTextFile(join(r.dir, "session.conf")), /^id=copy-1$/m);
    assert.deepEqual(tree(sessions).filter((p) => !p.includes("/")), ["copy-1", ID].sort());
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an imported turn record naming paths cannot make a fork read or write outside", async () => {
  const root = await tempRoot();
  try {
    await Deno.writeTextFile(join(root, "secret"), "SECRET-KEY");
    const record = (messages: string[], logs: Record<string, number> = {}) =>
      enc(JSON.stringify({ turn: 1, at: "x", messages, logs }));
    const hostile: [string, Uint8Array][] = [
      ["a message path", record(["0001-user.md", "../../../secret"])],
      ["a pack path", record(["0001-user.md"], { "../../..": 1 })],
    ];
    for (const [what, bytes] of hostile) {
      const text = archiveOf([
        entry("messages/0001-user.md", enc("hello")),
        entry("turns/0001.json", bytes),
      ], ID);
      const a = parseArchive(text, "x");
      const sessions = join(root, what.replace(/ /g, "-"));
      const r = importSession(a, verifyArchive(a, "x"), {
        sessionsDir: sessions,
        exists: () => false,
      });
      assert.throws(() => forkSession(r.dir, 1, sessions), /is not a turn record/, what);
      assert.deepEqual(tree(sessions).filter((p) => !p.startsWith(ID)), [], what);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
