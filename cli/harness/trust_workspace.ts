/**
 * Trusting a workspace the way `hs trust` does: its `.harness/` directories (and their
 * control files' fingerprints) recorded in `$HARNESS_HOME/trust.json`, and what a run had
 * changed there handed to the user. Shared by `hs trust` and `hs init`.
 *
 * @module
 */
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import { clearRunChanges, TrustStore } from "../../core/trust/mod.ts";

/** Trusts the workspace at `target` (absolute); returns the workspaces trusted. */
export async function trustWorkspace(home: string, target: string): Promise<string[]> {
  const store = new TrustStore(home);
  const dirs = walkHarnessDirs(target, home).filter((d) => d.kind === "project")
    .map((d) => d.dir);
  const workspaces = dirs.length ? dirs.map((d) => d.replace(/\/\.harness$/, "")) : [target];
  await store.trust(workspaces, dirs);
  // what a run changed there is the user's now (core/trust run_changes.ts)
  clearRunChanges(home, [...new Set([target, ...workspaces])]);
  return workspaces;
}
