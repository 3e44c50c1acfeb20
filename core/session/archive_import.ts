/**
 * `hs session import`: a session archive (archive.ts) verified whole, then written as a new
 * session. Nothing is written before every check passed — the format, each path (relative,
 * no `..`, no empty or hidden-lock segment, no file that is also a directory), each entry a
 * regular file (an archive that names a link is refused), each size and SHA-256, and a
 * `session.conf` whose id is the archive's. The files go into a temp directory of the
 * sessions directory, made for this import (so nothing there can be a link), and the session
 * appears by one rename onto its claimed name: an existing session is never overwritten,
 * and a failed import leaves nothing behind.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { join } from "../early/mod.ts";
import { HarnessError, parseKeyValues } from "../base/mod.ts";
import {
  type ArchiveFile,
  notArchived,
  type SessionArchive,
  SessionArchiveSchema,
  sha256Hex,
} from "./archive.ts";
import { renderConf, type SessionConf } from "./session_dir.ts";
import { archiveFileName } from "./archive_name.ts";

/** A session id an import may create: a file name, never a path. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A refused archive: what is wrong, and that nothing was written. */
function refused(what: string, detail: string): HarnessError {
  return new HarnessError(
    `not imported: ${what} ${detail}`,
    "nothing was written; export the session again (hs session export <id>) and import that file",
  );
}

/** Parses and checks an archive's text (JSON, the schema); throws a HarnessError. */
export function parseArchive(text: string, source: string): SessionArchive {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw refused(source, `is not a whole session archive (${(err as Error).message}; truncated?)`);
  }
  const files = (raw as { files?: unknown })?.files;
  if (Array.isArray(files)) {
    files.forEach((f, i) => {
      const type = (f as { type?: unknown })?.type;
      if (type !== undefined && type !== "file") {
        throw refused(
          source,
          `names ${JSON.stringify(type)} entry ${i} (${
            JSON.stringify((f as { path?: unknown }).path)
          }): ` +
            "an archive holds regular files only, and hs never writes a link",
        );
      }
    });
  }
  const r = SessionArchiveSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue.path.length ? ` at ${issue.path.join(".")}` : "";
    throw refused(source, `is not a session archive (${issue.message}${where})`);
  }
  return r.data as SessionArchive;
}

/** Why a path may not be written under the session directory, or undefined. */
function pathProblem(path: string): string | undefined {
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "it is absolute";
  if (path.includes("\\")) return "it has a backslash";
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) return "it has a control character";
  const segs = path.split("/");
  if (segs.some((s) => s === "..")) return "it climbs out with ..";
  if (segs.some((s) => s === "" || s === ".")) return "it has an empty or . segment";
  if (notArchived(segs.at(-1)!)) return "it is a lock or temp file";
  return undefined;
}

/** Checks every entry (paths, kinds, sizes, hashes); the decoded files, by path. */
export function verifyArchive(a: SessionArchive, source: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  for (const f of a.files) {
    const why = pathProblem(f.path);
    if (why) throw refused(source, `names the path ${JSON.stringify(f.path)}: ${why}`);
    if (out.has(f.path) || dirs.has(f.path)) {
      throw refused(source, `names ${JSON.stringify(f.path)} twice`);
    }
    const segs = f.path.split("/");
    for (let i = 1; i < segs.length; i++) {
      const d = segs.slice(0, i).join("/");
      if (out.has(d)) throw refused(source, `names ${JSON.stringify(d)} as a file and a directory`);
      dirs.add(d);
    }
    out.set(f.path, decoded(f, source));
  }
  const conf = out.get("session.conf");
  if (!conf) throw refused(source, "has no session.conf");
  const id = parseKeyValues(new TextDecoder().decode(conf)).id;
  if (id !== a.id) {
    throw refused(
      source,
      `says it is session ${a.id} but its session.conf says ${id ?? "nothing"}`,
    );
  }
  return out;
}

function decoded(f: ArchiveFile, source: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(f.data, "base64"));
  // base64 that does not round-trip was cut or altered (Buffer skips what it cannot read)
  if (Buffer.from(bytes).toString("base64") !== f.data) {
    throw refused(source, `has damaged content for ${f.path} (not base64; truncated?)`);
  }
  if (bytes.length !== f.size) {
    throw refused(source, `has ${bytes.length} bytes for ${f.path}, ${f.size} announced`);
  }
  if (sha256Hex(bytes) !== f.sha256) {
    throw refused(source, `has content for ${f.path} that does not match its SHA-256`);
  }
  return bytes;
}

/** How to import. */
export interface ImportOptions {
  /** The sessions directory to import into. */
  sessionsDir: string;
  /** Import under this id instead of the archive's (`--as`). */
  as?: string;
  /** True when a session of that id exists (in any workspace group). */
  exists(id: string): boolean;
}

/** Writes the files into a fresh directory `dir` (made here; every name is new). */
function writeTree(dir: string, files: Map<string, Uint8Array>): void {
  Deno.mkdirSync(dir);
  for (const [path, bytes] of files) {
    const segs = path.split("/");
    let d = dir;
    for (const s of segs.slice(0, -1)) {
      d = join(d, s);
      try {
        Deno.mkdirSync(d);
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
      }
    }
    // createNew (O_EXCL) never follows a link; the directory is this import's own
    Deno.writeFileSync(join(d, segs.at(-1)!), bytes, { createNew: true, mode: 0o644 });
  }
}

/** The `session.conf` of a session imported under a new id. */
function renamedConf(bytes: Uint8Array, id: string, from: string): Uint8Array {
  const kv = parseKeyValues(new TextDecoder().decode(bytes)) as SessionConf;
  return new TextEncoder().encode(renderConf({ ...kv, id, imported_from: from }));
}

/**
 * Imports a verified archive as a new session of `opts.sessionsDir`; returns its id and
 * directory. Refuses an id that exists (unless `as` names a new one).
 */
export function importSession(
  a: SessionArchive,
  files: Map<string, Uint8Array>,
  opts: ImportOptions,
): { id: string; dir: string } {
  const id = opts.as ?? a.id;
  if (!ID.test(id)) {
    throw new HarnessError(
      `not imported: ${JSON.stringify(id)} is not a session id (letters, digits, . _ -)`,
      opts.as ? "choose another --as" : "import it under another id: --as NEW_ID",
      opts.as ? 2 : 1,
    );
  }
  const taken = () =>
    new HarnessError(
      `not imported: session ${id} exists already (nothing was overwritten)`,
      `import it under another id: hs session import ${archiveFileName(a.id)} --as ${id}-2`,
    );
  if (opts.exists(id)) throw taken();
  const tree = new Map(files);
  if (id !== a.id) tree.set("session.conf", renamedConf(files.get("session.conf")!, id, a.id));
  Deno.mkdirSync(opts.sessionsDir, { recursive: true });
  const tmp = Deno.makeTempDirSync({ dir: opts.sessionsDir, prefix: ".import-", suffix: ".tmp" });
  const target = join(opts.sessionsDir, id);
  try {
    writeTree(join(tmp, id), tree);
    try {
      Deno.mkdirSync(target); // claims the name: exclusive
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) throw taken();
      throw err;
    }
    // a rename onto the empty directory just claimed: the session appears whole
    try {
      Deno.renameSync(join(tmp, id), target);
    } catch (err) {
      Deno.removeSync(target); // the claim, still empty
      throw err;
    }
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
  return { id, dir: target };
}
