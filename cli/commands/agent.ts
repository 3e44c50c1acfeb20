/**
 * `hs agent [session-id] <message…>` (and `hs <message…>`): one headless turn.
 * The message may come from stdin. A terminal shows the streamed transcript;
 * a pipe gets the final answer only (or JSON with `--json`, events with
 * `--events`). Ctrl-C cancels the turn and keeps the session; a second one
 * exits.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { addAgentFlags, type CommandContext } from "../harness/mod.ts";
import { agentCommand } from "../repl/mod.ts";

/** Registers `hs agent`. */
export function register(program: Command, ctx: CommandContext): void {
  addAgentFlags(
    program.command("agent").description("run the agent headless: hs agent [session-id] <message…>")
      .argument("[words...]", "optional session id, then the message (or pipe it on stdin)"),
  ).action(async (words, flags) => {
    await agentCommand(words, flags, ctx);
  });
}
