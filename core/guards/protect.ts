/**
 * The harness's control paths as the floor sees them (docs/security.md "Two
 * kinds of paths"): `$HARNESS_HOME` is never writable by a tool; every other
 * control path — a `.harness/` of the walk but its agent rooms (`tools/`,
 * `skills/`, `prompts/`), the workspace's `.mcp.json`, the git directory's
 * hooks and configuration — asks the user first, showing the resolved path,
 * and `--yes` never answers for them. Decisions are made on resolved real
 * paths (a link into a control directory is the control directory).
 *
 * @module
 */
import { classifyPath, type ControlClass, type ControlLayout, realPathOf } from "../trust/mod.ts";

export {
  AGENT_ROOMS,
  classifyPath,
  type ControlClass,
  type ControlLayout,
  controlLayout,
  controlMountPlan,
  HOME_CONTROL_NAMES,
  PROTECTED_NAMES,
  realPathOf,
} from "../trust/mod.ts";

/** A write's target: the path as given, its real path, and what that is. */
export interface ControlTarget {
  /** The path as the tool gave it. */
  path: string;
  /** Its real path (links resolved, also for parts that do not exist yet). */
  real: string;
  /** The control class of the real path (or of the given one), if it is a control path. */
  control?: ControlClass;
}

/** Resolves and classifies a write's target. */
export function controlTarget(path: string, layout: ControlLayout): ControlTarget {
  const real = realPathOf(path);
  return { path, real, control: classifyPath(real, layout) ?? classifyPath(path, layout) };
}

/** "p" or "p (resolves to r)". */
export function shownPath(t: { path: string; real: string }): string {
  return t.real === t.path ? t.path : `${t.path} (resolves to ${t.real})`;
}
