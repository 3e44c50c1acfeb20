/**
 * The file name of a session archive (zod-free: `hs session` lists and names archives without
 * loading the archive modules).
 *
 * @module
 */

/** The file name `hs session export <id>` writes by default. */
export function archiveFileName(id: string): string {
  return `${id}.hs-session.json`;
}
