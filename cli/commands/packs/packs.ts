/**
 * `hs packs` — the behavior packs, their bots, programs, states and load
 * errors — and `hs packs approve [pack] [bot]`, which approves the guards of
 * bots waiting for it (seed 000 §7: every new or changed guard asks; an
 * unapproved guard is a load error). Also the consent question asked on a
 * terminal before a run, the way the trust question is.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { relative } from "../../../core/early/mod.ts";
import type { BotState, FrontEnd } from "../../../core/mod.ts";
import type { CliContext } from "../../base/mod.ts";
import type { CommandContext } from "../../harness/mod.ts";
import { colorEnabled, sanitizeForTerminal as safe, styles } from "../../view/mod.ts";
import { registerLogCommand } from "./log.ts";
import { registerStateCommands } from "./state.ts";
import { registerTestCommand } from "./test.ts";

/** Registers `hs packs`. */
export function register(program: Command, ctx: CommandContext): void {
  const packs = program.command("packs").description(
    "list behavior packs, their bots and load errors (exits 1 when a pack has a load error); " +
      "approve their guards",
  )
    .option("--trust-workspace", "include this workspace's packs")
    .action(async (o) => {
      await ctx.run(o, async (h) => {
        await h.packs.loadNamed();
        return listPacks(h, ctx.cli);
      });
    });
  packs.command("approve").description("approve the guards of bots waiting for approval")
    .argument("[pack]", "only this pack")
    .argument("[bot]", "only this bot")
    .option("--trust-workspace", "include this workspace's packs")
    .action(async (pack, bot, o) => {
      // `hs packs --trust-workspace approve` and `hs packs approve --trust-workspace` alike
      await ctx.run({ ...packs.opts(), ...o }, async (h) => {
        await h.packs.loadNamed();
        const waiting = h.packs.bots().filter((b) =>
          (!pack || b.pack.name === pack) && (!bot || b.spec.name === bot) && b.pending.length
        );
        const cli = ctx.cli;
        if (waiting.length === 0) {
          cli.stdout("no guards wait for approval\n");
          return 0;
        }
        for (const b of waiting) {
          for (const g of b.pending) {
            cli.stdout(
              safe(`approved ${b.pack.name}/${b.spec.name} ${g.guard} (${g.point}, ${g.loc})\n`),
            );
          }
          await h.packs.approve(b);
        }
        return 0;
      });
    });
  registerStateCommands(packs as unknown as Command, ctx);
  registerLogCommand(packs as unknown as Command, ctx);
  registerTestCommand(packs as unknown as Command, ctx);
}

function listPacks(h: FrontEnd, cli: CliContext): number {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const all = h.packs.list();
  if (all.length === 0) {
    cli.stdout(`no packs (put them in ${h.where.home}/packs/ or .harness/packs/)\n`);
    return 0;
  }
  let broken = false;
  for (const p of all) {
    const m = p.manifest;
    cli.stdout(
      `${st.bold(safe(m?.name ?? p.dir))} ${safe(m?.version ?? "")}  ${st.dim(safe(p.dir))}\n`,
    );
    if (p.error) {
      cli.stdout(`  ${st.red("load error")} ${safe(p.error)}\n`);
      broken = true;
      continue;
    }
    for (const e of p.stateErrors ?? []) cli.stdout(`  ${st.red("load error")} ${safe(e)}\n`);
    broken ||= !!p.stateErrors?.length || p.bots.some((b) => b.status === "not attached");
    if (m?.description) cli.stdout(`  ${safe(m.description)}\n`);
    for (const b of p.bots) cli.stdout(botLine(b, st));
    for (const [scope, file] of Object.entries(m?.states ?? {})) {
      cli.stdout(safe(`  state ${scope}: ${relative(m!.root, file)}\n`));
    }
    if (m?.skills.length) {
      cli.stdout(safe(`  skills: ${m.skills.map((s) => relative(m.root, s)).join(", ")}\n`));
    }
    if (m?.commands.length) {
      cli.stdout(safe(`  commands: ${m.commands.map((c) => relative(m.root, c)).join(", ")}\n`));
    }
    for (const r of m?.mcp ?? []) cli.stdout(safe(`  mcp: ${r.name} (${r.visibility})\n`));
    for (const n of m?.notices ?? []) cli.stdout(`  ${st.yellow("notice")} ${safe(n)}\n`);
  }
  const refused = h.runs.refusal();
  if (refused) {
    cli.stdout(
      `${st.red("the main agent does not run")}: a foreground pack did not load (it fails ` +
        `closed) — ${safe(refused.hint)}\n`,
    );
  }
  return broken ? 1 : 0;
}

function botLine(b: BotState, st: ReturnType<typeof styles>): string {
  const how = safe(
    b.spec.attach === "foreground" ? "foreground" : `named, ${b.spec.scope} scope`,
  );
  const program = b.spec.behavior
    ? safe(relative(b.pack.root, b.spec.behavior.program))
    : "(no behavior)";
  const color = b.status === "attached" || b.status === "ready" || b.status === "no behavior"
    ? st.green
    : st.yellow;
  let out = `  bot ${st.bold(safe(b.spec.name))} (${how}) ${program}: ${color(b.status)}\n`;
  if (b.spec.tools) out += safe(`    tools: ${b.spec.tools.join(", ")}\n`);
  if (b.reason) out += safe(`    ${b.reason}\n`);
  for (const g of b.pending) {
    out += safe(`    waiting: guard ${g.guard} (${g.point}) at ${g.loc}\n`);
  }
  return out;
}
