/**
 * A directory hs generates under `$HARNESS_HOME/.cache` and hands to children (the
 * built-ins' source directory, the `HARNESS_ROOT` with its `bin/harness`): content-addressed
 * (`<prefix>-<hash of its files>`), written once into a temporary directory and renamed into
 * place, so a reader never sees half of one; two runs writing the same one at once both end
 * with it; one whose files were altered is written again.
 *
 * @module
 */
import { join } from "./early/mod.ts";

/** A generated directory's files, by path relative to it. */
export type GeneratedFiles = Map<string, { text: string; mode: number }>;

/** 64-bit FNV-1a of a text, as 16 hex digits (content addressing, not security). */
export function contentHash(text: string): string {
  let h = 0xcbf29ce484222325n;
  const bytes = new TextEncoder().encode(text);
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

/** True when every file of `files` is in `dir` with its text. */
export function intactDir(dir: string, files: GeneratedFiles): boolean {
  try {
    for (const [rel, f] of files) {
      if (Deno.readTextFileSync(join(dir, rel)) !== f.text) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Removes a directory whose files may be read-only (best effort). */
function removeTree(dir: string): void {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch { /* gone, or not ours to remove */ }
}

/**
 * The directory `<cache>/<prefix>-<hash>` holding `files`, written when it is missing or
 * altered; `error` names what failed (a Deno error's name, no path text beyond `dir`).
 */
export function generatedDir(
  cache: string,
  prefix: string,
  files: GeneratedFiles,
): { dir: string; error?: string } {
  const digest = contentHash([...files].map(([p, f]) => `${p}\0${f.mode}\0${f.text}`).join("\0"));
  const dir = join(cache, `${prefix}-${digest}`);
  if (intactDir(dir, files)) return { dir };
  const tmp = join(cache, `.${prefix}-${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.mkdirSync(tmp, { recursive: true });
    for (const [rel, f] of files) {
      const path = join(tmp, rel);
      Deno.mkdirSync(join(path, ".."), { recursive: true });
      Deno.writeTextFileSync(path, f.text, { mode: f.mode });
      Deno.chmodSync(path, f.mode);
    }
    try {
      Deno.renameSync(tmp, dir);
    } catch {
      if (intactDir(dir, files)) removeTree(tmp); // another run wrote it first
      else {
        removeTree(dir); // stale or altered: replaced
        Deno.renameSync(tmp, dir);
      }
    }
  } catch (err) {
    removeTree(tmp);
    return { dir, error: (err as Error).name };
  }
  return { dir };
}
