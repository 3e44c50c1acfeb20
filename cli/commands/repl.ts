/**
 * `hs repl [session-id]`: the interactive session (the default on a terminal; the REPL
 * itself is cli/repl/).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { addAgentFlags, type CommandContext } from "../harness/mod.ts";
import { runRepl } from "../repl/mod.ts";

/** Registers `hs repl [session-id]`. */
export function register(program: Command, ctx: CommandContext): void {
  addAgentFlags(
    program.command("repl").description("interactive session (the default on a terminal)")
      .argument("[session-id]", "resume this session"),
  ).action(async (id, flags) => {
    await ctx.run(
      { ...flags, interactive: ctx.cli.stdinIsTerminal },
      (h) => runRepl(h, ctx.cli, { session: id, ...flags }),
    );
  });
}
