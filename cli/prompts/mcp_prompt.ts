/**
 * The servers of the working directory's `.mcp.json` in the trust question
 * (core/trust `project_mcp.ts`): listed with what each would run, approved by
 * name at a yes — then the `mcp` plugin is set up again so they start in this
 * run — and, headless, one notice per server that does not start and how to
 * approve it (`hs trust`). Names and commands are shown with their control
 * characters as pictures.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import type { FrontEnd, ProjectMcpServer } from "../../core/mod.ts";
import { readProjectMcp } from "../../core/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/** The `.mcp.json` servers of the working directory that wait for the user. */
export interface PendingMcp {
  /** The workspace (the working directory). */
  workspace: string;
  /** Its `.mcp.json`. */
  file: string;
  /** Whether the workspace is trusted (else nothing of the file is read to start). */
  trusted: boolean;
  /** The servers not approved yet (or changed since). */
  servers: (ProjectMcpServer & { changed: boolean })[];
}

/** The servers of the working directory's `.mcp.json` that are not approved; undefined if none. */
export function pendingMcp(h: FrontEnd): PendingMcp | undefined {
  const workspace = h.where.cwd;
  const project = readProjectMcp(workspace);
  if (!project || project.servers.length === 0) return undefined;
  const servers = project.servers.map((s) => ({
    ...s,
    status: h.admin.trust.mcpStatus(workspace, s),
  }))
    .filter((s) => s.status !== "approved")
    .map(({ status, ...s }) => ({ ...s, changed: status === "changed" }));
  if (servers.length === 0) return undefined;
  const trusted = h.admin.trust.isTrusted(join(workspace, ".harness"));
  return { workspace, file: project.file, trusted, servers };
}

/** The lines the trust question lists for the servers (already made safe for the terminal). */
export function mcpLines(p: PendingMcp): string[] {
  return [
    safe(`  ${p.file}: MCP servers it would start`),
    ...p.servers.map((s) =>
      safe(`    ${s.name}: ${s.summary}${s.changed ? "  (changed since you approved it)" : ""}`)
    ),
  ];
}

/** Records the approval of the servers and sets the `mcp` plugin up again: they start now. */
export async function approveMcp(h: FrontEnd, p: PendingMcp): Promise<void> {
  await h.admin.trust.approveMcp(p.workspace, p.servers);
}

/** The notices of a run that does not start the servers (already made safe). */
export function mcpNotices(p: PendingMcp): string[] {
  if (!p.trusted) {
    return [
      safe(
        `hs: not reading ${p.file} of an untrusted workspace (trust it with: hs trust ${p.workspace})\n`,
      ),
    ];
  }
  return p.servers.map((s) =>
    safe(
      `hs: not starting MCP server ${s.name} of ${p.file}: ${
        s.changed ? "changed since approved" : "not approved"
      } (approve it with: hs trust ${p.workspace})\n`,
    )
  );
}
