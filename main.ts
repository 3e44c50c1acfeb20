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
// (core/base alone pulls in Deno's Node layer, ~25 ms), so each path imports what it needs —
// and through a variable: Deno builds the module graph of every literal `import("…")` when
// this module loads, taken or not (~20 ms CPU for these, in every harness worker). A bundler
// follows neither a variable nor anything but literals, so each is also named in a literal
// `require("…")`, which the bundler turns into the module's lazy initialisation and Deno
// neither follows nor can call (as cli/bundled.ts). A compiled binary `--include`s them.

// deno-lint-ignore no-explicit-any
declare const require: (path: string) => any;

/** The module at `path` (relative to this file): the bundle's, else imported by a variable. */
async function load<T>(path: string, inBundle: () => unknown): Promise<T> {
  try {
    return inBundle() as T;
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e; // no `require`: not a bundle
  }
  return await import(new URL(path, import.meta.url).href) as T;
}

const early = () =>
  load<typeof import("./core/early/mod.ts")>(
    "./core/early/mod.ts",
    () => require("./core/early/mod.ts" as string),
  );
const table = () =>
  load<typeof import("./cli/table/mod.ts")>(
    "./cli/table/mod.ts",
    () => require("./cli/table/mod.ts" as string),
  );
const schemeCli = () =>
  load<typeof import("./scheme/cli/mod.ts")>(
    "./scheme/cli/mod.ts",
    () => require("./scheme/cli/mod.ts" as string),
  );
const cliRoom = () =>
  load<typeof import("./cli/mod.ts")>("./cli/mod.ts", () => require("./cli/mod.ts" as string));
const plugins = () =>
  load<typeof import("./plugins/mod.ts")>(
    "./plugins/mod.ts",
    () => require("./plugins/mod.ts" as string),
  );
const scheme = () =>
  load<typeof import("./scheme/mod.ts")>(
    "./scheme/mod.ts",
    () => require("./scheme/mod.ts" as string),
  );
const launchRoom = () =>
  load<typeof import("./cli/launch/scope/mod.ts")>(
    "./cli/launch/scope/mod.ts",
    () => require("./cli/launch/scope/mod.ts" as string),
  );

/** Runs the CLI on `args` with this process's streams; resolves to the exit status. */
export async function main(args: string[]): Promise<number> {
  if (args.length === 1) {
    // a commands/version may replace it (the CLI runs it when its source is trusted)
    const { builtinVersionAnswer } = await early();
    const version = builtinVersionAnswer(args, Deno.env.toObject(), Deno.cwd());
    if (version) {
      console.log(version);
      return 0;
    }
    // `hs --help` when there is no command of its own to list: the table's alone (cli/table/)
    const { builtinHelpAnswer, writeStdout } = await table();
    const help = builtinHelpAnswer(args, Deno.env.toObject(), Deno.cwd());
    if (help !== undefined) {
      writeStdout(help);
      return 0;
    }
  }
  if (args[0] === "scheme") {
    // `hs scheme` skips the CLI (commander, zod, every command) unless a command replaces it
    const fast = await schemeCli();
    let applies = false;
    try {
      applies = fast.schemeFastPathApplies(args, Deno.env.toObject(), Deno.cwd());
    } catch { /* e.g. a permission this run lacks: the ordinary path reports it */ }
    if (applies) return await fast.runScheme(args.slice(1));
  }
  const { runCli, writeAllSync } = await cliRoom();
  const out = (s: string) => writeAllSync(Deno.stdout, s);
  const err = (s: string) => writeAllSync(Deno.stderr, s);
  return await runCli(args, {
    // the harness and its plugins load only for commands that use one
    createHarness: async (opts) => (await (await plugins()).Harness.create(opts)).frontEnd,
    stdout: out,
    stderr: err,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    env: Deno.env.toObject(),
    cwd: Deno.cwd(),
    scheme: async (a) => {
      const { runSchemeCli } = await scheme();
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
    // the launcher's harness worker (cli/launch/scope/): its exit goes to the main thread
    const { serveHarness } = await launchRoom();
    await serveHarness(main);
  }
  Deno.exit(await main(Deno.args));
}
