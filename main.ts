/**
 * `hs` — the CLI entry: hands argv to `cli/` with the harness's built-in
 * plugins (from `mod.ts`) and this process's streams. `deno task hs` runs it
 * through the permission-scoped launcher (`launch.ts`), in a Worker whose
 * permissions are the run's grant; run directly (`deno task hs:all`) it holds
 * what its process holds. `hs version` answers before anything else is
 * loaded; `hs scheme` loads only the interpreter (scheme/cli/).
 *
 * @module
 */
// No static import: whatever this module imports statically loads before any command runs
// (core/base alone pulls in Deno's Node layer, ~25 ms), so each path imports what it needs.

/** Runs the CLI on `args` with this process's streams; resolves to the exit status. */
export async function main(args: string[]): Promise<number> {
  if (args.length === 1) {
    // a commands/version may replace it (the CLI runs it when its source is trusted)
    const { builtinVersionAnswer } = await import("./core/base/mod.ts");
    const version = builtinVersionAnswer(args, Deno.env.toObject(), Deno.cwd());
    if (version) {
      console.log(version);
      return 0;
    }
  }
  if (args[0] === "scheme") {
    // `hs scheme` skips the CLI (commander, zod, every command) unless a command replaces it
    const fast = await import("./scheme/cli/mod.ts");
    let applies = false;
    try {
      applies = fast.schemeFastPathApplies(args, Deno.env.toObject(), Deno.cwd());
    } catch { /* e.g. a permission this run lacks: the ordinary path reports it */ }
    if (applies) return await fast.runScheme(args.slice(1));
  }
  const { runCli, writeAllSync } = await import("./cli/mod.ts");
  const out = (s: string) => writeAllSync(Deno.stdout, s);
  const err = (s: string) => writeAllSync(Deno.stderr, s);
  return await runCli(args, {
    // the harness and its plugins load only for commands that use one
    createHarness: async (opts) =>
      (await (await import("./plugins/mod.ts")).Harness.create(opts)).frontEnd,
    stdout: out,
    stderr: err,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    scheme: async (a) => {
      const { runSchemeCli } = await import("./scheme/mod.ts");
      return await runSchemeCli(a, {
        get stdin() {
          return Deno.stdin.readable; // built only if the program reads standard input
        },
        stdout: out,
        stderr: err,
        isTerminal: Deno.stdin.isTerminal(),
      });
    },
  });
}

if (import.meta.main) {
  if ("WorkerGlobalScope" in globalThis) {
    // the launcher's harness worker (cli/launch/scope.ts): its exit goes to the main thread
    const { serveHarness } = await import("./cli/launch/mod.ts");
    await serveHarness(main);
  }
  Deno.exit(await main(Deno.args));
}
