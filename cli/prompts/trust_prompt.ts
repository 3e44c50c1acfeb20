/**
 * The trust question (PROTOCOLS "Trust"): the first time `hs` meets a
 * workspace whose `.harness/` holds code — or whose control files changed
 * since it was trusted — it lists what would load and asks. Headless runs
 * skip those sources with a one-line notice saying how to trust them. The
 * servers of a `.mcp.json` at the workspace root are part of the question, and
 * asked about again, by name, when one is new or changed (mcp_prompt.ts). File
 * names are shown with their control characters as pictures.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import type { FrontEnd } from "../../core/mod.ts";
import { statOrUndefined } from "../../core/base/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";
import { approveMcp, mcpLines, mcpNotices, type PendingMcp, pendingMcp } from "./mcp_prompt.ts";
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
 * `HARNESS_NO_TRUST_PROMPT` is set) — its `.harness/` directories and the MCP servers
 * of its `.mcp.json` — and then to approve the `.mcp.json` servers of a trusted
 * workspace that are new or changed; otherwise prints one notice per skipped source.
 * Resolves once the answers are stored.
 */
export async function handleTrust(h: FrontEnd, cli: CliContext): Promise<void> {
  await handleRunChanges(h, cli);
  const asking = cli.stdinIsTerminal && h.settings.trustPrompt;
  const untrusted = h.catalog.snapshot().untrusted;
  const claude = h.catalog.claudeUntrusted()
    .filter((c) => !untrusted.some((d) => workspaceOf(d) === c.dir));
  const mcp = pendingMcp(h);
  const untrustedMcp = mcp && !mcp.trusted ? mcp : undefined;
  if (untrusted.length || untrustedMcp || claude.length) {
    if (!asking || !(await askWorkspace(h, cli, untrusted, untrustedMcp, claude))) {
      const changed = new Set(h.admin.trust.changed().map((c) => c.harnessDir));
      for (const d of untrusted) {
        const why = changed.has(d) ? "changed since trusted" : "untrusted";
        cli.stderr(safe(`hs: skipping ${why} ${d} (trust it with: hs trust ${workspaceOf(d)})\n`));
      }
      for (const c of claude) {
        cli.stderr(
          safe(
            `hs: not reading the Claude Code files of untrusted ${c.dir} (trust it with: ` +
              `hs trust ${c.dir})\n`,
          ),
        );
      }
      if (untrustedMcp) {
        for (const line of mcpNotices(untrustedMcp)) cli.stderr(line);
        return;
      }
    }
  }
  // the servers of a trusted workspace (trusted now, or before) that wait for approval
  const waiting = pendingMcp(h);
  if (!waiting?.trusted) return;
  if (asking) return await askMcp(h, cli);
  for (const line of mcpNotices(waiting)) cli.stderr(line);
}

/** The workspace question; true when the user trusted it (and its servers were approved). */
async function askWorkspace(
  h: FrontEnd,
  cli: CliContext,
  untrusted: string[],
  mcp: PendingMcp | undefined,
  claude: { dir: string; holds: string[] }[],
): Promise<boolean> {
  const changed = new Set(h.admin.trust.changed().map((c) => c.harnessDir));
  const fresh = untrusted.filter((d) => !changed.has(d));
  if (fresh.length || mcp || claude.length) {
    cli.stderr(
      "This workspace has a .harness/, a .mcp.json or Claude Code files that would run code, " +
        "reach servers or instruct the agent from your machine:\n",
    );
  }
  for (const c of claude) {
    cli.stderr(safe(`  ${c.dir} (Claude Code)\n`));
    for (const line of c.holds) cli.stderr(safe(`    ${line}\n`));
  }
  for (const d of untrusted) {
    const note = changed.has(d) ? "  (its control files changed since you trusted it)" : "";
    cli.stderr(safe(`  ${d}${note}\n`));
    for (const line of contents(d)) cli.stderr(safe(`    ${line}\n`));
  }
  if (mcp) { for (const line of mcpLines(mcp)) cli.stderr(line + "\n"); }
  const answer = prompt("Trust and load them? [y/N]") ?? "";
  if (!/^y(es)?$/i.test(answer.trim())) return false;
  const workspaces = [...untrusted.map(workspaceOf), ...claude.map((c) => c.dir)];
  const dirs = [...untrusted, ...claude.map((c) => join(c.dir, ".harness"))];
  if (mcp && !workspaces.includes(mcp.workspace)) {
    workspaces.push(mcp.workspace);
    dirs.push(join(mcp.workspace, ".harness"));
  }
  // discovery reads the walk again; the packs of a workspace trusted now belong to this run
  await h.admin.trust.trust(workspaces, dirs);
  if (mcp) await approveMcp(h, mcp);
  return true;
}

/** The question about the new or changed `.mcp.json` servers of a trusted workspace. */
async function askMcp(h: FrontEnd, cli: CliContext): Promise<void> {
  const mcp = pendingMcp(h);
  if (!mcp || !mcp.trusted) return;
  cli.stderr("This workspace's .mcp.json names MCP servers you have not approved:\n");
  for (const line of mcpLines(mcp)) cli.stderr(line + "\n");
  const answer = prompt("Start them? [y/N]") ?? "";
  if (/^y(es)?$/i.test(answer.trim())) return await approveMcp(h, mcp);
  for (const line of mcpNotices(mcp)) cli.stderr(line);
}
