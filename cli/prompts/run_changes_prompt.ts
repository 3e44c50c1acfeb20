/**
 * Control files a run of the agent changed (core/trust `run_changes.ts`): no
 * later run trusts them without the user, `--trust-workspace` included. On a
 * terminal hs lists them and asks; headless it refuses with the list and the
 * `hs trust` command to run once the user has looked at them.
 *
 * @module
 */
import { type FrontEnd, HarnessError, heldHarnessDirs, trustTargetOf } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/** Asks (terminal) or refuses (headless) when earlier runs changed control files. */
export async function handleRunChanges(h: FrontEnd, cli: CliContext): Promise<void> {
  const pending = h.admin.trust.pendingRunChanges();
  if (pending.length === 0) return;
  const targets = [...new Set(pending.map(trustTargetOf))];
  const list = pending.map((c) => `  ${c.file}  (changed during a run in ${c.workspace}, ${c.at})`);
  const head = "control files were changed during a run of the agent; " +
    "hs does not load or trust them until you have looked at them:";
  if (cli.stdinIsTerminal && h.settings.trustPrompt) {
    cli.stderr(safe(`${head}\n${list.join("\n")}\n`));
    const answer = prompt("Trust them and load them? [y/N]") ?? "";
    if (/^y(es)?$/i.test(answer.trim())) {
      await h.admin.trust.acceptRunChanges(targets, heldHarnessDirs(pending));
      return;
    }
  }
  throw new HarnessError(
    safe(`${head}\n${list.join("\n")}`),
    `look at them, then run: ${targets.map((t) => `hs trust ${safe(t)}`).join(" && ")}`,
  );
}
