/**
 * Small file-system helpers: atomic writes, existence and executability.
 *
 * @module
 */
import { dirname, join } from "node:path";

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
