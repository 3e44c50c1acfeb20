/**
 * The `yaml` package, loaded when a file with a YAML frontmatter is first read — not when
 * `hs` starts. Under Deno it resolves to its CommonJS build, whose loading costs ~60 ms CPU
 * and Deno's Node layer; a run without skills, packs or `.claude/` files never pays for it.
 *
 * Async readers `await loadYaml()`. A synchronous reader takes {@link yamlNow}: the module if
 * loaded, else `undefined` after starting the load — such a reader keeps nothing of that
 * attempt (the file is read again on its next use) and the harness awaits {@link yamlLoading}
 * where it can (its creation, a turn's start) so the next use finds the module.
 *
 * @module
 */

/** The `yaml` module's API. */
export type Yaml = typeof import("yaml");

let loaded: Yaml | undefined;
let loading: Promise<Yaml> | undefined;

/** Loads `yaml` (once) and resolves to it. */
export function loadYaml(): Promise<Yaml> {
  loading ??= import("yaml").then((m) => {
    // its CommonJS exports object (the namespace's default), else the namespace itself
    loaded = ((m as { default?: unknown }).default ?? m) as Yaml;
    return loaded;
  });
  return loading;
}

/** `yaml` when loaded; otherwise starts loading it and answers `undefined`. */
export function yamlNow(): Yaml | undefined {
  if (!loaded) loadYaml().catch(() => {}); // an import error shows on the next awaited load
  return loaded;
}

/** The load a synchronous reader started and that has not finished; `undefined` otherwise. */
export function yamlLoading(): Promise<Yaml> | undefined {
  return loaded ? undefined : loading;
}

/** Whether `yaml` has been loaded in this thread. */
export function yamlLoaded(): boolean {
  return loaded !== undefined;
}
