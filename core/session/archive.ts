/**
 * A session as one portable file (docs/fleet.md "Collecting sessions"): `hs session export`
 * writes a JSON archive — the format's name and version, the session's id, and every file
 * of the session directory with its relative path, size, SHA-256 and content (base64) — and
 * `hs session import` (archive_import.ts) verifies it whole before it writes anything.
 *
 * Export reads the session as hs reads its own state: a name that is a link, not a regular
 * file or a hard link is never followed and never archived (reported once, like every
 * refusal), a linked directory is not entered, and the session lock is held while the files
 * are read, so a turn running in the session is never half-archived (exit code 75).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { join } from "../early/mod.ts";
import { z } from "zod";
import { HarnessError, openOwnFile, ownFileProblem, reportRefused } from "../base/mod.ts";
import { acquireLock, lockHolder, SESSION_BUSY_EXIT } from "./lock.ts";
import { isoSeconds, readSessionConf } from "./session_dir.ts";

/** The `format` of a session archive. */
export const ARCHIVE_FORMAT = "hs-session-archive";
/** The archive version this hs writes and reads. */
export const ARCHIVE_VERSION = 1;
/** One file of an archive. */
export interface ArchiveFile {
  /** Its path relative to the session directory, `/`-separated. */
  path: string;
  /** Always "file": an archive holds regular files only (no links, no devices). */
  type: "file";
  /** Its size in bytes. */
  size: number;
  /** The SHA-256 of its content, lowercase hex. */
  sha256: string;
  /** Its content, base64. */
  data: string;
}

/** A session archive. */
export interface SessionArchive {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  /** The session's id (its `session.conf` `id=`). */
  id: string;
  /** When it was exported (ISO 8601). */
  exported: string;
  /** Every file, sorted by path. */
  files: ArchiveFile[];
}

/** The zod schema of an archive (what import checks before anything else). */
export const SessionArchiveSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  id: z.string().min(1),
  exported: z.string(),
  files: z.array(
    z.object({
      path: z.string().min(1),
      type: z.literal("file"),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits"),
      data: z.string(),
    }).strict(),
  ),
}).strict();

/** Files of a session that are never archived: the lock, a writer's temp files. */
export function notArchived(name: string): boolean {
  return name === ".lock" || (name.startsWith(".") && name.endsWith(".tmp"));
}

/** The SHA-256 of bytes, lowercase hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The bytes of an own file (never through a link), or the reason it was refused. */
function readOwnBytes(path: string): Uint8Array | string {
  let file: Deno.FsFile;
  try {
    file = openOwnFile(path, { read: true });
  } catch (err) {
    return (err as { why?: string }).why ?? (err as Error).message;
  }
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const buf = new Uint8Array(64 * 1024);
      const n = file.readSync(buf);
      if (n === null || n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
    }
    const out = new Uint8Array(total);
    let off = 0;
    for (const c of chunks) {
      out.set(c, off);
      off += c.length;
    }
    return out;
  } finally {
    file.close();
  }
}

/** Every own file under `dir` (relative paths), links and other kinds reported and skipped. */
function walk(dir: string, rel: string, out: ArchiveFile[]): void {
  const names = [...Deno.readDirSync(join(dir, rel))].map((e) => e.name).sort();
  for (const name of names) {
    const r = rel ? `${rel}/${name}` : name;
    if (!rel && notArchived(name)) continue;
    if (rel && name.startsWith(".") && name.endsWith(".tmp")) continue;
    const path = join(dir, r);
    const info = Deno.lstatSync(path);
    if (info.isDirectory) {
      walk(dir, r, out);
      continue;
    }
    const why = ownFileProblem(info);
    if (why) {
      reportRefused(path, why, "not exported");
      continue;
    }
    const bytes = readOwnBytes(path);
    if (typeof bytes === "string") {
      reportRefused(path, bytes, "not exported");
      continue;
    }
    out.push({
      path: r,
      type: "file",
      size: bytes.length,
      sha256: sha256Hex(bytes),
      data: Buffer.from(bytes).toString("base64"),
    });
  }
}

/**
 * The archive of the session in `dir`, read under its lock: a HarnessError with exit code
 * 75 when a turn is running in it.
 */
export async function exportSession(dir: string): Promise<SessionArchive> {
  const conf = readSessionConf(dir);
  let lock;
  try {
    lock = await acquireLock(dir, conf.id, { waitMs: 0 });
  } catch (err) {
    if ((err as HarnessError).exitCode !== SESSION_BUSY_EXIT) throw err;
    throw new HarnessError(
      `session ${conf.id} is busy: ${lockHolder(dir)} is running a turn in it`,
      "export it when that turn has ended (exit code 75: run the export again)",
      SESSION_BUSY_EXIT,
    );
  }
  try {
    const files: ArchiveFile[] = [];
    walk(dir, "", files);
    files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    return {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      id: conf.id,
      exported: isoSeconds(),
      files,
    };
  } finally {
    lock.release();
  }
}

/** An archive's text: one JSON object, one file entry a line (diffable, streamable). */
export function archiveText(a: SessionArchive): string {
  const head = JSON.stringify({ ...a, files: [] }).slice(0, -3);
  const lines = a.files.map((f) => JSON.stringify(f));
  return `${head}[\n${lines.join(",\n")}\n]}\n`;
}
