/**
 * The mounts that keep control paths read-only inside the OS sandbox
 * (docs/security.md "Two kinds of paths"), whether they exist yet or not and
 * however they are reached: a control directory is bound read-only onto
 * itself (a mount point can be neither renamed nor removed, so `mv .harness x`
 * fails; a hard link out of it fails with EXDEV; a symlink to it leads to the
 * same read-only mount), the agent's rooms are bound writable again on top,
 * the git directory is pinned (bound onto itself) so that it cannot be swapped
 * for another, and a missing control directory becomes an empty read-only
 * placeholder (an empty directory bubblewrap leaves behind on the host).
 * Only paths inside a writable grant are touched: everything else is
 * read-only or invisible already.
 *
 * @module
 */
import { isWithin, lstatOrUndefined, realPathOrSelf } from "../base/mod.ts";

/** What to mount for the control paths (computed by `core/trust`'s `controlMountPlan`). */
export interface ControlMountPlan {
  /** Control roots bound read-only over a writable grant (existing ones). */
  readOnly: string[];
  /** Agent rooms bound writable again inside a read-only `.harness`. */
  rooms: string[];
  /** Directories bound onto themselves so that they cannot be renamed (the git directory). */
  pinned: string[];
  /** Missing control directories that become empty read-only placeholders. */
  placeholders: string[];
  /** Directories hs creates before the first child (the workspace's rooms). */
  ensure: string[];
}

function parentOf(p: string): string {
  return p.slice(0, p.lastIndexOf("/")) || "/";
}

/**
 * bubblewrap arguments for a plan, to come after the writable binds (`writable`: the
 * policy's writable paths, or "all" when the host's root is bound writable).
 */
export function controlMountArgs(plan: ControlMountPlan, writable: "all" | string[]): string[] {
  const inWritable = (p: string) => writable === "all" || writable.some((w) => isWithin(p, w));
  const a: string[] = [];
  for (const d of plan.pinned) {
    if (lstatOrUndefined(d)?.isDirectory && inWritable(d)) a.push("--bind", d, d);
  }
  const bound: string[] = [];
  for (const raw of plan.readOnly) {
    const info = lstatOrUndefined(raw);
    if (!info) continue;
    // a control path that is itself a link: its target is what runs, keep that read-only
    const p = info.isSymlink ? realPathOrSelf(raw) : raw;
    if (!inWritable(p) || bound.includes(p)) continue;
    bound.push(p);
    a.push("--ro-bind", p, p);
  }
  for (const r of plan.rooms) {
    if (!lstatOrUndefined(r)?.isDirectory || !bound.some((b) => isWithin(r, b)) || !inWritable(r)) {
      continue;
    }
    a.push("--bind", r, r);
  }
  for (const p of plan.placeholders) {
    if (lstatOrUndefined(p) || !lstatOrUndefined(parentOf(p))?.isDirectory || !inWritable(p)) {
      continue;
    }
    if (bound.some((b) => isWithin(p, b))) continue; // inside a read-only bind already
    a.push("--tmpfs", p, "--remount-ro", p);
  }
  return a;
}

/** Creates the plan's rooms that a writable grant covers (so the agent can still extend itself). */
export function ensureRooms(plan: ControlMountPlan, writable: "all" | string[]): void {
  for (const d of plan.ensure) {
    if (writable !== "all" && !writable.some((w) => isWithin(d, w))) continue;
    try {
      Deno.mkdirSync(d, { recursive: true });
    } catch { /* not ours to create: the room stays missing (and read-only) */ }
  }
}
