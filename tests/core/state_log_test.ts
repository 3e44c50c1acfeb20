/**
 * State logs on disk (core/session/state_log.ts): chunks, stale appends between two writers
 * of one directory, truncation, and a chunk missing in the middle.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CHUNK_ENTRIES,
  FileStateLog,
  logDirRevision,
  MemoryStateLog,
  readLogDir,
  StaleLogError,
} from "../../core/session/mod.ts";

async function withDir(fn: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hs-state-log-" });
  try {
    await fn(join(dir, "log"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a file log spans chunks and reopens with every entry", () =>
  withDir((dir) => {
    const log = FileStateLog.open(dir);
    const n = CHUNK_ENTRIES + 10;
    for (let i = 0; i < n; i++) log.append({ i }, i);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((x) => x.endsWith(".jsonl"));
    assert.deepEqual(names.sort(), [
      "0000000000.jsonl",
      `${String(CHUNK_ENTRIES).padStart(10, "0")}.jsonl`,
    ]);
    assert.equal(logDirRevision(dir), n);
    const again = FileStateLog.open(dir);
    assert.equal(again.revision, n);
    assert.deepEqual(again.entries.at(-1), { i: n - 1 });
  }));

Deno.test("'A stale revision does not overwrite': a second writer of the same log is refused, then catches up", () =>
  withDir((dir) => {
    const a = FileStateLog.open(dir);
    const b = FileStateLog.open(dir);
    a.append({ by: "a" }, 0);
    assert.throws(() => b.append({ by: "b" }, 0), StaleLogError);
    assert.deepEqual(readLogDir(dir), [{ by: "a" }], "nothing was written");
    assert.equal(b.revision, 1, "the refused writer reloaded the log");
    b.append({ by: "b" }, 1);
    assert.deepEqual(a.catchUp(), [{ by: "b" }]);
  }));

Deno.test("truncating keeps a prefix (also across a chunk boundary); a memory log does the same", () =>
  withDir((dir) => {
    const log = FileStateLog.open(dir);
    for (let i = 0; i < CHUNK_ENTRIES + 3; i++) log.append({ i }, i);
    log.truncate(5);
    assert.deepEqual(readLogDir(dir), [0, 1, 2, 3, 4].map((i) => ({ i })));
    log.append({ i: 5 }, 5);
    assert.equal(FileStateLog.open(dir).revision, 6);
    const m = new MemoryStateLog();
    m.append({ i: 0 }, 0);
    m.append({ i: 1 }, 1);
    assert.throws(() => m.append({ i: 9 }, 1), StaleLogError);
    m.truncate(1);
    assert.deepEqual(m.entries, [{ i: 0 }]);
  }));

Deno.test("a chunk missing in the middle or a torn line is reported, never read past", () =>
  withDir((dir) => {
    const log = FileStateLog.open(dir);
    for (let i = 0; i < 2 * CHUNK_ENTRIES + 1; i++) log.append({ i }, i);
    const middle = join(dir, `${String(CHUNK_ENTRIES).padStart(10, "0")}.jsonl`);
    const text = Deno.readTextFileSync(middle);
    Deno.writeTextFileSync(middle, text.slice(0, text.length - 4));
    assert.throws(
      () => readLogDir(dir),
      /not a JSON entry \(the state log was changed outside hs\)/,
    );
    Deno.removeSync(middle);
    assert.throws(() => readLogDir(dir), /expected 512 \(a chunk is missing\)/);
  }));
