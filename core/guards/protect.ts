/**
 * The harness's own control files. What they hold decides what runs and what
 * the floor allows, so the agent's tools must not change them silently:
 * those of `$HARNESS_HOME` are never writable by a tool, those of a
 * workspace's `.harness/` ask first (and bash sees them read-only). Files the
 * agent extends itself with — `tools/`, `hooks.d/<stage>/`, `commands/`,
 * `skills/`, `prompts/` — are not control files.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { HOME_CONTROL_NAMES, PROTECTED_NAMES } from "../trust/mod.ts";
import { within } from "./policy.ts";

export { HOME_CONTROL_NAMES, PROTECTED_NAMES };

/** The control paths of the home (never writable) and of the workspace's walk (ask). */
export interface ControlPaths {
  /** The home's control files (never writable). */
  home: string[];
  /** The control files of the workspace's `.harness` directories (writes ask). */
  project: string[];
}

/** Control paths for a workspace and a harness home. */
export function controlPaths(places: { workspace: string; home: string }): ControlPaths {
  const home = [...PROTECTED_NAMES, ...HOME_CONTROL_NAMES].map((n) => join(places.home, n));
  const project: string[] = [];
  for (let d = places.workspace;; d = dirname(d)) {
    const h = join(d, ".harness");
    if (h !== places.home) project.push(...PROTECTED_NAMES.map((n) => join(h, n)));
    if (dirname(d) === d) break;
  }
  return { home, project };
}

/** The control path covering `path`, if any. */
export function controlPathOf(path: string, list: string[]): string | undefined {
  return list.find((c) => within(path, c));
}
