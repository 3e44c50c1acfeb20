/**
 * The effective effect floor, as `hs floor` and `hs doctor` print it: the policy and the
 * sandbox's state.
 *
 * @module
 */
import type { EffectFloor } from "../../core/mod.ts";
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
