/**
 * The `--describe` lines of executable commands, kept in `$HARNESS_HOME/cache/describe.json`
 * keyed by the executable's path, mtime, size and inode: `hs help` spawns a command for its
 * line only when the file changed since the line was read (or was never read).
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import { atomicWriteSync, readTextOrUndefined, statOrUndefined } from "../../core/base/mod.ts";

interface Entry {
  key: string;
  line: string;
}

/** What identifies one version of an executable; undefined when it cannot be stat'ed. */
function fileKey(path: string): string | undefined {
  const st = statOrUndefined(path);
  return st ? `${st.mtime?.getTime() ?? 0}:${st.size}:${st.ino ?? 0}` : undefined;
}

/** The cache of one HARNESS_HOME. */
export class DescribeCache {
  readonly #file: string;
  #entries: Record<string, Entry> | undefined;
  #dirty = false;

  constructor(home: string) {
    this.#file = join(home, "cache", "describe.json");
  }

  #read(): Record<string, Entry> {
    if (this.#entries) return this.#entries;
    try {
      const data = JSON.parse(readTextOrUndefined(this.#file) ?? "{}");
      this.#entries = data && typeof data.entries === "object" ? data.entries : {};
    } catch {
      this.#entries = {}; // a broken cache is rebuilt
    }
    return this.#entries!;
  }

  /** The line read from `path` while it was the file it is now; undefined otherwise. */
  get(path: string): string | undefined {
    const e = this.#read()[path];
    const key = fileKey(path);
    return e && key && e.key === key && typeof e.line === "string" ? e.line : undefined;
  }

  /** Records the line read from `path` now. */
  set(path: string, line: string): void {
    const key = fileKey(path);
    if (!key) return;
    this.#read()[path] = { key, line };
    this.#dirty = true;
  }

  /** Writes the cache when it changed; a home that cannot be written keeps none. */
  save(): void {
    if (!this.#dirty) return;
    try {
      Deno.mkdirSync(join(this.#file, ".."), { recursive: true });
      atomicWriteSync(this.#file, JSON.stringify({ version: 1, entries: this.#entries }), {
        mode: 0o600,
      });
      this.#dirty = false;
    } catch { /* read-only home: the next help spawns again */ }
  }
}
