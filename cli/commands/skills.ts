/**
 * `hs skills`: the skill catalog the model sees, and skipped `SKILL.md` files.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { colorEnabled, sanitizeForTerminal as safe, styles } from "../view/mod.ts";
import { plainFlags } from "../base/mod.ts";

/** Registers `hs skills`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("skills").description("list skills (the catalog the model sees)")
    .option("--trust-workspace", "include this workspace's sources")
    .action((o) => listSkills(o, ctx));
}

/** `hs skills [--trust-workspace]` without commander (cli/base/plain_flags.ts). */
export async function quick(
  args: readonly string[],
  _cli: CliContext,
  ctx?: CommandContext,
): Promise<"ran" | undefined> {
  const o = plainFlags(args, { "--trust-workspace": "trustWorkspace" });
  if (!ctx || !o) return undefined;
  await listSkills(o, ctx);
  return "ran";
}

async function listSkills(o: { trustWorkspace?: true }, ctx: CommandContext): Promise<void> {
  const cli = ctx.cli;
  await ctx.run(o, (h) => {
    const { skills, problems } = h.catalog.skills();
    const st = styles(colorEnabled(cli.stdoutIsTerminal));
    for (const s of skills.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      cli.stdout(
        `${st.bold(safe(s.name.padEnd(24)))} ${safe(s.description)}\n${
          st.dim(safe(`  ${s.path || (s.owner ? `${s.source} · ${s.owner}` : s.source)}`))
        }\n`,
      );
    }
    for (const p of problems) cli.stdout(st.yellow(safe(`skipped ${p.path}: ${p.reason}\n`)));
    if (skills.length === 0) cli.stdout("no skills found\n");
    return Promise.resolve(0);
  });
}
