/**
 * The session lock: one turn at a time per session, across processes. It is an
 * OS advisory lock (`flock`) on `<session>/.lock`, so it is released when its
 * holder exits in any way — kill -9 included — and never goes stale. The file
 * names its holder (`pid=`, `since=`) for the "session busy" message.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { HarnessError, openOwnFile, readOwnText } from "../base/mod.ts";

/** Exit code of a run that found its session busy (EX_TEMPFAIL: try again later). */
export const SESSION_BUSY_EXIT = 75;

/** How to wait for a busy session. */
export interface LockOptions {
  /** Longest wait for the other turn to end, in ms (0: fail at once). */
  waitMs: number;
  /** Stops the wait (Ctrl-C). */
  signal?: AbortSignal;
  /** Called once when the session is busy and the wait begins, with the holder. */
  onWait?(holder: string): void;
  /**
   * Called when the file system has no file locks (some network file systems): the
   * turn then runs unlocked — message writes stay exclusive, turns may interleave.
   */
  onUnsupported?(reason: string): void;
}

/** A held session lock. */
export interface SessionLock {
  /** Releases the lock (idempotent). */
  release(): void;
}

/** Who holds the lock, as the lock file says (`pid 123 since 10:32:28`), or "another process". */
export function lockHolder(dir: string): string {
  const text = readOwnText(join(dir, ".lock"), { quiet: true }) ?? "";
  const pid = /^pid=(\d+)/m.exec(text)?.[1];
  const since = /^since=(.+)$/m.exec(text)?.[1];
  if (!pid) return "another process";
  return `pid ${pid}${since ? ` since ${since}` : ""}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** The error of a session still busy after the wait. */
export function sessionBusy(id: string, holder: string, waitMs: number): HarnessError {
  const waited = waitMs > 0 ? ` (waited ${Math.round(waitMs / 100) / 10} s)` : "";
  return new HarnessError(
    `session ${id} is busy: ${holder} is running a turn in it${waited}`,
    "wait for that turn to end and run again, raise HARNESS_SESSION_WAIT, or start a new session",
    SESSION_BUSY_EXIT,
  );
}

/**
 * Takes the lock of session `dir`, waiting up to `opts.waitMs` for another
 * holder. Throws the "session busy" HarnessError when the wait ends (or is
 * aborted) first.
 */
export async function acquireLock(
  dir: string,
  id: string,
  opts: LockOptions,
): Promise<SessionLock> {
  const path = join(dir, ".lock");
  let file: Deno.FsFile;
  try {
    // a link there is replaced (the holder's name is written into it), never followed
    file = openOwnFile(path, { read: true, write: true, create: true, mode: 0o644, replace: true });
  } catch (err) {
    throw new HarnessError(
      `cannot lock session ${id}: ${(err as Error).message}`,
      "check that the session directory is writable (or set HARNESS_SESSIONS)",
    );
  }
  const started = Date.now();
  let told = false;
  let pause = 10;
  for (;;) {
    let locked = false;
    try {
      locked = file.tryLockSync(true);
    } catch (err) {
      file.close();
      opts.onUnsupported?.(`cannot lock session ${id}: ${(err as Error).message}`);
      return { release() {} };
    }
    if (locked) break;
    const waited = Date.now() - started;
    if (opts.signal?.aborted) {
      file.close();
      throw new HarnessError(
        `cancelled while waiting for session ${id} (${lockHolder(dir)} is running a turn in it)`,
        "",
        130,
      );
    }
    if (waited >= opts.waitMs) {
      file.close();
      throw sessionBusy(id, lockHolder(dir), waited);
    }
    if (!told) {
      told = true;
      opts.onWait?.(lockHolder(dir));
    }
    await sleep(Math.min(pause, opts.waitMs - waited), opts.signal);
    pause = Math.min(pause * 2, 200);
  }
  try {
    file.truncateSync(0);
    const text = `pid=${Deno.pid}\nsince=${new Date().toISOString()}\n`;
    file.writeSync(new TextEncoder().encode(text));
  } catch { /* the holder's name is a courtesy */ }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        file.truncateSync(0);
      } catch { /* ignore */ }
      try {
        file.unlockSync();
      } catch { /* closing releases it too */ }
      file.close();
    },
  };
}
