/**
 * The key of a workspace's sessions group (docs/sessions.md "Where sessions live"): by
 * default the sessions of the workspace whose real path is `/home/me/src/my app` live in
 * `$HARNESS_HOME/sessions/my_app-<12 hex>/`, where the hex digits begin the SHA-256 of the
 * full real path. The tail makes the key readable; the hash keeps two workspaces with the
 * same last component apart.
 *
 * @module
 */
import { basename, resolve } from "../early/mod.ts";
import { sha256Hex } from "./sha256.ts";

/** The real path of a workspace (links resolved), or its absolute path when it is gone. */
export function workspaceRealPath(cwd: string): string {
  try {
    return Deno.realPathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

/** `<sanitised last component>-<first 12 hex digits of sha256(realPath)>`. */
export function workspaceKey(realPath: string): string {
  const tail = basename(realPath).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._-]+/, "")
    .slice(0, 40) || "root";
  const hash = sha256Hex(realPath).slice(0, 12);
  return `${tail}-${hash}`;
}
