/**
 * The launcher: answers `hs version` itself (unless a `commands/version` may replace it),
 * otherwise computes the run's
 * grant and runs the harness in this process under it — a Worker whose Deno
 * permissions are the grant (scope/) — and resolves to the harness's exit
 * status. The terminal, standard input and signals are the process's, which
 * the harness uses directly: Ctrl-C reaches its handler, SIGTERM and SIGHUP
 * end the process as they ended the harness.
 *
 * @module
 */
import { builtinVersionAnswer } from "../../core/early/mod.ts";
import { computeGrant, grantFlags } from "./grant.ts";
import { runInWorker } from "./scope/mod.ts";

/** The user's directory: `deno task` runs in the config's directory and sets INIT_CWD. */
export function workspaceDir(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}

/** Where the harness is: what the grant lets it read, and the module its worker runs. */
export interface HarnessPlace {
  /** The installation the harness reads (the checkout; the bundle's or binary's folder). */
  root: string;
  /** The module the worker runs: `main.ts`, or the bundle or binary's own entry. */
  entry: string | URL;
}

/** Runs the launcher; resolves to the process exit code. */
export async function runLauncher(args: string[], place: HarnessPlace): Promise<number> {
  const cwd = workspaceDir();
  const env = Deno.env.toObject();
  // a commands/version replaces it as any command replaces a built-in (the CLI decides)
  const version = builtinVersionAnswer(args, env, cwd);
  if (version) {
    console.log(version);
    return 0;
  }
  const grant = computeGrant({ argv: args, env, cwd, root: place.root });
  if (env.HS_LAUNCH_DEBUG) {
    const flags = grantFlags(grant);
    console.error(`hs launch:\n  ${grant.notes.join("\n  ")}\n  ${flags.join("\n  ")}`);
  }
  // the harness runs in the user's directory, and knows it was launched (as a child did)
  Deno.chdir(cwd);
  Deno.env.set("HS_LAUNCHED", "1");
  return await runInWorker(place.entry, grant);
}
