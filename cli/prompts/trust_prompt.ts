/**
 * The trust question (PROTOCOLS "Trust"): the first time `hs` meets a
 * workspace whose `.harness/` holds code — or whose control files changed
 * since it was trusted — it lists what would load and asks. Headless runs
 * skip those sources with a one-line notice saying how to trust them. File
 * names are shown with their control characters as pictures.
 *
 * @module
 */
import { join } from "node:path";
import type { FrontEnd } from "../../core/mod.ts";
import { statOrUndefined } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";
import { handleRunChanges } from "./run_changes_prompt.ts";

const CODE_DIRS = ["tools", "hooks.d", "commands", "providers", "plugins", "packs"];

function workspaceOf(harnessDir: string): string {
  return harnessDir.replace(/\/\.harness$/, "");
}

/** What a `.harness/` directory would load, one line per kind. */
function contents(dir: string): string[] {
  const out: string[] = [];
  for (const sub of CODE_DIRS) {
    const p = join(dir, sub);
    if (!statOrUndefined(p)?.isDirectory) continue;
    const names = [...Deno.readDirSync(p)].map((e) => e.name).sort();
    if (names.length) out.push(`${sub}/: ${names.join(", ")}`);
  }
  for (const f of ["floor.json", "settings.conf"]) {
    if (statOrUndefined(join(dir, f))?.isFile) out.push(f);
  }
  return out;
}

/**
 * Asks to trust the workspace's untrusted sources (on a terminal, unless
 * `HARNESS_NO_TRUST_PROMPT` is set); otherwise prints one notice per skipped
 * source. Resolves once the answer is stored.
 */
export async function handleTrust(h: FrontEnd, cli: CliContext): Promise<void> {
  await handleRunChanges(h, cli);
  const untrusted = h.catalog.snapshot().untrusted;
  if (untrusted.length === 0) return;
  const changed = new Set(h.admin.trust.changed().map((c) => c.harnessDir));
  if (cli.stdinIsTerminal && h.settings.trustPrompt) {
    const fresh = untrusted.filter((d) => !changed.has(d));
    if (fresh.length) {
      cli.stderr(
        "This workspace has a .harness/ that would run code or reach servers from your machine:\n",
      );
    }
    for (const d of untrusted) {
      const note = changed.has(d) ? "  (its control files changed since you trusted it)" : "";
      cli.stderr(safe(`  ${d}${note}\n`));
      for (const line of contents(d)) cli.stderr(safe(`    ${line}\n`));
    }
    const answer = prompt("Trust and load them? [y/N]") ?? "";
    if (/^y(es)?$/i.test(answer.trim())) {
      // discovery reads the walk again; the packs of a workspace trusted now belong to this run
      await h.admin.trust.trust(untrusted.map(workspaceOf), untrusted);
      return;
    }
  }
  for (const d of untrusted) {
    const why = changed.has(d) ? "changed since trusted" : "untrusted";
    cli.stderr(safe(`hs: skipping ${why} ${d} (trust it with: hs trust ${workspaceOf(d)})\n`));
  }
}
