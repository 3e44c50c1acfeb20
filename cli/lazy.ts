/**
 * Modules of the command line loaded when a command reaches them, not when `hs` starts.
 *
 * Deno builds the module graph of a literal `import("…")` when its importer loads, taken or
 * not — so the CLI names what it loads late through a variable ({@link loadLate}), and only
 * the path that uses a module pays for it. A bundle cannot follow a variable: cli/bundled.ts
 * names the same modules in a form only a bundler follows; a compiled binary includes cli/
 * (scripts/build.ts).
 *
 * @module
 */
import { bundled } from "./bundled.ts";

/**
 * Loads a module of cli/ by its path relative to cli/ (`"./harness/mod.ts"`); `T` is
 * `typeof import(path)`, a type only (a type import loads nothing).
 */
export async function loadLate<T>(path: string): Promise<T> {
  const given = bundled(path);
  if (given !== undefined) return given as T;
  const url = new URL(path, import.meta.url).href;
  return await import(url) as T;
}
