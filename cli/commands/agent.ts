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
import type { CliContext } from "../base/mod.ts";
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

/**
 * The plain form, `hs agent <words…>` (and `hs <words…>`) with no flag among the words, run
 * without commander (~50 ms of CommonJS and Node layer a turn): commander would give the
 * words as they are and no option set, so the turn is the same. Anything that looks like a
 * flag (`-…`, which includes `--help` and `--`) is left to commander: "ran" when it ran.
 */
export async function quick(
  args: readonly string[],
  _cli: CliContext,
  ctx?: CommandContext,
): Promise<"ran" | undefined> {
  if (!ctx || args.some((a) => a.startsWith("-"))) return undefined;
  await agentCommand([...args], {}, ctx);
  return "ran";
}
