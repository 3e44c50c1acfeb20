/**
 * A session's directory: its id, creating it exclusively under the sessions directory,
 * `session.conf` (read through the containment checks, written as `key=value` lines), and
 * the listing of the sessions of a sessions directory.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import {
  HarnessError,
  isOwnDir,
  isOwnFile,
  listDir,
  parseKeyValues,
  readOwnTextOrWhy,
} from "../base/mod.ts";

/** `session.conf` fields. */
export interface SessionConf {
  /** The session's id. */
  id: string;
  /** The model the session uses. */
  model: string;
  /** The provider the session uses. */
  provider: string;
  /** When it was created (ISO 8601, seconds). */
  created: string;
  /** The session's working directory. */
  cwd: string;
  /** Other `key=value` fields, kept as they are. */
  [key: string]: string;
}

/** ISO 8601 with seconds and a numeric offset, like `date -Iseconds`. */
export function isoSeconds(d: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const abs = Math.abs(off);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${
    pad(d.getMinutes())
  }:${pad(d.getSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** New session id: `YYYYmmdd-HHMMSS-<pid>`. */
export function newSessionId(d: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${
    pad(d.getMinutes())
  }${pad(d.getSeconds())}-${Deno.pid}`;
}

/** Ids this process gave out: two sessions it makes (in different groups) never share one. */
const issuedIds = new Set<string>();

/** Claims `id` for a new session; false when this process gave it out already. */
export function claimSessionId(id: string): boolean {
  if (issuedIds.has(id)) return false;
  issuedIds.add(id);
  return true;
}

/**
 * Makes a new session directory (with its `messages/`) under `sessionsDir`: mkdir without
 * `recursive` is exclusive, so a directory someone else made is never shared.
 */
export function makeSessionDir(sessionsDir: string): { id: string; dir: string } {
  try {
    Deno.mkdirSync(sessionsDir, { recursive: true });
  } catch (err) {
    throw new HarnessError(
      `cannot create the sessions directory ${sessionsDir}: ${(err as Error).message}`,
      "set HARNESS_SESSIONS to a writable directory",
    );
  }
  const base = newSessionId();
  let id = base;
  let dir = join(sessionsDir, id);
  // mkdir without `recursive` is exclusive: a directory someone else made is never shared;
  // an id this process gave out already (in another workspace's group) is never reused
  for (let n = 2;; n++) {
    try {
      if (claimSessionId(id)) {
        Deno.mkdirSync(dir);
        Deno.mkdirSync(join(dir, "messages"));
        return { id, dir };
      }
      if (n > 10_000) throw new Deno.errors.AlreadyExists(`${id} was given out`);
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists) || n > 10_000) {
        throw new HarnessError(
          `cannot create session ${dir}: ${(err as Error).message}`,
          "check the permissions of the sessions directory or set HARNESS_SESSIONS",
        );
      }
    }
    id = `${base}-${n}`;
    dir = join(sessionsDir, id);
  }
}

/**
 * Reads an existing session directory's `session.conf` (never through a link) and makes
 * sure its `messages/` is a directory of its own.
 */
export function readSessionConf(dir: string): SessionConf {
  const read = isOwnDir(dir) ? readOwnTextOrWhy(join(dir, "session.conf")) : { missing: true };
  if (!("text" in read)) {
    throw new HarnessError(
      "refused" in read
        ? `not a session: ${dir}/session.conf was refused (${read.refused})`
        : `not a session: ${dir} has no session.conf (or is a link)`,
      "list sessions with: hs session list",
    );
  }
  const kv = parseKeyValues(read.text);
  const id = kv.id || dir.split("/").pop()!;
  const conf: SessionConf = {
    ...kv,
    id,
    model: kv.model ?? "",
    provider: kv.provider ?? "",
    created: kv.created ?? "",
    cwd: kv.cwd ?? "",
  };
  Deno.mkdirSync(join(dir, "messages"), { recursive: true });
  if (!isOwnDir(join(dir, "messages"))) {
    throw new HarnessError(
      `refused session ${dir}: its messages/ is a link, not a directory`,
      "hs never reads or writes its own state through a link: move messages/ aside",
    );
  }
  return conf;
}

/** A value of `session.conf`: one line, whatever it was given. */
function confValue(v: string | undefined): string {
  return (v ?? "").replace(/[\r\n]+/g, " ");
}

/** The text of `session.conf`: the known fields first, then the others as they are. */
export function renderConf(conf: SessionConf): string {
  const order = ["id", "model", "provider", "created", "cwd"];
  const keys = [...order, ...Object.keys(conf).filter((k) => !order.includes(k))];
  return keys.map((k) => `${k}=${confValue(conf[k])}`).join("\n") + "\n";
}

/** Lists session ids under a sessions directory, newest first. */
export function listSessions(sessionsDir: string): string[] {
  // a session is a directory itself with its own session.conf: links are not sessions
  return listDir(sessionsDir)
    .filter((n) =>
      isOwnDir(join(sessionsDir, n)) && isOwnFile(join(sessionsDir, n, "session.conf"))
    )
    .sort()
    .reverse();
}
