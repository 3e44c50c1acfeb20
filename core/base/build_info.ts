/**
 * Build facts baked in by `scripts/build.ts` (`deno task compile` / `bundle`):
 * the git revision. A source checkout says "dev".
 *
 * @module
 */

/** The git revision this executable was built from ("dev" when run from source). */
export const REVISION: string = "dev";

/** `0.1.0` or `0.1.0 (rev abc1234)` for a release build. */
export function versionLine(version: string): string {
  return REVISION === "dev" ? version : `${version} (rev ${REVISION})`;
}
