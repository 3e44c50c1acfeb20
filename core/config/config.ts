/**
 * The `HARNESS_*` settings, parsed once from the environment into a typed
 * object that is injected wherever a setting is needed (no other module reads
 * these variables). A malformed value is an error that names the variable;
 * an empty one counts as unset.
 *
 * @module
 */
import { z } from "zod";

import { FLOOR_PRESETS, HarnessError } from "../base/mod.ts";
import { firstUse } from "../early/mod.ts";

export { FLOOR_PRESETS };

/** Settings of one harness, from `HARNESS_*` variables. */
export interface HarnessConfig {
  /** `HARNESS_PROVIDER`: the provider to use ("" = resolve). */
  provider: string;
  /** `HARNESS_MODEL`: the model to use ("" = the provider's default). */
  model: string;
  /** `HARNESS_MAX_TURNS`: model requests per turn before the loop stops (default 100). */
  maxTurns: number;
  /**
   * `HARNESS_MAX_TOOL_CALLS`: the most tool calls one model response may ask for, for every
   * provider (wins over a `.conf`'s `max_tool_calls=`; unset: the `.conf`'s, else 128).
   */
  maxToolCalls?: number;
  /** `HARNESS_HOOK_TIMEOUT` (seconds): one executable hook's limit (default 60 s). */
  hookTimeoutMs: number;
  /** `HARNESS_EXEC_TIMEOUT` (seconds): one executable tool `--exec` (default 600 s). */
  execTimeoutMs: number;
  /** `HARNESS_TOOL_TIMEOUT` (seconds): default timeout of the `bash` tool (default 120 s). */
  toolTimeoutMs: number;
  /** `HARNESS_READ_LIMIT`: lines `read_file` returns without offset/limit (default 2000). */
  readLimit: number;
  /** `HARNESS_PROVIDER_TIMEOUT` (seconds): one executable provider request (default 600 s). */
  providerTimeoutMs: number;
  /** `HARNESS_RESULT_LIMIT` (bytes): most of one tool result kept in the conversation (100000). */
  resultLimit: number;
  /** `HARNESS_RESULT_FILE_LIMIT` (bytes): most of one call's output saved beside the session (256 MiB). */
  resultFileLimit: number;
  /** `HARNESS_HOOK_OUTPUT_LIMIT` (bytes): most a hook or an executable provider may print (64 MiB). */
  hookOutputLimit: number;
  /** `HARNESS_SESSION_WAIT` (seconds): how long a turn waits for a busy session (default 60 s). */
  sessionWaitMs: number;
  /** `HARNESS_RETRY_BASE_MS`: base delay of provider retries (tests shorten it). */
  retryBaseMs?: number;
  /** `HARNESS_FLOOR`: the effect floor preset when no flag gives one. */
  floor?: typeof FLOOR_PRESETS[number];
  /** `HARNESS_UNSANDBOXED=1`: run children unconfined when no OS sandbox exists. */
  unsandboxed: boolean;
  /** `HARNESS_BWRAP`: the bubblewrap binary (a missing path simulates its absence). */
  bwrap?: string;
  /** False when `HARNESS_NO_TRUST_PROMPT` is set (never ask to trust a workspace). */
  trustPrompt: boolean;
  /**
   * `HARNESS_COMPACT_AT`: the share of the model's context window the next request may
   * fill before older turns are compacted (default 0.8; `off` or `0`: never by size).
   */
  compactAt: number;
  /** `HARNESS_COMPACT_KEEP`: turns a compaction keeps verbatim (default 2). */
  compactKeep: number;
  /**
   * The user's `HARNESS_*` variables (`HARNESS_APPROVE_TOOLS`, `HARNESS_THINKING`,
   * `HARNESS_READ_LIMIT`, …) but the ones hs sets per child (`CHILD_VARS`): handed to
   * hooks, tools, providers and commands unchanged.
   */
  passThrough: Record<string, string>;
}

/** Variables the harness sets itself for its children (PROTOCOLS "Environment"). */
export const CHILD_VARS: readonly string[] = [
  "HARNESS_ROOT",
  "HARNESS_HOME",
  "HARNESS_SESSIONS",
  "HARNESS_SESSION",
  "HARNESS_STAGE",
  "HARNESS_PROVIDER",
  "HARNESS_MODEL",
  "HARNESS_MAX_TURNS",
  "HARNESS_LOG",
  "HARNESS_SOURCES",
  "HARNESS_VERSION",
  "HARNESS_CWD",
];

