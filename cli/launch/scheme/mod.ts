/**
 * The fast path of `hs scheme`: recognised by `main.ts` and the launcher (`launch.ts`) before
 * the rest of the CLI loads (commander, zod, every command, the grant computation), so running a
 * Scheme program costs little more than loading the interpreter. It is taken only when nothing
 * replaces the built-in command (an executable `commands/scheme` in a `.harness/` of the walk
 * may, see cli/commands.ts); otherwise the callers go the ordinary way.
 *
 * Through the launcher the Scheme process gets only what a run needs: read access to the file
 * it runs (nothing else: no environment, network, writes or subprocesses).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { resolvePaths, statOrUndefined } from "../../../core/base/mod.ts";
import { walkHarnessDirs } from "../../../core/discovery/mod.ts";

/** `hs scheme` flags that take the next word as their value (see scheme/cli.ts). */
const VALUE_FLAGS = new Set([
  "--fuel",
  "--timeout",
  "--max-depth",
  "--max-memory",
  "--max-string",
  "--max-vector",
  "--env",
]);

/**
 * True when the fast path may run `hs scheme`: the command line starts with the word `scheme`
 * and no executable named `scheme` in a `.harness/commands/` of the walk replaces the built-in.
 */
export function schemeFastPathApplies(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): boolean {
  if (argv[0] !== "scheme") return false;
  const home = resolvePaths(env, cwd).home;
  return !walkHarnessDirs(cwd, home).some((d) =>
    statOrUndefined(join(d.dir, "commands", "scheme"))
  );
}

/** The program file `hs scheme ARGS` runs (absolute), if it names one. */
export function schemeFile(args: string[], cwd: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-") && a !== "-") continue;
    return resolve(cwd, a);
  }
  return undefined;
}

/** The `deno run` permission flags of a Scheme run through the launcher (never `-A`). */
export function schemeGrantFlags(args: string[], cwd: string): string[] {
  const file = schemeFile(args, cwd);
  return ["--no-prompt", ...(file ? [`--allow-read=${file}`] : [])];
}

const enc = new TextEncoder();
function writeAll(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const b = enc.encode(s);
  for (let o = 0; o < b.length;) o += w.writeSync(b.subarray(o));
}

/** Runs `hs scheme ARGS` in this process (the interpreter loads now); resolves to the exit code. */
export async function runScheme(args: string[]): Promise<number> {
  const { runSchemeCli } = await import("../../../scheme/mod.ts");
  return await runSchemeCli(args, {
    stdin: Deno.stdin.readable,
    stdout: (s) => writeAll(Deno.stdout, s),
    stderr: (s) => writeAll(Deno.stderr, s),
    isTerminal: Deno.stdin.isTerminal(),
  });
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };

/**
 * The launcher's fast path: runs `scheme/main.ts` of the installation at `root` with
 * {@link schemeGrantFlags}, the terminal handed through and termination signals forwarded (as
 * the launcher does for the harness); resolves to its exit code.
 */
export async function launchScheme(args: string[], root: string, cwd: string): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      ...schemeGrantFlags(args, cwd),
      join(root, "scheme", "main.ts"),
      ...args,
    ],
    cwd,
    env: { HS_LAUNCHED: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const fromTerminal = Deno.stdin.isTerminal();
  const listeners = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => {
    const fn = () => {
      if (sig === "SIGINT" && fromTerminal) return;
      try {
        child.kill(sig);
      } catch { /* exited */ }
    };
    Deno.addSignalListener(sig, fn);
    return [sig, fn] as const;
  });
  const status = await child.status;
  for (const [sig, fn] of listeners) Deno.removeSignalListener(sig, fn);
  if (status.signal) return 128 + (SIGNALS[status.signal] ?? 1);
  return status.code;
}
