/**
 * `deno task hs`: the permission-scoped launcher. It computes what this run of
 * the harness may touch (see cli/launch/grant.ts) and runs `main.ts` with
 * exactly those Deno permissions — never `-A`. It loads no plugin, runs no
 * hook and answers `hs version` itself.
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
  const { runLauncher } = await import("./cli/launch/mod.ts");
  Deno.exit(await runLauncher(args));
}
