/**
 * `hs floor`: the effective effect policy and where each part came from (also
 * printed by `hs doctor`).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { EffectFloor } from "../core/mod.ts";
import type { CommandContext } from "./command.ts";
import { addFloorFlags, type FloorFlags } from "./floor_flags.ts";
import { sanitizeForTerminal as safe } from "./render.ts";

/** Prints the effective floor (also used by `hs doctor`). */
export async function printFloor(
  h: { effectFloor?: EffectFloor },
  out: (line: string) => void,
): Promise<void> {
  const f = h.effectFloor;
  if (!f) {
    out("  no effect floor (library default: allow all)");
    return;
  }
  for (const l of f.describe()) out(safe(`  ${l}`));
  const p = await f.sandbox.probe();
  out(safe(
    `  sandbox  ${
      p.ok ? `bubblewrap (${p.bwrap})` : `unavailable — ${p.reason}`
    }; file tools: Deno worker with exactly the policy's permissions`,
  ));
}

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
