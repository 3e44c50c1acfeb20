/**
 * `hs plugins` (and `/plugins` in the REPL): every runtime plugin with its id,
 * version, state, what it contributed (tools, skills, prompt sections, hooks,
 * pages, …) and, for a failure, the host's reason — never the plugin's own
 * exception text. `--json` prints the same as data. What a plugin named is
 * shown with its control characters as pictures.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { colorEnabled, jsonForTerminal, pluginLines, pluginReports } from "../view/mod.ts";
import { plainFlags } from "../base/mod.ts";

/** Registers `hs plugins`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("plugins").description(
    "list runtime plugins: state, contributions, and why one failed",
  )
    .option("--json", "print the list as JSON")
    .option("--trust-workspace", "include this workspace's sources")
    .action((o) => listPlugins(o, ctx));
}

/** `hs plugins [--json] [--trust-workspace]` without commander (cli/base/plain_flags.ts). */
export async function quick(
  args: readonly string[],
  _cli: CliContext,
  ctx?: CommandContext,
): Promise<"ran" | undefined> {
  const o = plainFlags(args, { "--json": "json", "--trust-workspace": "trustWorkspace" });
  if (!ctx || !o) return undefined;
  await listPlugins(o, ctx);
  return "ran";
}

async function listPlugins(
  o: { json?: true; trustWorkspace?: true },
  ctx: CommandContext,
): Promise<void> {
  const cli = ctx.cli;
  await ctx.run(o, (h) => {
    if (o.json) cli.stdout(jsonForTerminal(pluginReports(h), 2) + "\n");
    else cli.stdout(pluginLines(h, colorEnabled(cli.stdoutIsTerminal)).join("\n") + "\n");
    return Promise.resolve(0);
  });
}
