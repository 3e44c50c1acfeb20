/**
 * Issue 12, item 1: appends are exclusive — concurrent writers never
 * overwrite each other's messages, sequence numbers stay unique — and a turn
 * holds the session's lock: a second holder waits or gets "session busy"
 * (exit code 75), and the lock dies with its process (kill -9 included).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HarnessError, lockHolder, Session, SESSION_BUSY_EXIT } from "../../core/mod.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;

async function withSession(fn: (s: Session) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "hs-lock-" });
  try {
    await fn(Session.create(root, { cwd: "/w", model: "m", provider: "p" }));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("eight processes appending to one session lose nothing and share no number", () =>
  withSession(async (s) => {
    const writers = 8;
    const each = 40;
    const children = Array.from({ length: writers }, (_, w) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--quiet",
          join(FIXTURES, "append_writer.ts"),
          s.dir,
          `w${w}`,
          `${each}`,
        ],
        stdout: "null",
        stderr: "piped",
      }).spawn());
    for (const c of children) {
      const out = await c.output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    }
    const names = [...Deno.readDirSync(join(s.dir, "messages"))].map((e) => e.name);
    assert.equal(names.filter((n) => n.endsWith(".tmp")).length, 0, "no temp file is left");
    const msgs = Session.open(s.dir).messages();
    assert.equal(msgs.length, writers * each, "every message is on disk");
    const texts = new Set(msgs.map((m) => (m.role === "user" ? m.text : "")));
    assert.equal(texts.size, writers * each, "no message overwrote another");
    const seqs = msgs.map((m) => m.seq);
    assert.deepEqual(seqs, Array.from({ length: writers * each }, (_, i) => i + 1));
    // each writer's own messages keep their order
    for (let w = 0; w < writers; w++) {
      const mine = msgs.flatMap((
        m,
      ) => (m.role === "user" && m.text.startsWith(`w${w}-`) ? [m.text] : []));
      assert.deepEqual(mine, Array.from({ length: each }, (_, i) => `w${w}-${i}`));
    }
  }));

Deno.test("a message written behind the index is never overwritten", () =>
  withSession(async (s) => {
    const other = Session.open(s.dir);
    s.appendUser("one");
    // `other` has not seen 0001 yet, and another name is taken at 0002 as well
    Deno.writeTextFileSync(
      join(s.dir, "messages/0002-user.md"),
      "---\nrole: user\nseq: 0002\n---\ntwo\n",
    );
    assert.equal(other.appendUser("three"), 3);
    const texts = Session.open(s.dir).messages().map((m) => (m.role === "user" ? m.text : ""));
    assert.deepEqual(texts, ["one", "two", "three"]);
    await Promise.resolve();
  }));

Deno.test("a second holder of a session's lock is told it is busy, then gets it once released", () =>
  withSession(async (s) => {
    await s.lock({ waitMs: 0 });
    assert.match(lockHolder(s.dir), new RegExp(`^pid ${Deno.pid} since `));
    const other = Session.open(s.dir);
    await assert.rejects(
      () => other.lock({ waitMs: 0 }),
      (err: unknown) => {
        assert.ok(err instanceof HarnessError);
        assert.equal(err.exitCode, SESSION_BUSY_EXIT);
        assert.match(
          err.message,
          new RegExp(`session ${s.id} is busy: pid ${Deno.pid} since .* is running a turn in it`),
        );
        assert.match(err.hint, /HARNESS_SESSION_WAIT/);
        return true;
      },
    );
    // a waiter gets it when the holder lets go, and is told once that it waits
    const told: string[] = [];
    const waiting = other.lock({ waitMs: 30_000, onWait: (h) => told.push(h) });
    await new Promise((r) => setTimeout(r, 50));
    s.unlock();
    await waiting;
    assert.equal(told.length, 1);
    other.unlock();
    s.unlock(); // idempotent
  }));

Deno.test("a wait for a busy session cancelled with Ctrl-C ends as cancelled (exit 130)", () =>
  withSession(async (s) => {
    await s.lock({ waitMs: 0 });
    const ac = new AbortController();
    const waiting = Session.open(s.dir).lock({ waitMs: 60_000, signal: ac.signal });
    ac.abort();
    await assert.rejects(waiting, (err: unknown) => {
      assert.ok(err instanceof HarnessError);
      assert.equal(err.exitCode, 130);
      assert.match(
        err.message,
        /^cancelled while waiting for session \S+ \(pid \d+ since .* is running a turn in it\)$/,
      );
      return true;
    });
    s.unlock();
  }));

Deno.test("a lock held by a process killed with SIGKILL is free at once", () =>
  withSession(async (s) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(FIXTURES, "lock_holder.ts"), s.dir],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("locked")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    assert.match(seen, /locked/);
    await assert.rejects(() => s.lock({ waitMs: 0 }), /is busy: pid \d+/);
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel();
    await s.lock({ waitMs: 0 });
    s.unlock();
  }));

Deno.test("a temp file left by a writer that died is removed once the lock is held", () =>
  withSession(async (s) => {
    s.appendUser("one");
    const tmp = join(s.dir, "messages", ".deadbeef.tmp");
    Deno.writeTextFileSync(tmp, "---\nrole: user\n");
    const other = Session.open(s.dir);
    other.appendUser("two");
    assert.ok(Deno.statSync(tmp).isFile, "not without the lock: its writer may be alive");
    await other.lock({ waitMs: 0 });
    other.appendUser("three");
    other.unlock();
    await assert.rejects(Deno.stat(tmp));
    assert.equal(Session.open(s.dir).count, 3);
  }));