const seconds = () =>
  z.string().transform((s, ctx) => {
    const n = Number(s);
    if (!Number.isFinite(n) || n <= 0) {
      ctx.addIssue({ code: "custom", message: "must be a positive number of seconds" });
      return z.NEVER;
    }
    return n * 1000;
  });

const secondsOrZero = () =>
  z.string().transform((s, ctx) => {
    const n = Number(s);
    if (!Number.isFinite(n) || n < 0) {
      ctx.addIssue({ code: "custom", message: "must be a number of seconds (0 or more)" });
      return z.NEVER;
    }
    return Math.round(n * 1000);
  });

const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes: a whole number with an optional K, M or G suffix (powers of 1024). */
const bytes = () =>
  z.string().transform((s, ctx) => {
    const m = /^\s*(\d+)\s*([kmg]?)(?:i?b)?\s*$/i.exec(s);
    const n = m ? Number(m[1]) * UNITS[m[2].toLowerCase()] : NaN;
    if (!(n > 0) || !Number.isSafeInteger(n)) {
      ctx.addIssue({
        code: "custom",
        message: "must be a number of bytes (e.g. 100000, 512K, 64M)",
      });
      return z.NEVER;
    }
    return n;
  });

const count = () =>
  z.string().regex(/^\d+$/, "must be a positive whole number").transform(Number)
    .refine((n) => n > 0, "must be a positive whole number");

/** How each set variable is read (an unset one takes its {@link DEFAULTS} value). */
const settingsShape = () => ({
  HARNESS_PROVIDER: z.string(),
  HARNESS_MODEL: z.string(),
  HARNESS_MAX_TURNS: count(),
  HARNESS_MAX_TOOL_CALLS: count(),
  HARNESS_HOOK_TIMEOUT: seconds(),
  HARNESS_EXEC_TIMEOUT: seconds(),
  HARNESS_TOOL_TIMEOUT: seconds(),
  HARNESS_READ_LIMIT: count(),
  HARNESS_PROVIDER_TIMEOUT: seconds(),
  HARNESS_RESULT_LIMIT: bytes(),
  HARNESS_RESULT_FILE_LIMIT: bytes(),
  HARNESS_HOOK_OUTPUT_LIMIT: bytes(),
  HARNESS_SESSION_WAIT: secondsOrZero(),
  HARNESS_RETRY_BASE_MS: z.string().regex(/^\d+$/, "must be a whole number of milliseconds")
    .transform(Number),
  HARNESS_FLOOR: z.enum(FLOOR_PRESETS, { error: `must be one of ${FLOOR_PRESETS.join(", ")}` }),
  HARNESS_UNSANDBOXED: z.string(),
  HARNESS_BWRAP: z.string(),
  HARNESS_NO_TRUST_PROMPT: z.string(),
  HARNESS_COMPACT_AT: z.string().transform((s, ctx) => {
    const t = s.trim().replace(/%$/, "");
    if (t === "off" || t === "0") return 0;
    const n = Number(t);
    if (!/^\d+(\.\d+)?$/.test(t) || n <= 0 || n > 100) {
      ctx.addIssue({ code: "custom", message: "must be a percentage (1-100) or off" });
      return z.NEVER;
    }
    return n / 100;
  }),
  HARNESS_COMPACT_KEEP: count(),
});

/** The settings as read, every key set. */
type Settings = {
  [K in keyof ReturnType<typeof settingsShape>]: z.output<ReturnType<typeof settingsShape>[K]>;
};

/** The settings with no default: `undefined` when unset. */
type NoDefault =
  | "HARNESS_MAX_TOOL_CALLS"
  | "HARNESS_RETRY_BASE_MS"
  | "HARNESS_FLOOR"
  | "HARNESS_UNSANDBOXED"
  | "HARNESS_BWRAP"
  | "HARNESS_NO_TRUST_PROMPT";

/** The settings after their defaults. */
type Read =
  & { [K in Exclude<keyof Settings, NoDefault>]: Settings[K] }
  & { [K in NoDefault]: Settings[K] | undefined };

/**
 * The value of each unset (or empty) variable. Every setting has a key here, `undefined` for
 * the ones with no default: this is also the list of the variables hs reads.
 */
