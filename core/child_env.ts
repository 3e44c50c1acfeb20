/**
 * The environment of every child process — hooks, tools, providers and
 * commands (PROTOCOLS "Environment"): the process environment minus anything
 * that looks like a credential, is named by a provider's `auth_env` or holds
 * a stored key; the user's own `HARNESS_*` variables passed through; and the
 * `HARNESS_*` variables the harness sets for the child. A provider's key variable whose
 * key is set (in the environment, or stored) holds the presence marker instead of the
 * key in a hook's, provider's or command's environment (a tool's has neither), so
 * reference hooks that test `[ -n "${!auth_env}" ]` detect the provider.
 *
 * @module
 */
import {
  type ChildEnvRequest,
  HARNESS_ROOT,
  type Paths,
  PRESENCE_MARKER,
  SHORTEST_SECRET,
  VERSION,
} from "./base/mod.ts";
import type { HarnessConfig } from "./config/mod.ts";
import type { Snapshot } from "./discovery/mod.ts";
import type { Secrets } from "./providers/mod.ts";

/** Variable names that may hold provider credentials. */
const SECRET_NAME = /(^|_)(API_KEY|APIKEY|SECRET|TOKEN|PASSWORD|ACCESS_KEY)($|_)/i;

/**
 * Builds a child environment from the process environment: drops credentials
 * (by name, by `auth_env` and by value) and every `HARNESS_*` variable, then
 * adds the presence marker for each key variable of `secrets.present` (unless `markers`
 * is false: a tool's environment), then
 * `passThrough` and `vars` (in that order, so the harness's own win).
 */
export function buildChildEnv(
  base: Record<string, string | undefined>,
  secrets: Secrets,
  passThrough: Record<string, string>,
  vars: Record<string, string>,
  markers = true,
): Record<string, string> {
  const names = new Set(secrets.names);
  const values = new Set(secrets.values.filter((v) => v.length >= SHORTEST_SECRET));
  const out: Record<string, string> = {};
  const keep = (k: string, v: string) => !names.has(k) && !SECRET_NAME.test(k) && !values.has(v);
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || k.startsWith("HARNESS_")) continue;
    if (keep(k, v)) out[k] = v;
  }
  if (markers) { for (const k of secrets.present ?? []) out[k] = PRESENCE_MARKER; }
  for (const [k, v] of Object.entries(passThrough)) if (keep(k, v)) out[k] = v;
  for (const [k, v] of Object.entries(vars)) out[k] = v;
  return out;
}

/** Options of {@link ChildEnvironment}. */
export interface ChildEnvironmentOptions {
  env: Record<string, string | undefined>;
  paths: Paths;
  config: HarnessConfig;
  /** The current (unscoped) discovery snapshot: its sources become HARNESS_SOURCES. */
  snapshot(): Snapshot;
  /** The secrets of a snapshot. */
  secrets(snapshot: Snapshot): Secrets;
  /** The generated directory of the built-ins: the first (lowest) of HARNESS_SOURCES. */
  builtinSource?(): string | undefined;
  /** The generated HARNESS_ROOT with `bin/harness` (core/harness_root.ts); else hs's installation. */
  root?(): string | undefined;
}

/** Child environments of one harness. */
export class ChildEnvironment {
  #o: ChildEnvironmentOptions;
  #root?: string;

  /** Creates the child environments of a harness from its environment, paths and settings. */
  constructor(opts: ChildEnvironmentOptions) {
    this.#o = opts;
  }

  /** The environment of one child. */
  envFor(req: ChildEnvRequest): Record<string, string> {
    const { env, paths, config } = this.#o;
    const snap = this.#o.snapshot();
    this.#root ??= this.#o.root?.() ?? HARNESS_ROOT;
    return buildChildEnv(env, this.#o.secrets(snap), config.passThrough, {
      HARNESS_ROOT: this.#root,
      HARNESS_HOME: paths.home,
      HARNESS_SESSIONS: paths.sessions,
      HARNESS_SESSION: req.session ?? "",
      HARNESS_STAGE: req.stage,
      HARNESS_PROVIDER: req.provider ?? "",
      HARNESS_MODEL: req.model ?? "",
      HARNESS_MAX_TURNS: String(config.maxTurns),
      HARNESS_LOG: paths.log,
      HARNESS_SOURCES: [this.#o.builtinSource?.(), ...snap.sources.map((s) => s.dir)]
        .filter(Boolean).join(":"),
      HARNESS_VERSION: VERSION,
      HARNESS_CWD: req.cwd ?? paths.cwd,
    }, !req.tool);
  }
}
