/**
 * `hs resume [message…]`: continue this workspace's latest session (`--all`: the latest of
 * every workspace) — the REPL on a terminal, or one message.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { HarnessError, resolvePaths } from "../../core/base/mod.ts";
import { Sessions } from "../../core/session/mod.ts";
import { addAgentFlags, type CommandContext } from "../harness/mod.ts";
import { agentCommand, runRepl } from "../repl/mod.ts";

/** Registers `hs resume`. */
export function register(program: Command, ctx: CommandContext): void {
  addAgentFlags(
    program.command("resume")
      .description("continue this workspace's latest session (REPL, or one message)")
      .argument("[words...]", "a message to send"),
  ).option("--all", "the latest session of every workspace").action(async (words, opts) => {
    const { all, ...flags } = opts;
    const latest = new Sessions(resolvePaths(ctx.cli.env, ctx.cli.cwd)).list(all === true)[0]?.id;
    if (!latest) {
      throw new HarnessError(
        "no session to resume in this workspace",
        "start one with: hs <message> (every workspace's: hs session list --all)",
      );
    }
    if (words.length === 0 && ctx.cli.stdinIsTerminal) {
      await ctx.run(
        { ...flags, interactive: true },
        (h) => runRepl(h, ctx.cli, { session: latest, ...flags }),
      );
    } else await agentCommand([latest, ...words], flags, ctx);
  });
}
