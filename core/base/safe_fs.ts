/**
 * hs's own state is never reached through a link (DESIGN "Containment", docs/security.md).
 * Session files, `.stream`, the session and state-log locks, `trust.json`, `.auth.json`
 * and plugin-state chunks are opened only through these helpers, which refuse a name
 * that is a symbolic link, anything but a regular file, and a file with more than one
 * name (a hard link made elsewhere: `ln ~/.harness/.auth.json messages/0900-user.md`).
 *
 * Deno has no `O_NOFOLLOW`, so a file is checked with `lstat`, opened, and checked
 * again with `fstat` on the handle: the same device and inode, a regular file, one
 * link. A name swapped for a link between the two is caught by the second check.
 * Nothing is opened with `truncate`: a handle is truncated only once it passed. New
 * files are created with `createNew` (`O_EXCL`, which never follows a link), and
 * whole-file writes use `atomicWriteSync` (fsutil.ts): a temp file and a rename, which
 * replaces a link instead of writing through it.
 *
 * A refused file is reported once per process as a warning naming the path and why
 * (never its content) and is skipped by the caller.
 *
 * @module
 */
/** Why a name is not hs's own regular file, or undefined when it is. */
export function ownFileProblem(info: Deno.FileInfo): string | undefined {
  if (info.isSymlink) return "it is a symbolic link";
  if (!info.isFile) return "it is not a regular file";
  if ((info.nlink ?? 1) > 1) return `it is a hard link (${info.nlink} names share it)`;
  return undefined;
}

/** A file hs refused to open (see {@link ownFileProblem}). */
export class RefusedFileError extends Error {
  /** The refused path. */
  readonly path: string;
  /** Why it was refused. */
  readonly why: string;
  /** A refusal of `path`. */
  constructor(path: string, why: string) {
    super(`refused ${path}: ${why}`);
    this.name = "RefusedFileError";
    this.path = path;
    this.why = why;
  }
}

/** Receives one refusal warning line. */
export type RefusalSink = (line: string) => void;

const told = new Set<string>();
let sink: RefusalSink = (line) => {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
  } catch { /* no stderr */ }
};

/** Where refusal warnings go (default: stderr). Returns the previous sink. */
export function setRefusalSink(next: RefusalSink): RefusalSink {
  const prev = sink;
  sink = next;
  return prev;
}

