/**
 * Two kinds of paths (docs/security.md "Two kinds of paths"). *Agent-extensible*
 * rooms hold what runs inside the agent's own sandbox or is plain text: a
 * `.harness/`'s `tools/`, `skills/` and `prompts/` (and `AGENTS.md`, which is
 * outside `.harness/`). *Control* paths are everything that runs outside the
 * sandbox, shapes the pipeline, decides policy or is hs's own state: the rest
 * of every `.harness/` of the walk (hooks, commands, providers, settings,
 * floor.json, packs, plugins, sessions, …), the workspace's `.mcp.json` and
 * `.claude/` settings and hooks, the
 * control parts of the git directory the user's `git` uses in the workspace
 * (and the workspace's `.git` itself while it does not exist), and
 * `$HARNESS_HOME` entirely. A control path is read-only to every tool of the
 * agent, whether it exists yet or not, however it is reached: the file worker
 * classifies resolved real paths, the OS sandbox mounts them read-only.
 *
 * @module
 */
import { dirname, join, normalize, resolve } from "../early/mod.ts";
import type { ControlMountPlan } from "../sandbox/mod.ts";
import { isWithin, lstatOrUndefined, realPathOrSelf } from "../base/mod.ts";

export type { ControlMountPlan };

/** Rooms of a `.harness/` directory the agent may write (its own tools, skills, prompts). */
export const AGENT_ROOMS: readonly string[] = ["tools", "skills", "prompts"];

/**
 * Parts of a git directory that decide what `git` runs: hooks, the configuration
 * (`core.fsmonitor`, `core.hooksPath`, filters, aliases …), `info/` (attributes, excludes),
 * and the git directories of submodules and worktrees, which carry their own.
 */
export const GIT_CONTROL: readonly string[] = [
  "hooks",
  "config",
  "config.worktree",
  "info",
  "modules",
  "worktrees",
  "commondir",
];

/**
 * Parts of a workspace's `.claude/` that shape the pipeline or decide policy: the settings
 * (hooks, permissions) and the conventional home of hook scripts.
 */
export const CLAUDE_CONTROL: readonly string[] = ["settings.json", "settings.local.json", "hooks"];

/** Where the control paths of a workspace are. */
export interface ControlLayout {
  /** `$HARNESS_HOME`: control in its entirety. */
  home: string;
  /** Every `.harness` directory of the walk (workspace first; existing or not), the home's excluded. */
  harnessDirs: string[];
  /** The workspace's own `.harness` directory. */
  workspaceHarness: string;
  /** Single control paths outside `.harness/`: `.mcp.json`, the git directory's control parts. */
  others: string[];
  /**
   * The git directory `git` uses in the workspace (the nearest `.git` directory of the walk),
   * if there is one.
   */
  gitDir?: string;
  /** The workspace's `.git` when it does not exist (so that none can be made there). */
  missingGit?: string;
  /** hs's own state outside the home (the sessions directory, the log): never writable. */
  state: string[];
}

/** What a path is. */
export interface ControlClass {
  /** `home`: never writable by a tool; `project`: a write asks the user. */
  kind: "home" | "project";
  /** The control root that covers it (a `.harness` directory, a git part, the home). */
  root: string;
}

/** True when `g` is a git directory (git skips a `.git` without `HEAD`, e.g. an empty one). */
function isGitDir(g: string): boolean {
  return lstatOrUndefined(g)?.isDirectory === true &&
    lstatOrUndefined(join(g, "HEAD")) !== undefined;
}

/** The nearest `.git` directory at or above `dir`. */
function gitDirOf(dir: string): string | undefined {
  for (let d = dir;; d = dirname(d)) {
    const g = join(d, ".git");
    const info = lstatOrUndefined(g);
    if (info?.isDirectory && isGitDir(g)) return g;
    if (info?.isFile) {
      // a gitfile (worktree, submodule): `gitdir: <path>` names the git directory
      let text = "";
      try {
        text = Deno.readTextFileSync(g);
      } catch { /* unreadable: nothing to follow */ }
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
      const target = m ? resolve(d, m[1]) : undefined;
      return target && isGitDir(target) ? target : undefined;
    }
    if (dirname(d) === d) return undefined;
  }
}

