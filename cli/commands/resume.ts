/**
 * `hs resume [message…]`: continue the latest session — the REPL on a
 * terminal, or one message.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { HarnessError, resolvePaths } from "../../core/base/mod.ts";
import { listSessions } from "../../core/session/mod.ts";
import { addAgentFlags, type CommandContext } from "../harness/mod.ts";
import { agentCommand, runRepl } from "../repl/mod.ts";

/** Registers `hs resume`. */
export function register(program: Command, ctx: CommandContext): void {
  addAgentFlags(
    program.command("resume").description("continue the latest session (REPL, or one message)")
      .argument("[words...]", "a message to send"),
  ).action(async (words, flags) => {
    const latest = listSessions(resolvePaths(ctx.cli.env, ctx.cli.cwd).sessions)[0];
    if (!latest) throw new HarnessError("no session to resume", "start one with: hs <message>");
    if (words.length === 0 && ctx.cli.stdinIsTerminal) {
      await ctx.run(
        { ...flags, interactive: true },
        (h) => runRepl(h, ctx.cli, { session: latest, ...flags }),
      );
    } else await agentCommand([latest, ...words], flags, ctx);
  });
}