/** Control characters shown as `\xNN`, so a planted file name cannot drive the terminal. */
function visible(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`);
}

/** Reports a refused file once per process (path and reason, never its content). */
export function reportRefused(path: string, why: string, what = "skipped"): void {
  const key = `${path}\0${why}`;
  if (told.has(key)) return;
  told.add(key);
  sink(
    `warning: hs refused ${visible(path)}: ${why}; hs never reads or writes its own state ` +
      `through a link (${what})`,
  );
}

function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** True when `path` is a directory itself, not a link to one. */
export function isOwnDir(path: string): boolean {
  const info = lstatOrUndefined(path);
  return info !== undefined && info.isDirectory && !info.isSymlink;
}

/** True when `path` is a regular file with one name (no report). */
export function isOwnFile(path: string): boolean {
  const info = lstatOrUndefined(path);
  return info !== undefined && ownFileProblem(info) === undefined;
}

/** The handle passed when it is the file `before` described, a regular file with one name. */
function checkHandle(file: Deno.FsFile, path: string, before: Deno.FileInfo): Deno.FileInfo {
  const now = file.statSync();
  const why = ownFileProblem(now) ??
    (now.dev !== before.dev || now.ino !== before.ino
      ? "it was replaced while it was being opened"
      : undefined);
  if (why) {
    file.close();
    throw new RefusedFileError(path, why);
  }
  return now;
}

/** How to open an own file. */
export interface OwnOpenOptions {
  /** Open for reading. */
  read?: boolean;
  /** Open for writing (never truncated on open: call `truncateSync` on the handle). */
  write?: boolean;
  /** Open for appending. */
  append?: boolean;
  /** Create it when it does not exist (exclusively). */
  create?: boolean;
  /** Mode of a created file. */
  mode?: number;
  /**
   * A name that is not an own file is reported and replaced by a new, empty file
   * (the link itself is removed, what it points at is never touched). Without it the
   * open throws {@link RefusedFileError}.
   */
  replace?: boolean;
}

/**
 * Opens an own file without following a link: lstat, open, fstat (same device and
 * inode, a regular file, one name). Throws {@link RefusedFileError} when refused,
 * `Deno.errors.NotFound` when it is missing and not created.
 */
export function openOwnFile(path: string, opts: OwnOpenOptions): Deno.FsFile {
  return openChecked(path, opts).file;
}

/** {@link openOwnFile} with the handle's fstat (a created file's is read on demand). */
function openChecked(
  path: string,
  opts: OwnOpenOptions,
): { file: Deno.FsFile; info?: Deno.FileInfo } {
  const flags = { read: opts.read, write: opts.write, append: opts.append };
  for (let attempt = 0;; attempt++) {
    const before = lstatOrUndefined(path);
    if (!before) {
      if (!opts.create) throw new Deno.errors.NotFound(`${path}: no such file`);
      try {
        return {
          file: Deno.openSync(path, { ...flags, createNew: true, mode: opts.mode ?? 0o644 }),
        };
      } catch (err) {
        // another process created it meanwhile (or planted something): check what it is
        if (err instanceof Deno.errors.AlreadyExists && attempt < 3) continue;
        throw err;
      }
    }
    const why = ownFileProblem(before);
    if (why) {
      if (!opts.replace || attempt >= 3) throw new RefusedFileError(path, why);
      reportRefused(path, why, "replaced by a new file");
      if (before.isDirectory) throw new RefusedFileError(path, why);
      Deno.removeSync(path);
      continue;
    }
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path, flags);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound && attempt < 3) continue;
      throw err;
    }
    try {
      return { file, info: checkHandle(file, path, before) };
    } catch (err) {
      if (!(err instanceof RefusedFileError) || !opts.replace || attempt >= 3) throw err;
    }
  }
}

/** An own file's text with what was read: its mtime, size and inode. */
export interface OwnText {
  /** The text. */
  text: string;
  /** Its mtime (ms). */
  mtime: number;
  /** Its size in bytes. */
  size: number;
  /** Its inode. */
  ino: number;
}

const DECODER = new TextDecoder();

function readAll(file: Deno.FsFile, size: number): Uint8Array {
  // One byte more than the size: the read that meets the end needs no bigger buffer.
  let buf = new Uint8Array(size + 1);
  let off = 0;
  for (;;) {
    if (off === buf.length) {
      const bigger = new Uint8Array(buf.length * 2);
      bigger.set(buf);
      buf = bigger;
    }
    const n = file.readSync(buf.subarray(off));
    if (n === null || n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

/**
 * Reads an own file (see {@link openOwnFile}) with its mtime, size and inode, from one
 * open. Undefined when it is missing or unreadable; a refused file is reported (unless
 * `quiet`) and undefined too.
 */
export function readOwnFile(path: string, opts: { quiet?: boolean } = {}): OwnText | undefined {
  return readOwn(path, opts, (bytes, info) => ({
    text: DECODER.decode(bytes),
    mtime: info.mtime?.getTime() ?? 0,
    size: info.size,
    ino: info.ino ?? 0,
  }));
}

/** Reads an own file's bytes; undefined when missing, unreadable or refused (reported unless quiet). */
export function readOwnBytes(path: string, opts: { quiet?: boolean } = {}): Uint8Array | undefined {
  return readOwn(path, opts, (bytes) => bytes);
}

/** One checked open and read of an own file, its bytes and stat handed to `shape`. */
function readOwn<T>(
  path: string,
  opts: { quiet?: boolean },
  shape: (bytes: Uint8Array, info: Deno.FileInfo) => T,
): T | undefined {
  let file: Deno.FsFile;
  let info: Deno.FileInfo;
  try {
    const opened = openChecked(path, { read: true });
    file = opened.file;
    info = opened.info ?? file.statSync();
  } catch (err) {
    if (err instanceof RefusedFileError && !opts.quiet) reportRefused(path, err.why);
    return undefined;
  }
  try {
    return shape(readAll(file, info.size), info);
  } catch {
    return undefined;
  } finally {
    file.close();
  }
}

/** Reads an own file's text; undefined when missing, unreadable or refused (reported). */
export function readOwnText(path: string, opts: { quiet?: boolean } = {}): string | undefined {
  return readOwnFile(path, opts)?.text;
}

/**
 * What {@link readOwnText} would say about `path`: "missing", "refused" (reported) or
 * "ok" with the text. For callers whose error differs between the two.
 */
export function readOwnTextOrWhy(
  path: string,
): { text: string } | { missing: true } | { refused: string } {
  const info = lstatOrUndefined(path);
  if (!info) return { missing: true };
  let file: Deno.FsFile;
  try {
    file = openOwnFile(path, { read: true });
  } catch (err) {
    if (err instanceof RefusedFileError) {
      reportRefused(path, err.why);
      return { refused: err.why };
    }
    if (err instanceof Deno.errors.NotFound) return { missing: true };
    throw err;
  }
  try {
    return { text: DECODER.decode(readAll(file, file.statSync().size)) };
  } finally {
    file.close();
  }
}
