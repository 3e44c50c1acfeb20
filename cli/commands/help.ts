/**
 * `hs help [command]` (also `hs --help`): the built-in commands with their
 * flags, how to talk to the agent, and the commands this workspace and the
 * user's plugins add (with their `--describe` lines).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CommandContext } from "../harness/mod.ts";
import {
  DescribeCache,
  describeCommand,
  externalCommands,
  mayHaveCommands,
} from "../external/mod.ts";
import { resolvePaths } from "../../core/base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";
import { nearestCommand } from "../launch/mod.ts";

/** The usage error of `hs help <name>` for a name that is no command. */
function noCommand(name: string, names: string[]): string {
  const near = nearestCommand(name, names);
  const hint = near ? `did you mean \`hs help ${near}\`?` : "`hs help` lists the commands";
  return safe(`hs: no command "${name}"\nhint: ${hint}\n`);
}

/**
 * The commands of this workspace and the user's plugins, for `hs help` (every one, with its
 * `--describe` line) or `hs help <name>` (that one); `builtins` are the built-in names (what a
 * typo may mean). Builds a harness only when some `.harness/` or plugins.json may add one.
 */
export async function listExternal(
  ctx: CommandContext,
  name: string | undefined,
  builtins: string[],
): Promise<void> {
  const cli = ctx.cli;
  if (!mayHaveCommands(cli)) {
    if (name) {
      cli.stderr(noCommand(name, builtins));
      ctx.done(2);
    }
    return;
  }
  // executables are asked `--describe` once per version of their file
  const cache = new DescribeCache(resolvePaths(cli.env, cli.cwd).home);
  await ctx.run({}, async (h) => {
    const cmds = [...externalCommands(h).values()].sort((a, b) => a.name < b.name ? -1 : 1);
    if (name) {
      const c = cmds.find((x) => x.name === name);
      if (!c) {
        cli.stderr(noCommand(name, [...builtins, ...cmds.map((x) => x.name)]));
        return 2;
      }
      cli.stdout(safe(`hs ${c.name} — ${await describeCommand(h, c, cache)}\n`));
      cli.stdout(safe(`  ${c.kind === "executable" ? c.path : `from plugin ${c.owner}`}\n`));
      cache.save();
      return 0;
    }
    if (cmds.length > 0) {
      cli.stdout("\nCommands of this workspace and your plugins:\n");
      for (const c of cmds) {
        cli.stdout(safe(`  ${c.name.padEnd(20)} ${await describeCommand(h, c, cache)}\n`));
      }
    }
    cache.save();
    return 0;
  });
}

/**
 * Registers `hs help <command>`. `hs help` with no name is printed by cli/program.ts from its
 * table (no command loaded); here it prints commander's help of the program and the list.
 */
export function register(program: Command, ctx: CommandContext): void {
  const cli = ctx.cli;
  program.command("help").description("show help, the executable commands and the tools")
    .argument("[command]")
    .action(async (name) => {
      const builtin = name && program.commands.find((x) => x.name() === name);
      if (builtin) {
        cli.stdout(builtin.helpInformation());
        return ctx.done(0);
      }
      if (!name) cli.stdout(program.helpInformation());
      await listExternal(ctx, name, program.commands.map((x) => x.name()));
    });
}
