/**
 * `hs tools`: the tools the model can call — registered ones and the
 * workspace's executables — with who owns each, and the rejected ones.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { toolsCommand } from "../view/mod.ts";
import { plainFlags } from "../base/mod.ts";

/** Registers `hs tools`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("tools").description("list the tools the model can call, and rejected ones")
    .option("--trust-workspace", "include this workspace's executables")
    .action((o) => listTools(o, ctx));
}

async function listTools(o: { trustWorkspace?: true }, ctx: CommandContext): Promise<void> {
  await ctx.run(o, (h) => toolsCommand(h, ctx.cli));
}

/** `hs tools [--trust-workspace]` without commander (cli/base/plain_flags.ts). */
export async function quick(
  args: readonly string[],
  _cli: CliContext,
  ctx?: CommandContext,
): Promise<"ran" | undefined> {
  const o = plainFlags(args, { "--trust-workspace": "trustWorkspace" });
  if (!ctx || !o) return undefined;
  await listTools(o, ctx);
  return "ran";
}
