/**
 * `hs floor`: the effective effect policy and where each part came from (also
 * printed by `hs doctor`).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { addFloorFlags, type CommandContext, type FloorFlags } from "../harness/mod.ts";
import { printFloor } from "../view/mod.ts";

/** `hs floor`: the effective policy and where each part came from. */
export function register(program: Command, ctx: CommandContext): void {
  addFloorFlags(
    program.command("floor").description(
      "show the effect floor: what tools may read, write, reach, run and see, and why",
    ).option("--trust-workspace", "count this workspace's allow rules"),
  ).action(async (o) => {
    await ctx.run(o as FloorFlags & { trustWorkspace?: boolean }, async (h) => {
      ctx.cli.stdout("effect floor\n");
      await printFloor(h, (l) => ctx.cli.stdout(l + "\n"));
      return 0;
    });
  });
}
