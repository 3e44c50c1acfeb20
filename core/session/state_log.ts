/**
 * Behavior state logs on disk (seed 000 §5): an append-only list of JSON
 * entries, stored as chunk files of at most {@link CHUNK_ENTRIES} lines
 * (`<first index, 10 digits>.jsonl`) in one directory. Every write replaces
 * one chunk atomically — a temp file in the same directory, fsync'd when the
 * log is durable, then renamed over the chunk, then the directory fsync'd —
 * so a crash (even `kill -9` between two syscalls) leaves either the old or
 * the new chunk, never a torn one; a leftover temp file is ignored.
 *
 * Writers in several processes take an exclusive lock (`.lock`, flock) for
 * the append and compare the last chunk with the one they last saw: when
 * another process appended meanwhile, the append is refused as stale and the
 * log reloads the new entries.
 *
 * Session logs live in `<session>/plugin-state/<pack>/`, project and global
 * logs under `$HARNESS_HOME/plugin-state/`; private logs use
 * {@link MemoryStateLog}.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import {
  HarnessError,
  isOwnFile,
  type Json,
  listDir,
  openOwnFile,
  readOwnTextOrWhy,
  reportRefused,
} from "../base/mod.ts";

/** Entries per chunk file. */
export const CHUNK_ENTRIES = 512;

const CHUNK = /^\d{10}\.jsonl$/;

/** One entry: a JSON object. */
export type LogEntry = { [k: string]: Json };

/** Another writer appended since this log was read: nothing was written. */
export class StaleLogError extends Error {
  /** The revision on disk. */
  readonly diskRevision: number;
  /** A stale append. */
  constructor(diskRevision: number) {
    super(`stale revision: the log moved to revision ${diskRevision}`);
    this.name = "StaleLogError";
    this.diskRevision = diskRevision;
  }
}

/** What a state log offers: its entries, and appending. */
export interface StateLog {
  /** The entries, oldest first. */
  readonly entries: readonly LogEntry[];
  /** The number of entries. */
  readonly revision: number;
  /** Where it lives (undefined in memory). */
  readonly dir?: string;
  /**
   * Appends one entry when the log is still at `expected`; throws
   * {@link StaleLogError} otherwise (nothing is written).
   */
  append(entry: LogEntry, expected: number): void;
  /** Entries another process appended since the last read (file logs; [] otherwise). */
  catchUp(): LogEntry[];
  /** Keeps the first `revision` entries (the rest is dropped). */
  truncate(revision: number): void;
}

/** A log in memory (private state). */
export class MemoryStateLog implements StateLog {
  #entries: LogEntry[] = [];
  readonly dir: undefined = undefined;

  get entries(): readonly LogEntry[] {
    return this.#entries;
  }

  get revision(): number {
    return this.#entries.length;
  }

  append(entry: LogEntry, expected: number): void {
    if (expected !== this.#entries.length) throw new StaleLogError(this.#entries.length);
    this.#entries.push(entry);
  }

  catchUp(): LogEntry[] {
    return [];
  }

  truncate(revision: number): void {
    this.#entries.length = Math.min(this.#entries.length, Math.max(0, revision));
  }
}

function chunkName(first: number): string {
  return `${String(first).padStart(10, "0")}.jsonl`;
}

/** The chunk files of a log: a chunk that is a link or a second name is reported, skipped. */
function chunks(dir: string): string[] {
  return listDir(dir).filter((n) => {
    if (!CHUNK.test(n)) return false;
    if (isOwnFile(join(dir, n))) return true;
    reportRefused(join(dir, n), "it is not hs's own regular file (a link)");
    return false;
  });
}

/** A chunk's text, read without following a link. */
function chunkText(path: string): string {
  const read = readOwnTextOrWhy(path);
  if ("text" in read) return read.text;
  throw new HarnessError(
    `${path}: ${"refused" in read ? `refused (${read.refused})` : "vanished while read"}`,
    "move the log directory aside to start that state again",
  );
}

function parseChunk(path: string, text: string): LogEntry[] {
  const out: LogEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    try {
      out.push(JSON.parse(line) as LogEntry);
    } catch {
      throw new HarnessError(
        `${path}:${i + 1}: not a JSON entry (the state log was changed outside hs)`,
        "move the file aside to start that state again from the entries before it",
      );
    }
  }
  return out;
}

