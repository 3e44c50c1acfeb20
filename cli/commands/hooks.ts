/**
 * `hs hooks [stage]`: the hooks of each stage, built-in and executable, in
 * the order they run. An unknown stage exits 1.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { type FrontEnd, KNOWN_STAGES } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { colorEnabled, sanitizeForTerminal as safe, styles } from "../view/mod.ts";

/** Registers `hs hooks`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("hooks").description("list hooks per stage (built-in and executable)")
    .argument("[stage]", "only this stage")
    .option("--trust-workspace", "include this workspace's executables")
    .action(async (stage, o) => {
      await ctx.run(o, (h) => Promise.resolve(hooksCommand(h, stage, ctx.cli)));
    });
}

function hooksCommand(h: FrontEnd, stage: string | undefined, cli: CliContext): number {
  const snap = h.catalog.snapshot();
  const stages = new Set([...KNOWN_STAGES, ...snap.hooks.keys()]);
  if (stage && !stages.has(stage)) {
    cli.stderr(safe(`hs: unknown stage "${stage}"; known stages: ${[...stages].join(", ")}\n`));
    return 1;
  }
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  for (const s of stage ? [stage] : [...stages]) {
    const names = new Map<string, string>();
    for (const b of h.catalog.builtinHooks(s)) names.set(b.name, "built-in");
    for (const [n, f] of snap.hooks.get(s) ?? []) names.set(n, f.path);
    if (!stage && names.size === 0) continue;
    cli.stdout(`${st.bold(safe(s))}\n`);
    for (const n of [...names.keys()].sort()) {
      cli.stdout(`  ${safe(n.padEnd(20))} ${st.dim(safe(names.get(n)!))}\n`);
    }
  }
  return 0;
}
