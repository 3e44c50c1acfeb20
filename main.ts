/**
 * `hs` — CLI entry. `hs version` answers without loading the harness.
 *
 * @module
 */
import { VERSION } from "./core/base/version.ts";
import { versionLine } from "./core/base/build_info.ts";

async function main(args: string[]): Promise<number> {
  if (args.length === 1 && (args[0] === "version" || args[0] === "--version" || args[0] === "-v")) {
    console.log(`hs ${versionLine(VERSION)}`);
    return 0;
  }
  const [{ runCli }, { writeAllSync }, { Harness }] = await Promise.all([
    import("./cli/program.ts"),
    import("./cli/context.ts"),
    import("./mod.ts"),
  ]);
  return await runCli(args, {
    createHarness: (opts) => Harness.create(opts),
    stdout: (s: string) => writeAllSync(Deno.stdout, s),
    stderr: (s: string) => writeAllSync(Deno.stderr, s),
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stdoutIsTerminal: Deno.stdout.isTerminal(),
    scheme: async (a) => {
      const { runSchemeCli } = await import("./scheme/cli.ts");
      return await runSchemeCli(a, {
        stdin: Deno.stdin.readable,
        stdout: (s: string) => writeAllSync(Deno.stdout, s),
        stderr: (s: string) => writeAllSync(Deno.stderr, s),
        isTerminal: Deno.stdin.isTerminal(),
      });
    },
  });
}

if (import.meta.main) {
  const code = await main(Deno.args);
  Deno.exit(code);
}