/** Writes `text` to `path` atomically: temp file (fsync'd when durable), rename, dir fsync. */
export function writeAtomic(dir: string, path: string, text: string, durable: boolean): void {
  const tmp = join(dir, `.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const f = Deno.openSync(tmp, { write: true, createNew: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(text);
    let off = 0;
    while (off < bytes.length) off += f.writeSync(bytes.subarray(off));
    if (durable) f.syncSync();
  } catch (err) {
    f.close();
    try {
      Deno.removeSync(tmp);
    } catch { /* gone */ }
    throw err;
  }
  f.close();
  Deno.renameSync(tmp, path);
  if (durable) syncDir(dir);
}

function syncDir(dir: string): void {
  try {
    const d = Deno.openSync(dir, { read: true });
    try {
      d.syncSync();
    } finally {
      d.close();
    }
  } catch { /* a file system without directory fsync */ }
}

interface Seen {
  name: string;
  ino: number | null;
  size: number;
}

function lastSeen(dir: string): Seen | undefined {
  const name = chunks(dir).at(-1);
  if (!name) return undefined;
  try {
    const info = Deno.lstatSync(join(dir, name));
    return { name, ino: info.ino, size: info.size };
  } catch {
    return undefined;
  }
}

function same(a: Seen | undefined, b: Seen | undefined): boolean {
  if (!a || !b) return a === b;
  return a.name === b.name && a.ino === b.ino && a.size === b.size;
}

/** Reads every entry of a log directory (none when it does not exist). */
export function readLogDir(dir: string): LogEntry[] {
  const out: LogEntry[] = [];
  for (const name of chunks(dir)) {
    const path = join(dir, name);
    const first = Number.parseInt(name, 10);
    if (first !== out.length) {
      throw new HarnessError(
        `${path}: the chunk starts at entry ${first}, expected ${out.length} (a chunk is missing)`,
        "move the log directory aside to start that state again",
      );
    }
    for (const e of parseChunk(path, chunkText(path))) out.push(e);
  }
  return out;
}

/** The revision of a log directory without parsing it (0 when there is none). */
export function logDirRevision(dir: string): number {
  const name = chunks(dir).at(-1);
  if (!name) return 0;
  const text = chunkText(join(dir, name));
  let lines = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines++;
  return Number.parseInt(name, 10) + lines;
}

/**
 * Writes `entries` as a new log directory at `dir` (which must not exist): built in a temp
 * directory beside it, then renamed into place.
 */
export function writeLogDir(dir: string, entries: readonly LogEntry[], durable = false): void {
  const parent = join(dir, "..");
  Deno.mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.${crypto.randomUUID().slice(0, 8)}.tmpdir`);
  Deno.mkdirSync(tmp);
  for (let first = 0; first < entries.length; first += CHUNK_ENTRIES) {
    const lines = entries.slice(first, first + CHUNK_ENTRIES).map((e) => JSON.stringify(e) + "\n");
    writeAtomic(tmp, join(tmp, chunkName(first)), lines.join(""), durable);
  }
  Deno.renameSync(tmp, dir);
  if (durable) syncDir(parent);
}

/** A log in a directory of chunk files. */
export class FileStateLog implements StateLog {
  readonly dir: string;
  /** True when writes are fsync'd (file and directory) before they count. */
  readonly durable: boolean;
  #entries: LogEntry[];
  /** The last chunk as this log last read or wrote it. */
  #seen: Seen | undefined;
  /** Lines of the last chunk (to rewrite it with one more). */
  #tail: string[] = [];

  private constructor(dir: string, durable: boolean, entries: LogEntry[]) {
    this.dir = dir;
    this.durable = durable;
    this.#entries = entries;
  }

  /** Opens (or starts) the log in `dir`. `durable`: fsync every write. */
  static open(dir: string, opts: { durable?: boolean } = {}): FileStateLog {
    Deno.mkdirSync(dir, { recursive: true });
    const seen = lastSeen(dir);
    const log = new FileStateLog(dir, opts.durable === true, readLogDir(dir));
    log.#remember(seen);
    return log;
  }

  get entries(): readonly LogEntry[] {
    return this.#entries;
  }

  get revision(): number {
    return this.#entries.length;
  }

  #remember(seen: Seen | undefined): void {
    this.#seen = seen;
    const first = seen ? Number.parseInt(seen.name, 10) : 0;
    this.#tail = this.#entries.slice(first).map((e) => JSON.stringify(e) + "\n");
  }

  #lock<T>(fn: () => T): T {
    const f = openOwnFile(join(this.dir, ".lock"), {
      read: true,
      write: true,
      create: true,
      mode: 0o600,
      replace: true,
    });
    try {
      f.lockSync(true);
      return fn();
    } finally {
      f.close(); // closing releases the lock
    }
  }

  /** Reloads the log when another process changed it; the new entries. */
  #refresh(): LogEntry[] {
    const seen = lastSeen(this.dir);
    if (same(seen, this.#seen)) return [];
    const all = readLogDir(this.dir);
    const known = this.#entries.length;
    const fresh = all.length >= known ? all.slice(known) : [];
    this.#entries = all;
    this.#remember(seen);
    return fresh;
  }

  catchUp(): LogEntry[] {
    return this.#refresh();
  }

  append(entry: LogEntry, expected: number): void {
    this.#lock(() => {
      this.#refresh();
      if (expected !== this.#entries.length) throw new StaleLogError(this.#entries.length);
      const n = this.#entries.length;
      const line = JSON.stringify(entry) + "\n";
      const first = n - (n % CHUNK_ENTRIES);
      const tail = first === n ? [line] : [...this.#tail, line];
      const path = join(this.dir, chunkName(first));
      writeAtomic(this.dir, path, tail.join(""), this.durable);
      this.#entries.push(entry);
      this.#tail = tail;
      const info = Deno.lstatSync(path);
      this.#seen = { name: chunkName(first), ino: info.ino, size: info.size };
    });
  }

  truncate(revision: number): void {
    this.#lock(() => {
      const keep = this.#entries.slice(0, Math.max(0, revision));
      // highest first: a crash part-way leaves a shorter prefix of the log, never a gap
      for (const name of chunks(this.dir).reverse()) {
        if (Number.parseInt(name, 10) >= keep.length) Deno.removeSync(join(this.dir, name));
      }
      const first = keep.length - (keep.length % CHUNK_ENTRIES);
      if (first < keep.length) {
        const lines = keep.slice(first).map((e) => JSON.stringify(e) + "\n");
        writeAtomic(this.dir, join(this.dir, chunkName(first)), lines.join(""), this.durable);
      }
      this.#entries = keep;
      this.#remember(lastSeen(this.dir));
    });
  }
}
