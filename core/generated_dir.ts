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

/**
 * 64-bit FNV-1a of a text, as 16 hex digits (content addressing, not security). Computed in
 * four 16-bit limbs (a BigInt per byte made it cost milliseconds on every start): the prime
 * is 2^40 + 0x1b3, so each step is `h * 0x1b3 + (h << 40)` with the carries propagated.
 */
export function contentHash(text: string): string {
  let h0 = 0x2325, h1 = 0x8422, h2 = 0x9ce4, h3 = 0xcbf2; // offset basis 0xcbf29ce484222325
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i];
    const r0 = h0 * 0x1b3;
    const r1 = h1 * 0x1b3 + (r0 >>> 16);
    const r2 = h2 * 0x1b3 + (h0 << 8) + (r1 >>> 16);
    const r3 = h3 * 0x1b3 + (h1 << 8) + (r2 >>> 16);
    h0 = r0 & 0xffff;
    h1 = r1 & 0xffff;
    h2 = r2 & 0xffff;
    h3 = r3 & 0xffff;
  }
  return [h3, h2, h1, h0].map((x) => x.toString(16).padStart(4, "0")).join("");
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
