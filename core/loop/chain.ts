/**
 * The hook chain of one stage: built-in hooks (in-process) and executable
 * hooks merged by basename (an executable replaces a built-in of the same
 * name), run in byte order; each hook's output is the next hook's input.
 *
 * @module
 */
import { byteOrder, type ChildSandbox, errorMessage } from "../base/mod.ts";
import { DEFAULT_MAX_STDOUT, formatBytes, runExecutable, tail } from "../exec/mod.ts";
import type { StageContext, StageHook } from "./stage.ts";

/** One link of a chain. */
export interface Link {
  /** The hook's basename (the chain runs in byte order of names). */
  name: string;
  /** In-process hook, or */
  builtin?: StageHook;
  /** an executable path. */
  path?: string;
}

/** Merges built-in and executable hooks of a stage; executables win per basename. */
export function chainFor(builtins: StageHook[], executables: Map<string, string>): Link[] {
  const links = new Map<string, Link>();
  for (const h of builtins) links.set(h.name, { name: h.name, builtin: h });
  for (const [name, path] of executables) links.set(name, { name, path });
  return [...links.values()].sort((a, b) => byteOrder(a.name, b.name));
}

/** Result of a chain: ok with the final JSON, or failed with the error context. */
export type ChainResult =
  | {
    ok: true;
    output: Record<string, unknown>;
    /** The hook whose output is the chain's (a built-in's `<stage>/<name>`, an executable's path). */
    last?: string;
  }
  | { ok: false; output: Record<string, unknown>; hook: string };

/** What executable hooks need. */
export interface ChainEnv {
  /** The environment of executable hooks. */
  env: Record<string, string>;
  /** Their working directory (HARNESS_CWD). */
  cwd: string;
  /** One executable hook's time limit. */
  timeoutMs: number;
  /** Aborts the chain. */
  signal: AbortSignal;
  /** Writes a line to HARNESS_LOG. */
  log(text: string): void;
  /** Called after an executable hook ran (the session may have changed on disk). */
  executableRan(): void;
  /** The effect floor's OS sandbox for executable hooks (required: no hook escapes it). */
  sandbox: ChildSandbox;
  /** Most bytes a hook may print on stdout (HARNESS_HOOK_OUTPUT_LIMIT; default 64 MiB). */
  maxOutputBytes?: number;
  /** Executable hooks get the terminal (an interactive stage while hs runs on one). */
  terminal?: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Runs a chain. Never throws: failures are returned as the error context. */
export async function runChain(
  stage: string,
  input: Record<string, unknown>,
  links: Link[],
  ctx: StageContext,
  env: ChainEnv,
): Promise<ChainResult> {
  let current = input;
  let last: string | undefined;
  for (const link of links) {
    last = link.builtin ? `${stage}/${link.name}` : link.path;
    if (link.builtin) {
      try {
        current = await link.builtin.run(current, ctx);
      } catch (err) {
        return {
          ok: false,
          hook: `${stage}/${link.name}`,
          output: { error: errorMessage(err) },
        };
      }
      continue;
    }
    const path = link.path!;
    const r = await runExecutable(path, {
      stdin: JSON.stringify(current),
      env: env.env,
      cwd: env.cwd,
      timeoutMs: env.timeoutMs,
      signal: env.signal,
      onStderr: (t) => env.log(t.trimEnd()),
      sandbox: env.sandbox,
      what: `hook ${path}`,
      maxStdoutBytes: env.maxOutputBytes,
      terminal: env.terminal,
    });
    env.executableRan();
    if (r.overflow) {
      return {
        ok: false,
        hook: path,
        output: {
          error: `hook ${path} printed more than ${
            formatBytes(env.maxOutputBytes ?? DEFAULT_MAX_STDOUT)
          } on stdout during ${stage} (it was stopped; set HARNESS_HOOK_OUTPUT_LIMIT to allow more)`,
        },
      };
    }
    if (r.timedOut) {
      return {
        ok: false,
        hook: path,
        output: {
          error: `hook ${path} timed out after ${
            Math.round(env.timeoutMs / 1000)
          } s during ${stage} (its process group was killed; set HARNESS_HOOK_TIMEOUT to allow more)`,
        },
      };
    }
    if (r.aborted) return { ok: false, hook: path, output: { error: "cancelled" } };
    let parsed: unknown;
    const text = r.stdout.trim();
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (r.code !== 0) {
      if (isObject(parsed)) return { ok: false, hook: path, output: parsed };
      const why = r.stderr.trim() ? `: ${tail(r.stderr, 3)}` : "";
      return {
        ok: false,
        hook: path,
        output: { error: `hook ${path} exited ${r.code} during ${stage}${why}` },
      };
    }
    if (!isObject(parsed)) {
      const what = text === ""
        ? "printed nothing (a gate or observer hook must print its stdin back)"
        : `printed something that is not a JSON object: ${JSON.stringify(text.slice(0, 120))}`;
      return { ok: false, hook: path, output: { error: `hook ${path} ${what} during ${stage}` } };
    }
    current = parsed;
  }
  return { ok: true, output: current, last };
}
