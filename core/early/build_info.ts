/**
 * Build facts baked in by `scripts/build.ts` (`deno task compile` / `bundle`):
 * the git revision. A source checkout (`deno task hs`, or the `hs` that
 * `deno task install` wrote) says instead which checkout it runs from and the
 * revision that checkout is at, read from its `.git` files (no `git` is run).
 *
 * @module
 */
import { filePathOf, isAbsolute, join, resolveFrom } from "./path.ts";

/** The git revision this executable was built from ("dev" when run from source). */
export const REVISION: string = "dev";

/**
 * `0.1.0 (rev abc1234)` for a release build; from source
 * `0.1.0 (source /path/to/checkout, rev 0123456789ab)`.
 */
export function versionLine(version: string): string {
  if (REVISION !== "dev") return `${version} (rev ${REVISION})`;
  const root = sourceRoot();
  if (!root) return version;
  return `${version} (source ${root}, rev ${gitRevision(root) ?? "unknown"})`;
}

/** The checkout this module runs from, or undefined when it is not a file (a bundle). */
function sourceRoot(): string | undefined {
  return filePathOf(new URL("../..", import.meta.url))?.replace(/\/$/, "");
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined; // absent, or not readable under this run's grant
  }
}

/** The first 12 hex digits of the commit HEAD names in `root`'s git checkout (or worktree). */
export function gitRevision(root: string): string | undefined {
  let gitDir = join(root, ".git");
  const pointer = /^gitdir:\s*(.+)$/m.exec(readText(gitDir) ?? "");
  if (pointer) gitDir = resolveFrom(root, pointer[1].trim()); // a worktree: .git is a file
  const head = readText(join(gitDir, "HEAD"))?.trim();
  if (!head) return undefined;
  const short = (sha: string) => /^[0-9a-f]{40,64}$/.test(sha) ? sha.slice(0, 12) : undefined;
  if (!head.startsWith("ref:")) return short(head);
  const ref = head.slice(4).trim();
  const common = readText(join(gitDir, "commondir"))?.trim();
  const commonDir = common ? (isAbsolute(common) ? common : resolveFrom(gitDir, common)) : gitDir;
  for (const dir of new Set([gitDir, commonDir])) {
    const loose = readText(join(dir, ref))?.trim();
    if (loose) return short(loose);
  }
  for (const line of (readText(join(commonDir, "packed-refs")) ?? "").split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref) return short(sha);
  }
  return undefined;
}
