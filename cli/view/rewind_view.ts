/**
 * What a rewind did, as `hs session rewind` and the REPL's `/rewind` print it.
 *
 * @module
 */
import type { RewindResult } from "../../core/session/mod.ts";

/** What a rewind did, for people. */
export function rewoundText(id: string, r: RewindResult): string {
  const logs = Object.entries(r.logs).map(([p, [a, b]]) => `${p} ${a} → ${b}`);
  let out = `${id}: rewound to turn ${r.turn} (from ${r.from}); ` +
    `${r.messages.length} message file(s)` +
    (logs.length ? `, session state ${logs.join(", ")}` : "") +
    ` kept in ${r.aside}\n`;
  if (r.missing.length) {
    out += `warning: recorded message files no longer present: ${r.missing.join(", ")}\n`;
  }
  out += "project and global pack states are not rolled back\n";
  return out;
}
