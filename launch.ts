/**
 * `deno task hs`: the permission-scoped launcher. It computes what this run of
 * the harness may touch (see cli/launch/grant.ts) and runs `main.ts` in a
 * Worker of this process whose Deno permissions are exactly that — never `-A`
 * (cli/launch/scope/). It loads no plugin, runs no hook, answers
 * `hs version` (and `hs --help` when there is no command to list) itself and runs `hs scheme` in its own thread after giving up
 * every permission (scheme/cli/). `release.ts` is the same for the bundle and
 * the compiled binary.
 *
 * @module
 */
// Every import below names its module through a variable: Deno loads the module graph of a
// literal `import("…")` when the process starts, taken or not, and of a variable's only when it
// is reached, so each command pays for its own modules only. The launcher holds what the release
// holds (deno.json "launcher"); the harness gets the grant. Nothing bundles launch.ts.
if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1) {
    // answered before anything else is loaded — unless a commands/version may replace it
    const early = "./core/early/mod.ts";
    const { builtinVersionAnswer } = await import(early) as typeof import("./core/early/mod.ts");
    const env = Deno.env.toObject();
    const version = builtinVersionAnswer(args, env, env.INIT_CWD || Deno.cwd());
    if (version) {
      console.log(version);
      Deno.exit(0);
    }
    // `hs --help` too, when the run can have no command of its own to list (cli/table/)
    const table = "./cli/table/mod.ts";
    const help = await import(table) as typeof import("./cli/table/mod.ts");
    const text = help.builtinHelpAnswer(args, env, env.INIT_CWD || Deno.cwd());
    if (text !== undefined) {
      help.writeStdout(text);
      Deno.exit(0);
    }
  }
  if (args[0] === "scheme") {
    // `hs scheme` runs here, with every permission revoked first (scheme/cli/)
    const schemePath = "./scheme/cli/mod.ts";
    const fast = await import(schemePath) as typeof import("./scheme/cli/mod.ts");
    const cwd = Deno.env.get("INIT_CWD") || Deno.cwd();
    if (fast.schemeFastPathApplies(args, Deno.env.toObject(), cwd)) {
      Deno.exit(await fast.runSchemeConfined(args.slice(1), cwd));
    }
  }
  // the grant, discovery, the bundled providers: `hs scheme` and `hs version` never load them
  const launcher = "./cli/launch/mod.ts";
  const { runLauncher } = await import(launcher) as typeof import("./cli/launch/mod.ts");
  const root = decodeURIComponent(new URL(".", import.meta.url).pathname).replace(/\/$/, "");
  Deno.exit(await runLauncher(args, { root, entry: new URL("./main.ts", import.meta.url) }));
}
