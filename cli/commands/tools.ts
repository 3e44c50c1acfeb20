/**
 * `hs tools`: the tools the model can call — registered ones and the
 * workspace's executables — with who owns each, and the rejected ones.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CommandContext } from "../harness/mod.ts";
import { toolsCommand } from "../view/mod.ts";

/** Registers `hs tools`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("tools").description("list the tools the model can call, and rejected ones")
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (o) => {
      await ctx.run(o, (h) => toolsCommand(h, ctx.cli));
    });
}
