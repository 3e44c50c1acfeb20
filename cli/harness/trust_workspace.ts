/**
 * Trusting a workspace the way `hs trust` does: its `.harness/` directories (and their
 * control files' fingerprints) recorded in `$HARNESS_HOME/trust.json`, the servers of its
 * `.mcp.json` approved (`mcp-approvals.json`), and what a run had changed there handed to
 * the user. Shared by `hs trust` and `hs init`.
 *
 * @module
 */
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import { clearRunChanges, readProjectMcp, TrustStore } from "../../core/trust/mod.ts";

/** What {@link trustWorkspace} trusted. */
export interface Trusted {
  /** The workspaces trusted. */
  workspaces: string[];
  /** The `.mcp.json` servers of `target` approved (by name), the file, and why none could be. */
  mcp?: { file: string; servers: string[]; problem?: string };
}

/**
 * Trusts the workspace at `target` (absolute) and approves the servers of its `.mcp.json`
 * as they are now.
 */
export async function trustWorkspace(home: string, target: string): Promise<Trusted> {
  const store = new TrustStore(home);
  const dirs = walkHarnessDirs(target, home).filter((d) => d.kind === "project")
    .map((d) => d.dir);
  const workspaces = dirs.length ? dirs.map((d) => d.replace(/\/\.harness$/, "")) : [target];
  await store.trust(workspaces, dirs);
  // what a run changed there is the user's now (core/trust run_changes.ts)
  clearRunChanges(home, [...new Set([target, ...workspaces])]);
  const project = readProjectMcp(target);
  if (!project) return { workspaces };
  if (project.problem) return { workspaces, mcp: { ...project, servers: [] } };
  store.mcp.approve(target, project.servers);
  return { workspaces, mcp: { file: project.file, servers: project.servers.map((s) => s.name) } };
}
