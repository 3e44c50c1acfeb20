/**
 * A module loaded when it is first needed, named so that neither Deno nor a bundle loads it
 * at start.
 *
 * @module
 */

/**
 * The module at `url`, loaded now. `inBundle` names it in a literal `require("…" as string)`:
 * the one form a bundler follows (into the module's lazy initialisation) and Deno neither
 * follows nor can call — without a bundle there is no `require`, the call throws a
 * ReferenceError, and the module is imported through a variable (Deno reads the graph of a
 * literal `import("…")` when its importer loads, taken or not). A compiled binary must
 * `--include` the module (scripts/build.ts). main.ts, which imports nothing statically, has its
 * own copy of this.
 */
export async function lateImport<T>(url: URL, inBundle: () => unknown): Promise<T> {
  try {
    return inBundle() as T;
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e; // no `require`: not a bundle
  }
  return await import(url.href) as T;
}
