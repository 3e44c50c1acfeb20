/**
 * `$HARNESS_HOME/.auth-cache.json` (PROTOCOLS "Auth", the reference's `sources/35-auth-env`):
 * the `.auth.json` of every source merged into one file, lowest priority first (a more
 * local file's entry for a provider replaces a less local one's), mode 0600. Executable
 * providers written for the reference read their credentials there (`.<name>[0].key`,
 * OAuth tokens). hs keeps it current before it runs an executable provider and after
 * `hs auth set` / `rm` when it exists; its contents are never logged or printed.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { atomicWriteSync, readOwnText, statOrUndefined } from "../base/mod.ts";
import type { Snapshot } from "../discovery/mod.ts";

/** The cache file of a harness home. */
export function authCachePath(home: string): string {
  return join(home, ".auth-cache.json");
}

/**
 * The `.auth.json` files of every source of a snapshot (provider scoping aside), lowest
 * priority first, with `$HARNESS_HOME`'s first when it is not a source itself.
 */
export function sourceAuthFiles(snap: Snapshot, home: string): string[] {
  const files = snap.allSources.map((s) => join(s.dir, ".auth.json")).filter((f) =>
    statOrUndefined(f)?.isFile
  );
  const own = join(home, ".auth.json");
  if (!files.includes(own) && statOrUndefined(own)?.isFile) files.unshift(own);
  return files;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `jq`'s `a * b`: objects merge recursively, anything else in `b` replaces `a`'s. */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (!isPlainObject(a) || !isPlainObject(b)) return b;
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out;
}

/** The merged contents of auth files, lowest priority first (unreadable or malformed skipped). */
export function mergedAuth(files: string[]): Record<string, unknown> {
  let merged: Record<string, unknown> = {};
  for (const f of files) {
    const text = readOwnText(f); // never through a link (reported, skipped)
    if (!text?.trim()) continue;
    try {
      const data = JSON.parse(text);
      if (isPlainObject(data)) merged = deepMerge(merged, data) as Record<string, unknown>;
    } catch { /* a malformed file is reported by hs auth list */ }
  }
  return merged;
}

/**
 * Writes the cache from `files` (lowest first) when its contents changed: through a temp
 * file and a rename, mode 0600. Returns false when it could not be written (never throws:
 * providers that need it say so themselves).
 */
export function refreshAuthCache(home: string, files: string[]): boolean {
  const path = authCachePath(home);
  const text = JSON.stringify(mergedAuth(files), null, 2) + "\n";
  try {
    if (readOwnText(path, { quiet: true }) === text) {
      if (((Deno.lstatSync(path).mode ?? 0) & 0o077) === 0) return true;
    }
    Deno.mkdirSync(home, { recursive: true, mode: 0o700 });
    atomicWriteSync(path, text, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
