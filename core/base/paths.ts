/**
 * Where things are: the harness installation, `$HARNESS_HOME`, the sessions
 * directory and the log (PROTOCOLS "Environment").
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { statOrUndefined } from "./fsutil.ts";

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
  /** `$HARNESS_SESSIONS`: the nearest `.harness/sessions` walking up, else `<home>/sessions`. */
  sessions: string;
  /** `$HARNESS_LOG` (default `<home>/harness.log`). */
  log: string;
}

/** Resolves HARNESS_HOME (default ~/.harness) and HARNESS_SESSIONS (nearest `.harness/sessions`). */
export function resolvePaths(env: Record<string, string | undefined>, cwd: string): Paths {
  const userHome = env.HOME ?? "/";
  const home = env.HARNESS_HOME || join(userHome, ".harness");
  let sessions = env.HARNESS_SESSIONS || "";
  if (!sessions) {
    sessions = join(home, "sessions");
    let cur = cwd;
    for (;;) {
      const candidate = join(cur, ".harness", "sessions");
      if (statOrUndefined(candidate)?.isDirectory) {
        sessions = candidate;
        break;
      }
      const parent = dirname(cur);
      if (parent === cur) break;
      cur = parent;
    }
  }
  const log = env.HARNESS_LOG || join(home, "harness.log");
  return { cwd, home, sessions, log };
}

/** `path` with the user's home directory shown as `~`. */
export function displayPath(path: string, env: Record<string, string | undefined>): string {
  const home = env.HOME;
  return home && home !== "/" && path.startsWith(home + "/") ? `~${path.slice(home.length)}` : path;
}
