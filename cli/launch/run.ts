/**
 * The launcher process: answers `hs version` itself (unless a `commands/version` may
 * replace it), otherwise runs `main.ts`
 * under the computed grant with the terminal handed through, forwards
 * termination signals and exits with the harness's status.
 *
 * Ctrl-C on a terminal reaches every process of the foreground group — the
 * harness gets it directly — so the launcher forwards SIGINT only when it was
 * not started from a terminal (the harness also merges duplicates).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandMayBeReplaced, VERSION, versionLine } from "../../core/base/mod.ts";
import { computeGrant, grantFlags } from "./grant.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** The user's directory: `deno task` runs in the config's directory and sets INIT_CWD. */
export function workspaceDir(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}

/** `--cached-only` when the launcher runs as the installed `hs` (HS_CACHED_ONLY=1, scripts/install.ts). */
function cachedOnly(env: Record<string, string>): string[] {
  return env.HS_CACHED_ONLY === "1" ? ["--cached-only"] : [];
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };

/** Runs the launcher; resolves to the process exit code. */
export async function runLauncher(args: string[]): Promise<number> {
  const cwd = workspaceDir();
  const env = Deno.env.toObject();
  if (args.length === 1 && ["version", "--version", "-v"].includes(args[0])) {
    // a commands/version replaces it as any command replaces a built-in (the CLI decides)
    if (env.HS_RUN_BUILTIN === "version" || !commandMayBeReplaced("version", env, cwd)) {
      console.log(`hs ${versionLine(VERSION)}`);
      return 0;
    }
  }
  const grant = computeGrant({ argv: args, env, cwd, root: ROOT });
  const flags = grantFlags(grant);
  if (env.HS_LAUNCH_DEBUG) {
    console.error(`hs launch:\n  ${grant.notes.join("\n  ")}\n  ${flags.join("\n  ")}`);
  }
  const child = new Deno.Command(Deno.execPath(), {
    // the `hs` that `deno task install` wrote fetches nothing: neither does the harness it starts
    // --no-remote: nothing, not even a plugin's own import, is fetched at run time
    args: [
      "run",
      "--quiet",
      "--no-remote",
      ...cachedOnly(env),
      ...flags,
      join(ROOT, "main.ts"),
      ...args,
    ],
    cwd,
    env: { HS_LAUNCHED: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const fromTerminal = Deno.stdin.isTerminal();
  const forward = (sig: Deno.Signal) => () => {
    if (sig === "SIGINT" && fromTerminal) return;
    try {
      child.kill(sig);
    } catch { /* exited */ }
  };
  const listeners = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => {
    const fn = forward(sig);
    Deno.addSignalListener(sig, fn);
    return [sig, fn] as const;
  });
  const status = await child.status;
  for (const [sig, fn] of listeners) Deno.removeSignalListener(sig, fn);
  if (status.signal) return 128 + (SIGNALS[status.signal] ?? 1);
  return status.code;
}