const DEFAULTS: Read = {
  HARNESS_PROVIDER: "",
  HARNESS_MODEL: "",
  HARNESS_MAX_TURNS: 100,
  HARNESS_MAX_TOOL_CALLS: undefined,
  HARNESS_HOOK_TIMEOUT: 60_000,
  HARNESS_EXEC_TIMEOUT: 600_000,
  HARNESS_TOOL_TIMEOUT: 120_000,
  HARNESS_READ_LIMIT: 2000,
  HARNESS_PROVIDER_TIMEOUT: 600_000,
  HARNESS_RESULT_LIMIT: 100_000,
  HARNESS_RESULT_FILE_LIMIT: 256 * 1024 ** 2,
  HARNESS_HOOK_OUTPUT_LIMIT: 64 * 1024 ** 2,
  HARNESS_SESSION_WAIT: 60_000,
  HARNESS_RETRY_BASE_MS: undefined,
  HARNESS_FLOOR: undefined,
  HARNESS_UNSANDBOXED: undefined,
  HARNESS_BWRAP: undefined,
  HARNESS_NO_TRUST_PROMPT: undefined,
  HARNESS_COMPACT_AT: 0.8,
  HARNESS_COMPACT_KEEP: 2,
};

/**
 * The schema of the variables that are set, built the first time one is (most runs set none
 * and never build it: issue 25, "zod schemas are built when first used").
 */
const settingsSchema = firstUse(() => z.object(settingsShape()).partial());

/**
 * Variables the harness sets for each child itself (with its own, resolved values), so the
 * user's are not passed through. Every other `HARNESS_*` the user set — including the
 * settings hs reads, like `HARNESS_READ_LIMIT` — reaches children unchanged.
 */
const SET_BY_HARNESS = new Set(CHILD_VARS);

/** Parses the `HARNESS_*` variables of an environment. Throws a HarnessError naming a bad one. */
export function parseConfig(env: Record<string, string | undefined>): HarnessConfig {
  const present: Record<string, string> = {};
  for (const key of Object.keys(DEFAULTS)) {
    const v = env[key];
    if (v !== undefined && v !== "") present[key] = v;
  }
  let s: Read = DEFAULTS;
  if (Object.keys(present).length > 0) {
    const r = settingsSchema().safeParse(present);
    if (!r.success) {
      const issue = r.error.issues[0];
      const name = String(issue.path[0]);
      throw new HarnessError(
        `${name}=${JSON.stringify(present[name] ?? "")}: ${issue.message}`,
        `fix or unset ${name} (see docs/cli.md "Environment")`,
      );
    }
    s = { ...DEFAULTS, ...r.data };
  }
  const passThrough: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && k.startsWith("HARNESS_") && !SET_BY_HARNESS.has(k)) passThrough[k] = v;
  }
  return {
    provider: s.HARNESS_PROVIDER,
    model: s.HARNESS_MODEL,
    maxTurns: s.HARNESS_MAX_TURNS,
    maxToolCalls: s.HARNESS_MAX_TOOL_CALLS,
    hookTimeoutMs: s.HARNESS_HOOK_TIMEOUT,
    execTimeoutMs: s.HARNESS_EXEC_TIMEOUT,
    toolTimeoutMs: s.HARNESS_TOOL_TIMEOUT,
    readLimit: s.HARNESS_READ_LIMIT,
    providerTimeoutMs: s.HARNESS_PROVIDER_TIMEOUT,
    resultLimit: s.HARNESS_RESULT_LIMIT,
    resultFileLimit: s.HARNESS_RESULT_FILE_LIMIT,
    hookOutputLimit: s.HARNESS_HOOK_OUTPUT_LIMIT,
    sessionWaitMs: s.HARNESS_SESSION_WAIT,
    retryBaseMs: s.HARNESS_RETRY_BASE_MS,
    floor: s.HARNESS_FLOOR,
    unsandboxed: s.HARNESS_UNSANDBOXED === "1",
    bwrap: s.HARNESS_BWRAP,
    trustPrompt: s.HARNESS_NO_TRUST_PROMPT === undefined,
    compactAt: s.HARNESS_COMPACT_AT,
    compactKeep: s.HARNESS_COMPACT_KEEP,
    passThrough,
  };
}
