/**
 * How a bundle finds cli/'s late modules (cli/lazy.ts). Under `deno run` a late module is
 * imported through a variable, which no bundler follows; so each is also named here in a
 * literal `require("…")`: a bundler includes the module and turns the call into the module's
 * (lazy) initialisation, and Deno neither builds its graph at start (it follows `import`, not
 * `require`) nor has a `require` to call — the call throws and {@link bundled} answers
 * undefined. In the bundle the built-in commands load together, on the first one run.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
declare const require: (path: string) => any;

const REQUIRES: Record<string, () => unknown> = {
  "./harness/mod.ts": () => require("./harness/mod.ts" as string),
  "./launch/mod.ts": () => require("./launch/mod.ts" as string),
  "./external/mod.ts": () => require("./external/mod.ts" as string),
  "./view/mod.ts": () => require("./view/mod.ts" as string),
  "./commands/mod.ts": () => require("./commands/mod.ts" as string),
};

/** A command module as cli/program.ts takes it: `register`, its `quick`, version's and help's extras. */
function commandModule(name: string): unknown {
  const m = REQUIRES["./commands/mod.ts"]() as Record<string, unknown>;
  return {
    register: m[name],
    quick: m[`${name}Quick`],
    versionText: m.versionText,
    listExternal: m.helpExternal,
  };
}

/**
 * The late module at `path` (relative to cli/) when this code runs from a bundle; undefined
 * under `deno run` and in a compiled binary (they import it by its path). A command's own
 * module (`./commands/<name>.ts`, `./commands/packs/mod.ts`) comes out of commands/mod.ts.
 */
export function bundled(path: string): unknown {
  try {
    const direct = REQUIRES[path];
    if (direct) return direct();
    const m = /^\.\/commands\/(?:([a-z]+)\.ts|([a-z]+)\/mod\.ts)$/.exec(path);
    return m ? commandModule(m[1] ?? m[2]) : undefined;
  } catch (e) {
    if (e instanceof ReferenceError) return undefined; // no `require`: not a bundle
    throw e;
  }
}
