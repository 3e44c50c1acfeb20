/**
 * Where things are: the harness installation, `$HARNESS_HOME`, the sessions
 * directory and the log (PROTOCOLS "Environment").
 *
 * @module
 */
import { basename, dirname, filePathOf, join } from "../early/mod.ts";
import { chooseSessionsDir, type SessionsPlace } from "./sessions_place.ts";

/** This module's path in a source checkout (in a bundle, the module is the bundle file). */
const SOURCE_PATH = "/core/base/paths.ts";

/**
 * Where the harness is installed: the repository root, the bundle's directory, or the
 * compiled binary's.
 */
export const HARNESS_ROOT: string = (() => {
  const url = new URL(import.meta.url);
  if (url.protocol !== "file:") return dirname(Deno.execPath());
  const path = filePathOf(url)!;
  return path.endsWith(SOURCE_PATH) ? path.slice(0, -SOURCE_PATH.length) || "/" : dirname(path);
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
 * `$HARNESS_HOME` (default `~/.harness`) alone: what {@link resolvePaths} gives as `home`,
 * without choosing the sessions directory (which reads the disk).
 */
export function harnessHome(env: Record<string, string | undefined>): string {
  return env.HARNESS_HOME || join(env.HOME ?? "/", ".harness");
}

/**
 * Resolves HARNESS_HOME (default ~/.harness) and HARNESS_SESSIONS (the user's, a trusted
 * workspace's `.harness/sessions`, else `<home>/sessions`: see sessions_place.ts).
 */
export function resolvePaths(env: Record<string, string | undefined>, cwd: string): Paths {
  const home = harnessHome(env);
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

/** True when `path` exists (without following a final symlink's target). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `--allow-<name>` for every permission this process holds whole (a bundle run again). */
function heldPermissionFlags(): string[] {
  const names = ["read", "write", "net", "env", "run", "sys", "ffi", "import"] as const;
  return names.filter((name) => {
    try {
      return Deno.permissions.querySync({ name }).state === "granted";
    } catch {
      return false;
    }
  }).map((n) => `--allow-${n}`);
}

/**
 * V8's flags of every run of hs (deno.json `tasks.hs`, the release's flags of scripts/build.ts,
 * {@link selfCommand}): a young generation of at most 2 MB per semi-space (V8's default grows to
 * 16 MB), for each of the process's isolates (the launcher's, the harness worker's, the file
 * worker's): a one-tool turn peaks ~6 MB lower at the same CPU. A child hs holds the same.
 */
export const V8_FLAGS = "--v8-flags=--max-semi-space-size=2";

/**
 * How to run this hs again, as argv: the compiled binary itself; else this checkout's
 * launcher (`deno task hs`'s command, with the checkout's `deno.json`, so it runs from any
 * directory, and `--cached-only` when the installed `hs` runs: HS_CACHED_ONLY=1); else this
 * module graph (a bundle) under the permissions this process holds — never more.
 * `$HARNESS_ROOT/bin/harness` runs it (core/harness_root.ts).
 */
export function selfCommand(env: Record<string, string | undefined>): string[] {
  const exe = Deno.execPath();
  if (!/^deno(\.exe)?$/.test(basename(exe))) return [exe];
  const launch = join(HARNESS_ROOT, "launch.ts");
  const config = join(HARNESS_ROOT, "deno.json");
  if (exists(launch) && exists(config)) {
    const cached = env.HS_CACHED_ONLY === "1" ? ["--cached-only"] : [];
    return [exe, "run", "-q", "--config", config, ...cached, V8_FLAGS, "-P=launcher", launch];
  }
  return [exe, "run", "-q", V8_FLAGS, ...heldPermissionFlags(), Deno.mainModule];
}