/** The control layout of a workspace and a harness home. */
export function controlLayout(
  places: { workspace: string; home: string; state?: string[] },
): ControlLayout {
  const workspace = resolve(places.workspace);
  const home = resolve(places.home);
  const harnessDirs: string[] = [];
  for (let d = workspace;; d = dirname(d)) {
    const h = join(d, ".harness");
    if (h !== home) {
      harnessDirs.push(h);
      // a `.harness` that is a link: where it points is the control directory too
      const r = realPathOrSelf(h);
      if (r !== h && r !== home) harnessDirs.push(r);
    }
    if (dirname(d) === d) break;
  }
  // a Claude Code project's hooks and permissions (its commands, agents, skills stay writable)
  const others = [
    join(workspace, ".mcp.json"),
    ...CLAUDE_CONTROL.map((n) => join(workspace, ".claude", n)),
  ];
  const gitDir = gitDirOf(workspace);
  const wsGit = join(workspace, ".git");
  if (gitDir) {
    others.push(...GIT_CONTROL.map((n) => join(gitDir, n)));
    // a linked worktree's hooks and config live in the common directory
    let common = "";
    try {
      common = Deno.readTextFileSync(join(gitDir, "commondir")).trim();
    } catch { /* not a linked worktree */ }
    if (common) others.push(...GIT_CONTROL.map((n) => join(resolve(gitDir, common), n)));
  }
  if (lstatOrUndefined(wsGit)?.isFile) others.push(wsGit);
  // no `.git` here, or an empty one (a placeholder of an earlier run): none may be made here
  const missingGit =
    !lstatOrUndefined(wsGit) || (lstatOrUndefined(wsGit)!.isDirectory && !isGitDir(wsGit))
      ? wsGit
      : undefined;
  if (missingGit) others.push(missingGit);
  return {
    home,
    harnessDirs,
    workspaceHarness: join(workspace, ".harness"),
    others,
    gitDir,
    missingGit,
    state: [...(places.state ?? []).map((p) => resolve(p)), realPathOrSelf(home)]
      .filter((p, i, all) => p !== home && all.indexOf(p) === i),
  };
}

/** The class of an absolute path (resolve links first: see {@link realPathOf}). */
export function classifyPath(path: string, layout: ControlLayout): ControlClass | undefined {
  const p = normalize(path);
  if (isWithin(p, layout.home)) return { kind: "home", root: layout.home };
  const state = layout.state.find((d) => isWithin(p, d));
  if (state) return { kind: "home", root: state };
  for (const h of layout.harnessDirs) {
    if (!isWithin(p, h)) continue;
    if (AGENT_ROOMS.some((r) => isWithin(p, join(h, r)))) return undefined;
    return { kind: "project", root: h };
  }
  const other = layout.others.find((o) => isWithin(p, o));
  return other ? { kind: "project", root: other } : undefined;
}

/**
 * The real path of `p`: links resolved in every component, also for a path that does not
 * exist yet (its nearest existing ancestor resolved, dangling links followed).
 */
export function realPathOf(p: string): string {
  let rest = "";
  let cur = normalize(resolve(p));
  for (let hops = 0; hops < 64; hops++) {
    try {
      const r = Deno.realPathSync(cur);
      return rest ? (r === "/" ? "" : r) + rest : r;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound) || cur === "/") return normalize(resolve(p));
      const info = lstatOrUndefined(cur);
      if (info?.isSymlink) {
        // a dangling link: where it points is where a write through it lands
        cur = normalize(resolve(dirname(cur), Deno.readLinkSync(cur)));
        continue;
      }
      rest = cur.slice(cur.lastIndexOf("/")) + rest;
      cur = dirname(cur);
    }
  }
  return normalize(resolve(p));
}

/** The mount plan of a layout (see bwrap's `controlMountArgs`). */
export function controlMountPlan(layout: ControlLayout): ControlMountPlan {
  const readOnly: string[] = [layout.home];
  const rooms: string[] = [];
  const pinned: string[] = [];
  const placeholders: string[] = [];
  for (const h of layout.harnessDirs) {
    readOnly.push(h);
    rooms.push(...AGENT_ROOMS.map((r) => join(h, r)));
    // a missing `.harness` above the workspace, in a writable grant, stays missing
    if (h !== layout.workspaceHarness) placeholders.push(h);
  }
  // the workspace's rooms, made before the first child (not when the workspace is the home)
  const ensure = layout.workspaceHarness === layout.home
    ? []
    : AGENT_ROOMS.map((r) => join(layout.workspaceHarness, r));
  if (layout.gitDir) {
    pinned.push(layout.gitDir);
    placeholders.push(join(layout.gitDir, "hooks"));
  }
  if (layout.missingGit) placeholders.push(layout.missingGit);
  for (const o of [...layout.others, ...layout.state]) if (!readOnly.includes(o)) readOnly.push(o);
  return { readOnly, rooms, pinned, placeholders, ensure };
}
