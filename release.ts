/**
 * The release entry: what `deno task bundle` (`dist/hs/hs.js`) and
 * `deno task compile` build. It is the launcher and the harness in one
 * module. Started as a process it is the launcher (`launch.ts`): it answers
 * `hs version`, runs `hs scheme` after giving up every permission, and
 * otherwise computes the run's grant and starts itself as a Worker whose
 * permissions are that grant; in that worker it is the harness (`main.ts`).
 * So the release's broad process permissions (scripts/build.ts `BAKED`) are
 * the launcher's, and the harness holds what `deno task hs` gives it
 * (docs/security.md "Scoping inside the process").
 *
 * @module
 */
// Literal imports: the bundler inlines them (and runs a module's top level only when reached).

/** The folder the harness is installed in: the binary's, or the bundle's. */
function releaseRoot(): string {
  if (Deno.build.standalone) return Deno.execPath().replace(/\/[^/]*$/, "") || "/";
  const url = new URL(".", import.meta.url);
  return url.protocol === "file:" ? decodeURIComponent(url.pathname).replace(/\/$/, "") : "/";
}

if (import.meta.main) {
  const args = Deno.args;
  if ("WorkerGlobalScope" in globalThis) {
    // the harness worker this module started (cli/launch/scope/)
    const [{ serveHarness }, { main }] = await Promise.all([
      import("./cli/launch/mod.ts"),
      import("./main.ts"),
    ]);
    await serveHarness(main);
  }
  if (args.length === 1) {
    // a commands/version may replace it (the CLI runs it when its source is trusted)
    const { builtinVersionAnswer } = await import("./core/early/mod.ts");
    const env = Deno.env.toObject();
    const version = builtinVersionAnswer(args, env, env.INIT_CWD || Deno.cwd());
    if (version) {
      console.log(version);
      Deno.exit(0);
    }
    // `hs --help` too, when the run can have no command of its own to list (cli/table/)
    const { builtinHelpAnswer, writeStdout } = await import("./cli/table/mod.ts");
    const text = builtinHelpAnswer(args, env, env.INIT_CWD || Deno.cwd());
    if (text !== undefined) {
      writeStdout(text);
      Deno.exit(0);
    }
  }
  if (args[0] === "scheme") {
    // `hs scheme` runs here, with every permission revoked first (scheme/cli/)
    const fast = await import("./scheme/cli/mod.ts");
    const cwd = Deno.env.get("INIT_CWD") || Deno.cwd();
    if (fast.schemeFastPathApplies(args, Deno.env.toObject(), cwd)) {
      Deno.exit(await fast.runSchemeConfined(args.slice(1), cwd));
    }
  }
  const { runLauncher } = await import("./cli/launch/mod.ts");
  Deno.exit(await runLauncher(args, { root: releaseRoot(), entry: import.meta.url }));
}
