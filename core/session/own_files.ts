/**
 * How the session index checks its message files without following links: a file is
 * known when its name still holds the same inode, mtime and size (lstat: a link put in
 * its place differs), and a message file that was refused is reported once — except
 * while another writer links a message into place (`.<tmp>.tmp` and the message share
 * an inode for a moment; the file is read at the next refresh).
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { ownFileProblem, reportRefused } from "../base/mod.ts";

/** What the index remembers of a message file. */
export interface KnownFile {
  /** mtime (ms) when it was read. */
  mtime: number;
  /** Size when it was read. */
  size: number;
  /** Inode when it was read. */
  ino: number;
}

function lstat(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** True when `path` is still the regular file the index read. */
export function sameFile(path: string, known: KnownFile): boolean {
  const info = lstat(path);
  if (!info || ownFileProblem(info)) return false;
  return known.ino === (info.ino ?? 0) && known.mtime === (info.mtime?.getTime() ?? 0) &&
    known.size === info.size;
}

/**
 * Reports a message file that could not be read as hs's own, unless it is a message
 * another writer is linking into place right now (a temp file of `names` shares its inode).
 */
export function reportRefusedMessage(mdir: string, name: string, names: string[]): void {
  const path = join(mdir, name);
  const info = lstat(path);
  if (!info) return;
  const why = ownFileProblem(info);
  if (!why) return;
  if (info.isFile && (info.nlink ?? 1) === 2) {
    for (const n of names) {
      if (!n.startsWith(".") || !n.endsWith(".tmp")) continue;
      if (lstat(join(mdir, n))?.ino === info.ino) return;
    }
    // the writer may have removed its temp file meanwhile: one name now means it settled
    const again = lstat(path);
    if (again && again.ino === info.ino && !ownFileProblem(again)) return;
  }
  reportRefused(path, why);
}
