/**
 * Where sessions live (docs/sessions.md "Where sessions live", docs/security.md): where
 * the user configured them, or in `$HARNESS_HOME` — never in a directory the agent made.
 *
 * 1. `HARNESS_SESSIONS` in hs's environment (the user set it);
 * 2. else the first `.harness/sessions` walking up from the working directory that is
 *    part of what the user trusted: `hs trust` (or a yes at the trust question) records
 *    each workspace sessions directory that exists then, by device and inode, in the
 *    trust entry of `$HARNESS_HOME/trust.json` — a file no tool of the agent may write.
 *    A sessions directory made later (by the agent's bash in an untrusted workspace, or
 *    put back under the same name) is not that directory, and is skipped;
 * 3. else the workspace's group in `$HARNESS_HOME/sessions`: `<root>/<workspaceKey>/`
 *    (workspace_key.ts), keyed by the working directory's real path. Sessions made
 *    before grouping stay flat in `<root>/<id>/` and count for the workspace of their
 *    `cwd=` (core/session/groups.ts).
 *
 * A skipped directory is named in {@link SessionsPlace.skipped}, so that hs can say why
 * sessions are kept elsewhere and how to keep them there (`hs trust <workspace>`).
 *
 * @module
 */
import { dirname, join, sep } from "../early/mod.ts";
import { readOwnText } from "./safe_fs.ts";
import { workspaceKey, workspaceRealPath } from "./workspace_key.ts";

/** The sessions directory of a run, and the nearest workspace one that was not used. */
export interface SessionsPlace {
  /** The sessions directory. */
  sessions: string;
  /** The nearest `.harness/sessions` that was skipped, and why. */
  skipped?: { dir: string; why: string };
  /**
   * Set when sessions are grouped by workspace (the `$HARNESS_HOME/sessions` default):
   * the root holding every group (and the flat sessions made before grouping), and the
   * real path of this workspace.
   */
  grouped?: { root: string; workspace: string };
}

/** The identity a trusted sessions directory is recorded by: `dev:ino` of the directory itself. */
export function sessionsDirStamp(path: string): string | undefined {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isDirectory || info.isSymlink) return undefined;
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/** Every trusted root → the sessions directories recorded with it (from trust.json). */
function recordedSessions(home: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  const text = readOwnText(join(home, "trust.json"), { quiet: true });
  if (!text) return out;
  try {
    const trusted = (JSON.parse(text) as { trusted?: Record<string, unknown> }).trusted ?? {};
    for (const [root, entry] of Object.entries(trusted)) {
      const s = (entry as { sessions?: unknown } | null)?.sessions;
      const ok = s && typeof s === "object" && !Array.isArray(s);
      out.set(root, ok ? s as Record<string, string> : {});
    }
  } catch { /* an invalid trust file is reported by the trust store */ }
  return out;
}

function covers(root: string, dir: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Why a workspace sessions directory is not used, or undefined when it is. */
function unusable(
  candidate: string,
  workspace: string,
  recorded: Map<string, Record<string, string>>,
): string | undefined {
  const stamp = sessionsDirStamp(candidate);
  if (!stamp) return "it is a link, not a directory";
  let trusted = false;
  for (const [root, dirs] of recorded) {
    if (!covers(root, workspace)) continue;
    trusted = true;
    if (dirs[candidate] === stamp) return undefined;
  }
  return trusted
    ? "it was made (or made again) after you trusted the workspace"
    : "it is not part of a workspace you trusted";
}

/** Chooses the sessions directory of a run (see the module's rules). */
export function chooseSessionsDir(
  env: Record<string, string | undefined>,
  cwd: string,
  home: string,
): SessionsPlace {
  if (env.HARNESS_SESSIONS) return { sessions: env.HARNESS_SESSIONS };
  let recorded: Map<string, Record<string, string>> | undefined;
  let skipped: SessionsPlace["skipped"];
  for (let cur = cwd;;) {
    const candidate = join(cur, ".harness", "sessions");
    let exists = false;
    try {
      Deno.lstatSync(candidate);
      exists = true;
    } catch { /* none here */ }
    if (exists) {
      recorded ??= recordedSessions(home);
      const why = unusable(candidate, cur, recorded);
      if (!why) return { sessions: candidate, ...(skipped ? { skipped } : {}) };
      skipped ??= { dir: candidate, why };
    }
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  const root = join(home, "sessions");
  const workspace = workspaceRealPath(cwd);
  return {
    sessions: join(root, workspaceKey(workspace)),
    grouped: { root, workspace },
    ...(skipped ? { skipped } : {}),
  };
}
