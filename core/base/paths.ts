/**
 * Where things are: the harness installation, `$HARNESS_HOME`, the sessions
 * directory and the log (PROTOCOLS "Environment").
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chooseSessionsDir, type SessionsPlace } from "./sessions_place.ts";

/** Where the harness is installed (the repository root, or the binary's directory). */
export const HARNESS_ROOT: string = (() => {
  const url = new URL("../..", import.meta.url);
  return url.protocol === "file:"
    ? fileURLToPath(url).replace(/\/$/, "")
    : dirname(Deno.execPath());
})();

/** Resolved locations of one run. */
export interface Paths {
  /** The working directory (the session's, HARNESS_CWD). */
  cwd: string;
  /** `$HARNESS_HOME` (default `~/.harness`). */
  home: string;
  /**
   * `$HARNESS_SESSIONS`: the user's `HARNESS_SESSIONS`, else the nearest `.harness/sessions`
   * walking up that the user trusted (sessions_place.ts), else this workspace's group
   * `<home>/sessions/<workspaceKey>`.
   */
  sessions: string;
  /** The root of the workspace groups and this workspace's real path, when grouped. */
  sessionsGrouped?: SessionsPlace["grouped"];
  /** The nearest workspace `.harness/sessions` that was not used, and why. */
  sessionsSkipped?: SessionsPlace["skipped"];
  /** `$HARNESS_LOG` (default `<home>/harness.log`). */
  log: string;
}

/**
 * Resolves HARNESS_HOME (default ~/.harness) and HARNESS_SESSIONS (the user's, a trusted
 * workspace's `.harness/sessions`, else `<home>/sessions`: see sessions_place.ts).
 */
export function resolvePaths(env: Record<string, string | undefined>, cwd: string): Paths {
  const userHome = env.HOME ?? "/";
  const home = env.HARNESS_HOME || join(userHome, ".harness");
  const place = chooseSessionsDir(env, cwd, home);
  const log = env.HARNESS_LOG || join(home, "harness.log");
  return {
    cwd,
    home,
    sessions: place.sessions,
    ...(place.skipped ? { sessionsSkipped: place.skipped } : {}),
    ...(place.grouped ? { sessionsGrouped: place.grouped } : {}),
    log,
  };
}

/** `path` with the user's home directory shown as `~`. */
export function displayPath(path: string, env: Record<string, string | undefined>): string {
  const home = env.HOME;
  return home && home !== "/" && path.startsWith(home + "/") ? `~${path.slice(home.length)}` : path;
}
