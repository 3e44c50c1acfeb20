/**
 * The in-memory index of a session's `messages/`: parsed entries keyed by file name, in
 * order, so assembling a request re-parses only files it has not seen (or, when asked to
 * validate after an executable hook ran, files whose mtime, size or inode changed). Message
 * files are read through core/base/safe_fs.ts (a link or a second name is never read).
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import { readAttachments } from "./attachments.ts";
import { listDir, MTIME_SLACK_MS, readOwnFile, statOrUndefined } from "../base/mod.ts";
import { contextView, entryOf, type SessionEntry } from "./entries.ts";
import { reportRefusedMessage, sameFile } from "./own_files.ts";

/** How long after a directory change its mtime may not show a further change (clock ticks). */
const COARSE_MTIME_MS = 25;

interface IndexEntry {
  mtime: number;
  size: number;
  ino: number;
  entry: SessionEntry | undefined;
}

/** The message index of one session's `messages/` directory. */
export class MessageIndex {
  #mdir: string;
  #index = new Map<string, IndexEntry>();
  #order: string[] = [];
  /** The context view, until the index changes. */
  #view?: SessionEntry[];
  #nextSeq = 1;
  /** The messages directory's mtime at the last complete listing (undefined: list again). */
  #listedMtime?: number;

  /** The images a user message's `images:` field names, from the session's `attachments/`. */
  #images = (field: string) => readAttachments(dirname(this.#mdir), field);

  /** The index of the messages directory `mdir` (empty until the first refresh). */
  constructor(mdir: string) {
    this.#mdir = mdir;
  }

  /** The next free sequence number as the index knows it. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Number of message files. */
  get count(): number {
    return this.#order.length;
  }

  /**
   * Brings the index up to date with `messages/`. With `validate`, files already indexed
   * are re-stat'ed (an executable hook may have edited them). With `sweep` (the session's
   * lock is held), temp files of a writer that died mid-write are removed.
   */
  refresh(validate: boolean, sweep: boolean): void {
    const mdir = this.#mdir;
    // Listing a large directory costs more than a message write: skip it while the
    // directory's mtime says nothing was added or removed since the last listing.
    const dirMtime = statOrUndefined(mdir)?.mtime?.getTime() ?? -1;
    if (
      !validate && this.#listedMtime === dirMtime && dirMtime >= 0 &&
      !this.#nextTaken(mdir, dirMtime)
    ) return;
    // a file not read (refused, or a message another writer is linking into place) makes
    // the next refresh list again
    let trusted = Date.now() - dirMtime > MTIME_SLACK_MS;
    const all = listDir(mdir);
    const names = all.filter((n) => /^\d+-.*\.md$/.test(n));
    if (sweep && names.length !== all.length) sweepTemps(mdir, all);
    const seen = new Set(names);
    let changed = names.length !== this.#order.length;
    for (const name of names) {
      const known = this.#index.get(name);
      if (known && !validate) continue;
      const path = join(mdir, name);
      if (known && sameFile(path, known)) continue;
      const read = readOwnFile(path, { quiet: true });
      if (!read) {
        // a link or a second name of another file: never read; reported once
        reportRefusedMessage(mdir, name, all);
        trusted = false;
        if (known) this.#index.delete(name);
        changed = true;
        continue;
      }
      this.#index.set(name, {
        mtime: read.mtime,
        size: read.size,
        ino: read.ino,
        entry: entryOf(name, read.text, this.#images),
      });
      changed = true;
    }
    if (changed) {
      this.#view = undefined;
      for (const k of [...this.#index.keys()]) if (!seen.has(k)) this.#index.delete(k);
      const seqOf = new Map(names.map((n) => [n, Number.parseInt(n, 10)]));
      this.#order = names.sort((a, b) => seqOf.get(a)! - seqOf.get(b)! || (a < b ? -1 : 1));
      const last = this.#order.at(-1);
      this.#nextSeq = last ? Number.parseInt(last, 10) + 1 : 1;
    }
    // A stamp taken in the same few ms as the change is not trusted (mtimes are coarse).
    this.#listedMtime = trusted ? dirMtime : undefined;
  }

  /**
   * Whether another writer may have added the next message although the directory's
   * mtime did not move: file system timestamps are coarse (a clock tick, up to ~10 ms),
   * so a file linked within the same tick as our own last write leaves the same mtime.
   * Within that window the next number's files are looked for (three stats, no listing).
   */
  #nextTaken(mdir: string, dirMtime: number): boolean {
    if (Date.now() - dirMtime > COARSE_MTIME_MS) return false;
    const seq = String(this.#nextSeq).padStart(4, "0");
    return ["user", "assistant", "tool_result"].some((role) =>
      statOrUndefined(join(mdir, `${seq}-${role}.md`)) !== undefined
    );
  }

  /** The next refresh lists the directory again. */
  forgetListing(): void {
    this.#listedMtime = undefined;
  }

  /** Every message file's entry in order. */
  entries(): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const name of this.#order) {
      const e = this.#index.get(name)?.entry;
      if (e) out.push(e);
    }
    return out;
  }

  /** The context view of the entries, until the index changes. */
  contextEntries(): SessionEntry[] {
    this.#view ??= contextView(this.entries());
    return this.#view;
  }

  /** Records a message file we (re)wrote at `path` with `text`. */
  wrote(name: string, path: string, text: string): void {
    const info = statOrUndefined(path);
    this.#index.set(name, {
      mtime: info?.mtime?.getTime() ?? 0,
      size: info?.size ?? 0,
      ino: info?.ino ?? 0,
      entry: entryOf(name, text, this.#images),
    });
    this.#view = undefined;
  }

  /** Records a new message file we added as `seq` (after {@link wrote}). */
  added(name: string, seq: number): void {
    this.#order.push(name);
    this.#nextSeq = seq + 1;
    // after a write of ours: the directory holds what the index holds
    if (this.#listedMtime !== undefined) {
      this.#listedMtime = statOrUndefined(this.#mdir)?.mtime?.getTime();
    }
  }
}

/** Removes temp files left by a writer that died between writing and linking. */
function sweepTemps(mdir: string, names: string[]): void {
  for (const name of names) {
    if (!name.startsWith(".") || !name.endsWith(".tmp")) continue;
    try {
      Deno.removeSync(join(mdir, name));
    } catch { /* gone already */ }
  }
}
