/**
 * The control files of a `.harness/` directory and their fingerprint. What
 * they hold decides what runs outside the floor and what the floor allows —
 * the floor's own rules, providers (executables run unsandboxed, `.conf`
 * files choose where the conversation goes), packs and `sources` hooks — so
 * trusting a workspace records their fingerprint, and a change re-opens the
 * question. `settings.conf` is protected from tools too, but only chooses
 * among providers that are fingerprinted, so it is not part of it. Files the
 * agent extends itself with (`tools/`, `hooks.d/<stage>/`, `commands/`,
 * `skills/`, `prompts/`) run inside the floor and are not control files.
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { statOrUndefined } from "../base/mod.ts";

/** Names inside a `.harness/` directory whose change re-opens the trust question. */
export const CONTROL_NAMES: readonly string[] = [
  "floor.json",
  "providers",
  "plugins",
  "packs",
  "hooks.d/sources",
];

/** Names inside a `.harness/` directory that tools may not change without asking. */
export const PROTECTED_NAMES: readonly string[] = [...CONTROL_NAMES, "settings.conf"];

/** Control names that exist only in `$HARNESS_HOME`. */
export const HOME_CONTROL_NAMES: readonly string[] = [
  "plugins.json",
  "trust.json",
  "guard-approvals.json",
  "mcp-approvals.json",
];

/** Files hashed by content up to this total; past it, by size and mtime. */
const CONTENT_BUDGET = 16 * 1024 * 1024;
const MAX_FILES = 5000;

/** Every control file of a `.harness/` directory: relative path → its stat. */
function controlFiles(hdir: string): [string, Deno.FileInfo][] {
  const out: [string, Deno.FileInfo][] = [];
  const visit = (rel: string) => {
    if (out.length >= MAX_FILES) return;
    const info = statOrUndefined(join(hdir, rel));
    if (!info) return;
    if (info.isFile) {
      out.push([rel, info]);
      return;
    }
    if (!info.isDirectory) return;
    let names: string[];
    try {
      names = [...Deno.readDirSync(join(hdir, rel))].map((e) => e.name).sort();
    } catch {
      return;
    }
    for (const n of names) visit(`${rel}/${n}`);
  };
  for (const n of CONTROL_NAMES) visit(n);
  return out;
}

/** SHA-256 (hex) of the control files of a `.harness/` directory ("" when it has none). */
export async function controlFingerprint(hdir: string): Promise<string> {
  const files = controlFiles(hdir);
  if (files.length === 0) return "";
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  let budget = CONTENT_BUDGET;
  for (const [rel, info] of files) {
    parts.push(enc.encode(`${rel}\0${info.mode ?? 0}\0`));
    if (info.size <= budget) {
      budget -= info.size;
      try {
        parts.push(Deno.readFileSync(join(hdir, rel)));
      } catch {
        parts.push(enc.encode("<unreadable>"));
      }
    } else parts.push(enc.encode(`${info.size}\0${info.mtime?.getTime() ?? 0}`));
    parts.push(enc.encode("\0"));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    all.set(p, off);
    off += p.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}
