/**
 * Paths and the `HARNESS_*` environment of hooks, tools, providers and
 * commands (PROTOCOLS "Environment"). Provider credentials never enter it.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { statOrUndefined } from "./fsutil.ts";
import { VERSION } from "./version.ts";

/** Where the harness is installed (the repository root, or the binary's directory). */
export const HARNESS_ROOT: string = (() => {
  const url = new URL("../..", import.meta.url);
  return url.protocol === "file:"
    ? fileURLToPath(url).replace(/\/$/, "")
    : dirname(Deno.execPath());
})();

/** Resolved locations of one run. */
export interface Paths {
  cwd: string;
  home: string;
  sessions: string;
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

/** Variable names that may hold provider credentials. */
const SECRET_NAME = /(^|_)(API_KEY|APIKEY|SECRET|TOKEN|PASSWORD|ACCESS_KEY)($|_)/i;

/**
 * The environment children get: the process environment minus anything that
 * looks like a credential or is named by a provider's `auth_env`, minus any
 * variable whose value equals a known key, plus the `HARNESS_*` variables.
 */
export function childEnv(
  base: Record<string, string | undefined>,
  harness: Record<string, string>,
  secretNames: Iterable<string>,
  secretValues: Iterable<string>,
): Record<string, string> {
  const names = new Set(secretNames);
  const values = new Set([...secretValues].filter((v) => v.length >= 8));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    if (names.has(k) || SECRET_NAME.test(k) || values.has(v)) continue;
    if (k.startsWith("HARNESS_")) continue;
    out[k] = v;
  }
  for (const [k, v] of Object.entries(harness)) out[k] = v;
  return out;
}

/** The fixed part of the `HARNESS_*` variables. */
export function harnessVars(p: {
  paths: Paths;
  session: string;
  stage: string;
  provider: string;
  model: string;
  maxTurns: number;
  sources: string[];
  cwd: string;
}): Record<string, string> {
  return {
    HARNESS_ROOT,
    HARNESS_HOME: p.paths.home,
    HARNESS_SESSIONS: p.paths.sessions,
    HARNESS_SESSION: p.session,
    HARNESS_STAGE: p.stage,
    HARNESS_PROVIDER: p.provider,
    HARNESS_MODEL: p.model,
    HARNESS_MAX_TURNS: String(p.maxTurns),
    HARNESS_LOG: p.paths.log,
    HARNESS_SOURCES: p.sources.join(":"),
    HARNESS_VERSION: VERSION,
    HARNESS_CWD: p.cwd,
  };
}
