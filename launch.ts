/**
 * `deno task hs`: the permission-scoped launcher. It computes what this run of
 * the harness may touch (see cli/launch/grant.ts) and runs `main.ts` with
 * exactly those Deno permissions — never `-A`. It loads no plugin, runs no
 * hook, answers `hs version` itself and runs `hs scheme` through a fast path
 * (cli/launch/scheme/) that grants the Scheme process only its file.
 *
 * @module
 */
if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && ["version", "--version", "-v"].includes(args[0])) {
    // answered before anything else is loaded
    const { VERSION, versionLine } = await import("./core/base/mod.ts");
    console.log(`hs ${versionLine(VERSION)}`);
    Deno.exit(0);
  }
  if (args[0] === "scheme") {
    // `hs scheme`: straight to the interpreter, granted only its file (cli/launch/scheme/)
    const fast = await import("./cli/launch/scheme/mod.ts");
    const cwd = Deno.env.get("INIT_CWD") || Deno.cwd();
    if (fast.schemeFastPathApplies(args, Deno.env.toObject(), cwd)) {
      const root = decodeURIComponent(new URL(".", import.meta.url).pathname);
      Deno.exit(await fast.launchScheme(args.slice(1), root, cwd));
    }
  }
  const { runLauncher } = await import("./cli/launch/mod.ts");
  Deno.exit(await runLauncher(args));
}
