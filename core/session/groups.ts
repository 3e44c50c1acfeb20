/**
 * Sessions grouped by workspace (docs/sessions.md "Where sessions live"). By default a
 * workspace's sessions live in its group `$HARNESS_HOME/sessions/<workspaceKey>/<id>/`;
 * sessions made before grouping stay flat in `$HARNESS_HOME/sessions/<id>/` and belong to
 * the workspace their `session.conf` names in `cwd=`. A sessions directory the user chose
 * (`HARNESS_SESSIONS`, a trusted `.harness/sessions`) is not grouped: every session in it
 * is this workspace's.
 *
 * Ids are unique across groups (PROTOCOLS "Sessions": `<YYYYmmdd-HHMMSS>-<pid>`), so an id
 * is found in this workspace's group first, then among the flat ones, then in any group.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import {
  isOwnDir,
  isOwnFile,
  listDir,
  parseKeyValues,
  readOwnText,
  type SessionsPlace,
  statOrUndefined,
  workspaceRealPath,
} from "../base/mod.ts";
import { listSessions } from "./session_dir.ts";

/** Where a run's sessions are: `Paths.sessions` and, when grouped, `Paths.sessionsGrouped`. */
export interface SessionsWhere {
  sessions: string;
  sessionsGrouped?: SessionsPlace["grouped"];
}

/** One session found: its id, its directory and the workspace it was made in (`cwd=`). */
export interface StoredSession {
  id: string;
  dir: string;
  /** The `cwd=` of its `session.conf` ("" when unreadable). */
  cwd: string;
}

function cwdOf(dir: string): string {
  const text = readOwnText(join(dir, "session.conf"), { quiet: true });
  return text === undefined ? "" : parseKeyValues(text).cwd ?? "";
}

function refsIn(sessionsDir: string): StoredSession[] {
  return listSessions(sessionsDir).map((id) => {
    const dir = join(sessionsDir, id);
    return { id, dir, cwd: cwdOf(dir) };
  });
}

/** Newest first: ids begin with their creation time. */
function newestFirst(refs: StoredSession[]): StoredSession[] {
  return refs.sort((a, b) => a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The workspace groups under a root: directories that are not themselves sessions. */
function groupsOf(root: string): string[] {
  return listDir(root).filter((n) =>
    isOwnDir(join(root, n)) && !isOwnFile(join(root, n, "session.conf"))
  ).sort();
}

/** The sessions of this workspace, newest first (its group and its flat older ones). */
export function workspaceSessions(where: SessionsWhere): StoredSession[] {
  const g = where.sessionsGrouped;
  if (!g) return refsIn(where.sessions);
  const real = new Map<string, string>();
  const flat = refsIn(g.root).filter((r) => {
    if (!r.cwd) return false;
    if (!real.has(r.cwd)) real.set(r.cwd, workspaceRealPath(r.cwd));
    return real.get(r.cwd) === g.workspace;
  });
  return newestFirst([...refsIn(where.sessions), ...flat]);
}

/** The sessions of every workspace, newest first (this one only, when not grouped). */
export function everySession(where: SessionsWhere): StoredSession[] {
  const g = where.sessionsGrouped;
  if (!g) return refsIn(where.sessions);
  const out = refsIn(g.root);
  for (const group of groupsOf(g.root)) out.push(...refsIn(join(g.root, group)));
  return newestFirst(out);
}

/**
 * The directory of the session `idOrDir` (an id, or a path with a `/`), or undefined when
 * there is none: this workspace's group first, then the flat older sessions, then every
 * other group.
 */
export function findSessionDir(where: SessionsWhere, idOrDir: string): string | undefined {
  // found when it has a session.conf: Session.open refuses (and says why) what is not its own
  const isSession = (dir: string) => statOrUndefined(join(dir, "session.conf")) !== undefined;
  if (idOrDir.includes("/")) return isSession(idOrDir) ? idOrDir : undefined;
  if (!idOrDir || idOrDir === "." || idOrDir === "..") return undefined;
  const here = join(where.sessions, idOrDir);
  if (isSession(here)) return here;
  const g = where.sessionsGrouped;
  if (!g) return undefined;
  for (const parent of [g.root, ...groupsOf(g.root).map((n) => join(g.root, n))]) {
    const dir = join(parent, idOrDir);
    if (isSession(dir)) return dir;
  }
  return undefined;
}
