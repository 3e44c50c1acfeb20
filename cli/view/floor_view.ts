/**
 * The effective effect floor, as `hs floor` and `hs doctor` print it: the policy and the
 * sandbox's state.
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import { sanitizeForTerminal as safe } from "./render.ts";

/** Prints the effective floor (also used by `hs doctor`). */
export async function printFloor(
  h: Pick<FrontEnd, "admin">,
  out: (line: string) => void,
): Promise<void> {
  const f = h.admin.floor;
  if (!f) {
    out("  no effect floor (library default: allow all)");
    return;
  }
  for (const l of f.describe()) out(safe(`  ${l}`));
  const p = await f.probe();
  out(safe(
    `  sandbox  ${
      p.ok ? `bubblewrap (${p.bwrap})` : `unavailable — ${p.reason}`
    }; file tools: Deno worker with exactly the policy's permissions`,
  ));
}
