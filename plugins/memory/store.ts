/**
 * The memory store: one markdown file per entry in a directory
 * (`<name>.md`: a `description:` frontmatter line, then the content), written
 * atomically (temp file + rename) with mode 0600.
 *
 * @module
 */
import { join } from "node:path";
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
  }

  /** Removes an entry; false when there was none. */
  delete(name: string): boolean {
    try {
      Deno.removeSync(this.#path(name));
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return false;
      throw err;
    }
  }
}

/**
 * Two-way sync by modification time: an entry missing on one side, or older there, is
 * copied from the other. Deletions are not propagated (a deleted entry comes back from
 * the other side until it is deleted there too). Returns how many entries were copied.
 */
export function syncStores(a: MemoryStore, b: MemoryStore): number {
  let copied = 0;
  const left = new Map(a.list().map((e) => [e.name, e]));
  const right = new Map(b.list().map((e) => [e.name, e]));
  for (const [name, e] of left) {
    const o = right.get(name);
    if (!o || o.updated < e.updated) {
      b.put(name, e.description, e.content, e.updated);
      copied++;
    }
  }
  for (const [name, e] of right) {
    const o = left.get(name);
    if (!o || o.updated < e.updated) {
      a.put(name, e.description, e.content, e.updated);
      copied++;
    }
  }
  return copied;
}
