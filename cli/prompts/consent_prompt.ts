/**
 * The consent question (seed 000 §7), asked on a terminal before a command
 * runs, the way the trust question is: guards of foreground bots that wait
 * for approval are listed, and a yes approves them.
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/**
 * On a terminal, asks to approve the guards of foreground bots waiting for it; headless,
 * says which packs wait and how to approve them.
 */
export async function handleConsent(h: FrontEnd, cli: CliContext): Promise<void> {
  const waiting = h.packs.bots().filter((b) => b.spec.attach === "foreground" && b.pending.length);
  for (const b of waiting) {
    const name = safe(`${b.pack.name}/${b.spec.name}`);
    if (cli.stdinIsTerminal) {
      cli.stderr(`Behavior pack ${name} declares guards that run on every matching call:\n`);
      for (const g of b.pending) cli.stderr(safe(`  ${g.guard} (${g.point}) at ${g.loc}\n`));
      const answer = prompt("Approve them? [y/N]") ?? "";
      if (/^y(es)?$/i.test(answer.trim())) {
        await h.packs.approve(b);
        continue;
      }
      // asked and declined: this run goes on without the bot (headless, it is refused)
      h.packs.decline(b);
    }
    cli.stderr(
      `hs: pack ${name} is not attached: ${b.pending.length} guard(s) wait for approval ` +
        `(approve them with: hs packs approve ${safe(b.pack.name)})\n`,
    );
  }
}
