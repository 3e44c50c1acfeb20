/**
 * `deno task hs`: the permission-scoped launcher. It computes what this run of
 * the harness may touch (see cli/launch/grant.ts) and runs `main.ts` with
 * exactly those Deno permissions — never `-A`. It loads no plugin, runs no
 * hook, answers `hs version` itself and runs `hs scheme` in its own process
 * after giving up every permission (scheme/cli/).
 *
 * @module
 */
// Every import below names its module through a variable: Deno loads the module graph of a
// literal `import("…")` when the process starts, taken or not, and of a variable's only when it
// is reached, so each command pays for its own modules only. The launcher may read everything
// (deno.json "launcher"); nothing bundles launch.ts.
if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && ["version", "--version", "-v"].includes(args[0])) {
    // answered before anything else is loaded — unless a commands/version may replace it
    const base = "./core/base/mod.ts";
    const { VERSION, versionLine, commandMayBeReplaced } = await import(
      base
    ) as typeof import("./core/base/mod.ts");
    const env = Deno.env.toObject();
    const cwd = env.INIT_CWD || Deno.cwd();
    if (env.HS_RUN_BUILTIN === "version" || !commandMayBeReplaced("version", env, cwd)) {
      console.log(`hs ${versionLine(VERSION)}`);
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
  Deno.exit(await runLauncher(args));
}
