/**
 * `hs packs log` — what the packs' programs did wrong at run time (issue 27 point 5): the
 * guard and hook failures (each with its Scheme backtrace) and the load errors the harness
 * wrote to HARNESS_LOG, oldest first; `--all` adds the programs' own output (`display`).
 * `--pack <name>` keeps one pack's entries.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { readTextOrUndefined } from "../../../core/mod.ts";
import type { CommandContext } from "../../harness/mod.ts";
import { sanitizeForTerminal as safe } from "../../view/mod.ts";

/** An entry of the log: a `[pack …]` or `[packs]` line and its `  at …` continuation lines. */
interface Entry {
  head: string;
  more: string[];
}

/** The pack entries of a log's text. */
export function packEntries(text: string): Entry[] {
  const out: Entry[] = [];
  let open: Entry | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("[pack ") || line.startsWith("[packs] ")) {
      out.push(open = { head: line, more: [] });
    } else if (open && line.startsWith("  at ")) open.more.push(line);
    else open = undefined;
  }
  return out;
}

/** True for a failure or load error (not a program's own output). */
function isProblem(e: Entry): boolean {
  return e.head.startsWith("[packs] ") || / failed: /.test(e.head);
}

/** Registers `hs packs log` under `hs packs`. */
export function registerLogCommand(packs: Command, ctx: CommandContext): void {
  packs.command("log").description(
    "the packs' guard and hook failures (with Scheme backtraces) and load errors from HARNESS_LOG",
  )
    .option("--all", "also the programs' own output (display)")
    .option("--pack <name>", "only this pack's entries")
    .action(async (o) => {
      await ctx.run({}, (h) => {
        const text = readTextOrUndefined(h.where.log) ?? "";
        const entries = packEntries(text).filter((e) =>
          (o.all || isProblem(e)) &&
          (!o.pack || e.head.startsWith(`[pack ${o.pack}/`) ||
            e.head.startsWith(`[pack ${o.pack} `) ||
            e.head.startsWith(`[packs] ${o.pack}/`))
        );
        if (entries.length === 0) {
          ctx.cli.stdout(`no pack failures in ${safe(h.where.log)}\n`);
          return Promise.resolve(0);
        }
        for (const e of entries) {
          const head = e.head.replace(/^\[pack ([^\]]+)\] /, "$1 ").replace(/^\[packs\] /, "");
          ctx.cli.stdout(safe(head) + "\n");
          for (const m of e.more) ctx.cli.stdout(safe(m) + "\n");
        }
        return Promise.resolve(0);
      });
    });
}
