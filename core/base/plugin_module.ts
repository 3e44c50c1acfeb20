/**
 * Where a `plugins.json` module is (seed 002: "un chemin de module absolu ou un package
 * installé résolvable depuis ce répertoire est accepté ; rien n'est téléchargé"):
 * - an absolute path is the module itself;
 * - a package name (`hs-tickets`, `@acme/hs-plugin`, with an optional subpath) is resolved
 *   from `$HARNESS_HOME`: first its import map (`deno.json` or `import_map.json`, `imports`
 *   naming a local file), then `node_modules/<package>` (`exports`, then `module`, then
 *   `main`, then `index.js`);
 * - anything that would be fetched (`http://`, `https://`, `npm:`, `jsr:`, an import-map
 *   entry naming one) and relative paths are refused with the reason.
 *
 * Pure file reads, no schema library: the launcher resolves the same way to grant the
 * module's directory.
 *
 * @module
 */
import { dirname, fileUrlOf, isAbsolute, join, resolve } from "../early/mod.ts";
import { readTextOrUndefined } from "./fsutil.ts";

/**
 * A resolved module — its absolute file, its `file:` URL and the directory it may read
 * beside it (its package, or the file's directory) — or why it cannot be.
 */
export type PluginModule = { path: string; url: string; root: string } | { error: string };

const REMOTE = /^(?:[a-z][a-z0-9+.-]*:)/i;
const PACKAGE = /^((?:@[a-z0-9._~-]+\/)?[a-z0-9._~-]+)(\/.*)?$/i;

function json(path: string): Record<string, unknown> | undefined {
  const text = readTextOrUndefined(path);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function local(path: string, root = dirname(path)): PluginModule {
  if (!isFile(path)) return { error: `${path} does not exist` };
  return { path, url: fileUrlOf(path).href, root };
}

/** The target of an import-map entry of `home` for `spec`, if one names it. */
function fromImportMap(spec: string, home: string): PluginModule | undefined {
  for (const file of ["deno.json", "import_map.json"]) {
    const imports = json(join(home, file))?.imports as Record<string, unknown> | undefined;
    if (!imports || typeof imports !== "object") continue;
    let target: string | undefined;
    if (typeof imports[spec] === "string") target = imports[spec] as string;
    else {
      const prefix = Object.keys(imports).filter((k) => k.endsWith("/") && spec.startsWith(k))
        .sort((a, b) => b.length - a.length)[0];
      if (prefix && typeof imports[prefix] === "string") {
        target = (imports[prefix] as string) + spec.slice(prefix.length);
      }
    }
    if (target === undefined) continue;
    if (target.startsWith("file://")) target = decodeURIComponent(new URL(target).pathname);
    if (REMOTE.test(target)) {
      return {
        error: `${join(home, file)} maps "${spec}" to ${target}, which would be downloaded`,
      };
    }
    return local(isAbsolute(target) ? target : resolve(home, target));
  }
  return undefined;
}

/** The entry file of an export condition object or string. */
function exportTarget(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    for (const k of ["deno", "import", "module", "default"]) {
      const t = exportTarget(o[k]);
      if (t) return t;
    }
  }
  return undefined;
}

/** `name[/sub]` in `home/node_modules`. */
function fromNodeModules(name: string, sub: string, home: string): PluginModule | undefined {
  const dir = join(home, "node_modules", name);
  const pkg = json(join(dir, "package.json"));
  if (!pkg) return undefined;
  const exports = pkg.exports;
  const key = sub ? `.${sub}` : ".";
  let target: string | undefined;
  if (exports !== undefined) {
    const map = typeof exports === "string" || (exports && typeof exports === "object" &&
        !Object.keys(exports).some((k) => k.startsWith(".")))
      ? { ".": exports }
      : exports as Record<string, unknown>;
    target = exportTarget(map[key]);
    if (!target) return { error: `package ${name} does not export "${key}"` };
  } else if (sub) target = `.${sub}`;
  else {
    target = [pkg.module, pkg.main].find((x): x is string => typeof x === "string") ??
      "index.js";
  }
  const path = resolve(dir, target);
  if (!path.startsWith(dir + "/")) return { error: `package ${name} points outside itself` };
  return local(path, dir);
}

/** Resolves a `plugins.json` module from `home` by the rule of this module. */
export function resolvePluginModule(spec: string, home: string): PluginModule {
  if (isAbsolute(spec)) return local(spec);
  if (REMOTE.test(spec)) {
    return { error: `"${spec}" would be downloaded; nothing is downloaded at run time` };
  }
  if (spec.startsWith(".")) {
    return { error: `"${spec}" is relative: name an absolute path or an installed package` };
  }
  const fromMap = fromImportMap(spec, home);
  if (fromMap) return fromMap;
  const m = PACKAGE.exec(spec);
  if (!m) return { error: `"${spec}" is neither an absolute path nor a package name` };
  return fromNodeModules(m[1], m[2] ?? "", home) ?? {
    error: `package "${m[1]}" is not installed under ${home} (no import-map entry, no ${
      join(home, "node_modules", m[1])
    })`,
  };
}
