/**
 * Where hs finds the helper binaries it runs itself (bubblewrap, `setsid`, `kill`, the
 * bash of the bash tool): once, in fixed system directories, never through `PATH`.
 * A `PATH` entry may be a folder of the workspace (direnv's `PATH_add bin`) that the agent
 * writes; a `bwrap` found there would replace the sandbox on the next run.
 *
 * A candidate counts only when the file (symlinks resolved), its directory and that
 * directory's parents up to `/` are owned by root and writable by nobody else — so
 * `/usr/local/bin` is used only where it is root's and not group- or world-writable.
 * A permission-scoped run (under the launcher) may not stat `/` or `/usr`: it checks the
 * parents it may see; the launcher, which sees them all, grants only the binaries that
 * pass the whole check, so a binary the run picks that failed it would not start.
 *
 * @module
 */

/** The directories searched, in order. */
export const SYSTEM_BIN_DIRS: readonly string[] = [
  "/usr/bin",
  "/bin",
  "/usr/sbin",
  "/sbin",
  "/usr/local/bin",
];

const found = new Map<string, string | undefined>();

function parentOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
}

/** True when only root can change `info`'s file (owned by uid 0, no group/other write). */
function rootOnly(info: Deno.FileInfo): boolean {
  return info.uid === 0 && ((info.mode ?? 0) & 0o022) === 0;
}

/** The real path of an executable only root can replace, or undefined. */
function trusted(candidate: string): string | undefined {
  try {
    const real = Deno.realPathSync(candidate);
    const info = Deno.statSync(real);
    if (!info.isFile || ((info.mode ?? 0) & 0o111) === 0 || !rootOnly(info)) return undefined;
    const dir = parentOf(real);
    if (!rootOnly(Deno.statSync(dir))) return undefined;
    for (let d = parentOf(dir); d !== dir; d = parentOf(d)) {
      const up = statVisible(d);
      if (up === "hidden") break; // not ours to see: the launcher checked it
      if (!rootOnly(up)) return undefined;
      if (d === "/") break;
    }
    return real;
  } catch {
    return undefined;
  }
}

/** `stat` of a directory, or "hidden" when this process lacks the permission to look. */
function statVisible(d: string): Deno.FileInfo | "hidden" {
  try {
    return Deno.statSync(d);
  } catch (err) {
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      return "hidden";
    }
    throw err;
  }
}

/**
 * The system's `name` binary (its real path), looked up once per process in
 * {@link SYSTEM_BIN_DIRS}; undefined when none there is root's alone.
 */
export function systemBinary(name: string): string | undefined {
  if (found.has(name)) return found.get(name);
  let hit: string | undefined;
  if (!name.includes("/")) {
    for (const dir of SYSTEM_BIN_DIRS) {
      hit = trusted(`${dir}/${name}`);
      if (hit) break;
    }
  }
  found.set(name, hit);
  return hit;
}
