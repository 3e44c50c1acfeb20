/**
 * Small file-system helpers: atomic writes, existence and executability.
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";

/** Writes a file atomically: temp file in the same directory, then rename. */
export async function atomicWrite(
  path: string,
  data: string | Uint8Array,
  opts: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    if (typeof data === "string") {
      await Deno.writeTextFile(tmp, data, { mode: opts.mode ?? 0o644, createNew: true });
    } else {
      await Deno.writeFile(tmp, data, { mode: opts.mode ?? 0o644, createNew: true });
    }
    if (opts.mode !== undefined) await Deno.chmod(tmp, opts.mode);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Synchronous variant of {@link atomicWrite}. */
export function atomicWriteSync(path: string, data: string, opts: { mode?: number } = {}): void {
  const tmp = join(dirname(path), `.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.writeTextFileSync(tmp, data, { mode: opts.mode ?? 0o644, createNew: true });
    if (opts.mode !== undefined) Deno.chmodSync(tmp, opts.mode);
    Deno.renameSync(tmp, path);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* already gone */ }
    throw err;
  }
}

/** stat that returns undefined instead of throwing NotFound. */
export function statOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** lstat that returns undefined instead of throwing (a link itself, never what it points to). */
export function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The real path of `path`, or `path` itself when it cannot be resolved (missing, unreadable). */
export function realPathOrSelf(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** True when `path` is `dir` or inside it (absolute, normalised paths). */
export function isWithin(path: string, dir: string): boolean {
  if (dir === "/") return path.startsWith("/");
  return path === dir || path.startsWith(dir + "/");
}

/** True for a regular file with any execute bit set. */
export function isExecutableInfo(info: Deno.FileInfo): boolean {
  return info.isFile && info.mode !== null && (info.mode & 0o111) !== 0;
}

/** Lists a directory's entry names, sorted in byte order; [] when it does not exist. */
export function listDir(path: string): string[] {
  try {
    const names: string[] = [];
    for (const e of Deno.readDirSync(path)) names.push(e.name);
    return names.sort(byteOrder);
  } catch {
    return [];
  }
}

/** Byte-order comparison (LC_ALL=C sort). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads a text file or returns undefined. */
export function readTextOrUndefined(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** Entry kinds of a directory listing. */
export interface DirEntries {
  /** Names of the subdirectories (a symlink to a directory counts). */
  dirs: Set<string>;
  /** Names of the regular files (a symlink to a file counts). */
  files: Set<string>;
  /** Every name (including symlinks), sorted in byte order. */
  names: string[];
}

const entryCache = new Map<string, { mtime: number; entries: DirEntries }>();

/**
 * Mtimes have millisecond precision here: a change in the same millisecond
 * as a read would go unnoticed, so a stamp taken within this window of the
 * mtime is not trusted on the next check.
 */
export const MTIME_SLACK_MS = 3;

/**
 * Lists a directory, cached by its mtime. Returns undefined when it is not a
 * directory. Symlinks are resolved (one stat each) so that a linked directory
 * counts as a directory.
 */
export function dirEntries(dir: string): DirEntries | undefined {
  const info = statOrUndefined(dir);
  if (!info?.isDirectory) return undefined;
  const mtime = info.mtime?.getTime() ?? 0;
  const hit = entryCache.get(dir);
  if (hit && hit.mtime === mtime) return hit.entries;
  const entries: DirEntries = { dirs: new Set(), files: new Set(), names: [] };
  try {
    for (const e of Deno.readDirSync(dir)) {
      entries.names.push(e.name);
      let isDir = e.isDirectory;
      let isFile = e.isFile;
      if (e.isSymlink) {
        const target = statOrUndefined(`${dir}/${e.name}`);
        isDir = target?.isDirectory ?? false;
        isFile = target?.isFile ?? false;
      }
      if (isDir) entries.dirs.add(e.name);
      else if (isFile) entries.files.add(e.name);
    }
  } catch {
    return undefined;
  }
  entries.names.sort(byteOrder);
  if (Date.now() - mtime > MTIME_SLACK_MS) entryCache.set(dir, { mtime, entries });
  else entryCache.delete(dir);
  return entries;
}

/**
 * What `dir/name` is: from the cached listing of `dir` or, when `dir` cannot be
 * listed (a process narrowed by the launcher may read `/work/.harness` but not
 * `/work`), from a stat of the child itself.
 */
export function childKind(dir: string, name: string): "dir" | "file" | undefined {
  const e = dirEntries(dir);
  if (e) return e.dirs.has(name) ? "dir" : e.files.has(name) ? "file" : undefined;
  const info = statOrUndefined(dir === "/" ? `/${name}` : `${dir}/${name}`);
  return info?.isDirectory ? "dir" : info?.isFile ? "file" : undefined;
}
