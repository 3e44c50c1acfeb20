/**
 * The memory store: one markdown file per entry in a directory
 * (`<name>.md`: a `description:` frontmatter line, then the content), written
 * atomically (temp file + rename) with mode 0600.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import { HarnessError } from "../../core/mod.ts";

/** One memory entry. */
export interface MemoryEntry {
  name: string;
  description: string;
  content: string;
  /** Last change, ms since the epoch. */
  updated: number;
}

/** Entry names: lowercase letters, digits, `_` and `-`. */
export const MEMORY_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function render(e: { description: string; content: string }): string {
  const desc = e.description.replace(/\s+/g, " ").trim();
  return `---\ndescription: ${JSON.stringify(desc)}\n---\n${e.content.replace(/\n*$/, "\n")}`;
}

function parse(name: string, text: string, updated: number): MemoryEntry {
  const m = /^---\ndescription: (.*)\n---\n([\s\S]*)$/.exec(text);
  if (!m) return { name, description: "", content: text, updated };
  let description = m[1];
  try {
    description = JSON.parse(m[1]);
  } catch { /* a hand-written description without quotes */ }
  return { name, description, content: m[2], updated };
}

/** Memory entries in a directory. */
export class MemoryStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  #path(name: string): string {
    if (!MEMORY_NAME.test(name)) {
      throw new HarnessError(
        `invalid memory name "${name}"`,
        "use 1-64 lowercase letters, digits, _ or -",
      );
    }
    return join(this.dir, `${name}.md`);
  }

  /** Every entry, sorted by name. */
  list(): MemoryEntry[] {
    let names: string[];
    try {
      names = [...Deno.readDirSync(this.dir)].filter((e) => e.isFile && e.name.endsWith(".md"))
        .map((e) => e.name.slice(0, -3)).filter((n) => MEMORY_NAME.test(n)).sort();
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
    return names.flatMap((n) => {
      const e = this.get(n);
      return e ? [e] : [];
    });
  }

  /** One entry, or undefined. */
  get(name: string): MemoryEntry | undefined {
    const path = this.#path(name);
    try {
      const text = Deno.readTextFileSync(path);
      return parse(name, text, Deno.statSync(path).mtime?.getTime() ?? 0);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }
  }

  /** Creates or replaces an entry; `mtime` keeps a synced entry's time. */
  put(name: string, description: string, content: string, mtime?: number): void {
    const path = this.#path(name);
    Deno.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${crypto.randomUUID()}.tmp`;
    Deno.writeTextFileSync(tmp, render({ description, content }), { mode: 0o600 });
    if (mtime !== undefined) Deno.utimeSync(tmp, new Date(mtime), new Date(mtime));
    Deno.renameSync(tmp, path);
    this.#revive(name);
  }

  /**
   * Removes an entry and leaves a tombstone (`.tombstones/<name>`, its time the deletion's) so
   * that a sync deletes it on the other side too; false when there was none.
   */
  delete(name: string, at = Date.now()): boolean {
    const path = this.#path(name);
    let existed = true;
    try {
      Deno.removeSync(path);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
      existed = false;
    }
    this.#tombstone(name, at);
    return existed;
  }

  /** When entry `name` was deleted here (its tombstone's time), if it was. */
  deletedAt(name: string): number | undefined {
    try {
      return Deno.statSync(this.#tombstonePath(name)).mtime?.getTime() ?? 0;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }
  }

  /** The names deleted here (those with a tombstone), with the time of their deletion. */
  tombstones(): Map<string, number> {
    const out = new Map<string, number>();
    try {
      for (const e of Deno.readDirSync(join(this.dir, TOMBSTONES))) {
        if (!e.isFile || !MEMORY_NAME.test(e.name)) continue;
        out.set(e.name, this.deletedAt(e.name) ?? 0);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return out;
  }

  #tombstonePath(name: string): string {
    this.#path(name); // validates the name
    return join(this.dir, TOMBSTONES, name);
  }

  #tombstone(name: string, at: number): void {
    const path = this.#tombstonePath(name);
    Deno.mkdirSync(join(this.dir, TOMBSTONES), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, "", { mode: 0o600 });
    Deno.utimeSync(path, new Date(at), new Date(at));
  }

  /** Forgets the tombstone of `name` (it exists again). */
  #revive(name: string): void {
    try {
      Deno.removeSync(this.#tombstonePath(name));
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
}

/** The directory of a store's tombstones (deleted entries, for sync). */
const TOMBSTONES = ".tombstones";

/**
 * Two-way sync by modification time: for each name, the latest event on either side wins — an
 * entry written later is copied to the other side, a deletion later than the other side's
 * entry deletes it there (the tombstone goes along, so the entry does not come back). Returns
 * how many entries were copied or deleted.
 */
export function syncStores(a: MemoryStore, b: MemoryStore): number {
  let changed = 0;
  const side = (s: MemoryStore) => ({
    entries: new Map(s.list().map((e) => [e.name, e])),
    deleted: s.tombstones(),
  });
  const l = side(a);
  const r = side(b);
  const names = new Set([
    ...l.entries.keys(),
    ...r.entries.keys(),
    ...l.deleted.keys(),
    ...r.deleted.keys(),
  ]);
  for (const name of names) {
    const le = l.entries.get(name);
    const re = r.entries.get(name);
    const ld = l.deleted.get(name) ?? -Infinity;
    const rd = r.deleted.get(name) ?? -Infinity;
    const written = Math.max(le?.updated ?? -Infinity, re?.updated ?? -Infinity);
    const deleted = Math.max(ld, rd);
    if (deleted >= written) {
      // deleted last: gone on both sides, both keep the tombstone
      if (le || ld < deleted) a.delete(name, deleted);
      if (re || rd < deleted) b.delete(name, deleted);
      if (le) changed++;
      if (re) changed++;
      continue;
    }
    const newest = (le?.updated ?? -Infinity) >= (re?.updated ?? -Infinity) ? le! : re!;
    if (newest !== le && (!le || le.updated < newest.updated)) {
      a.put(name, newest.description, newest.content, newest.updated);
      changed++;
    }
    if (newest !== re && (!re || re.updated < newest.updated)) {
      b.put(name, newest.description, newest.content, newest.updated);
      changed++;
    }
  }
  return changed;
}
