/**
 * `hs help [command]` (also `hs --help`): the built-in commands with their
 * flags, how to talk to the agent, and the commands this workspace and the
 * user's plugins add (with their `--describe` lines).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CommandContext } from "../harness/mod.ts";
import { describeCommand, externalCommands, mayHaveCommands } from "../external/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";
import { nearestCommand } from "../launch/mod.ts";

const USAGE =
  "\nUsage: hs <message…>        run the agent on a message (a first word that is not a command\n" +
  "                              starts one, unless it is a command's typo; see docs/cli.md)\n" +
  "       hs -- <message…>     the words as a message, whatever the first one is\n" +
  "       hs <session-id> <msg>  continue a session\n" +
  "       echo msg | hs          message on stdin\n" +
  "       hs                     the REPL, on a terminal\n";

/** The usage error of `hs help <name>` for a name that is no command. */
function noCommand(name: string, names: string[]): string {
  const near = nearestCommand(name, names);
  const hint = near ? `did you mean \`hs help ${near}\`?` : "`hs help` lists the commands";
  return safe(`hs: no command "${name}"\nhint: ${hint}\n`);
}

/** Registers `hs help`. */
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
      if (!name) {
        cli.stdout(program.helpInformation());
        cli.stdout(USAGE);
      }
      if (mayHaveCommands(cli)) {
        await ctx.run({}, async (h) => {
          const cmds = [...externalCommands(h).values()].sort((a, b) => a.name < b.name ? -1 : 1);
          if (name) {
            const c = cmds.find((x) => x.name === name);
            if (!c) {
              const names = [...program.commands.map((x) => x.name()), ...cmds.map((x) => x.name)];
              cli.stderr(noCommand(name, names));
              return 2;
            }
            cli.stdout(safe(`hs ${c.name} — ${await describeCommand(h, c)}\n`));
            cli.stdout(safe(`  ${c.kind === "executable" ? c.path : `from plugin ${c.owner}`}\n`));
            return 0;
          }
          if (cmds.length > 0) {
            cli.stdout("\nCommands of this workspace and your plugins:\n");
            for (const c of cmds) {
              cli.stdout(safe(`  ${c.name.padEnd(20)} ${await describeCommand(h, c)}\n`));
            }
          }
          return 0;
        });
      } else if (name) {
        cli.stderr(noCommand(name, program.commands.map((x) => x.name())));
        return ctx.done(2);
      }
      if (!name) cli.stdout("\nDocs: README.md and docs/ in the repository.\n");
    });
}
