/**
 * `deno task check` part two: the shape of the import graph. Fails (exit 1) on
 *
 * - an import cycle between source files (type-only imports count too);
 * - a cross-folder deep import: a file may import files of its own folder, and
 *   of any other folder only that folder's `mod.ts` (its public surface);
 * - an upward import: a file never imports a folder that contains it (a
 *   subfolder's parent composes it, not the reverse);
 * - a layering breach: `scheme/` imports nothing of the harness, `core/` only
 *   `scheme/`, `stdlib-harness/` only `core/` and `scheme/`, `plugins/` not
 *   `cli/`, and nothing imports the root entry points;
 * - and the shape rules of scripts/shape_rules.ts: a `mod.ts` with code, a command importing a
 *   command, a front end (cli/) reaching the kernel (`HarnessCore`), a file over 600 lines, a function over 120 lines (with a short allow-list that
 *   names the reason of each file not split yet).
 *
 * Tests, benchmarks, the demo and scripts may reach inside folders (they test
 * behaviour where it lives) and are not checked.
 *
 * Usage: deno run --allow-read scripts/check_imports.ts [root]
 *
 * @module
 */

import { shapeViolations, staleAllowances } from "./shape_rules.ts";
export {
  ALLOWED_LONG,
  codeLineStarts,
  commandImports,
  kernelReach,
  longFunctions,
  modCode,
  shapeViolations,
  staleAllowances,
} from "./shape_rules.ts";

/** One relative import edge. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** A broken rule, as printed. */
export interface Violation {
  rule: "cycle" | "deep import" | "upward import" | "layering" | "missing import";
  message: string;
}

const SOURCE_ROOTS = ["core", "cli", "plugins", "scheme", "stdlib-harness"];
const ROOT_FILES = ["main.ts", "mod.ts", "launch.ts"];
/** Which top-level areas each area may import (besides itself). */
const LAYERS: Record<string, string[]> = {
  scheme: [],
  core: ["scheme"],
  "stdlib-harness": ["core", "scheme"],
  plugins: ["core", "scheme", "stdlib-harness"],
  cli: ["core", "scheme", "stdlib-harness", "plugins"],
  ".": ["core", "scheme", "stdlib-harness", "plugins", "cli"],
};

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : path.slice(0, i);
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

function areaOf(path: string): string {
  const first = path.split("/")[0];
  return path.includes("/") ? first : ".";
}

/** Strips comments so that examples in JSDoc are not read as imports. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** The relative imports of one file's text (paths relative to the repository root). */
export function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const m of stripComments(text).matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    edges.push({ from: file, to: normalize(`${dirOf(file)}/${spec}`) });
  }
  return edges;
}

/** Rule violations of a set of edges (files are repository-relative paths). */
export function violations(edges: ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const { from, to } of edges) {
    const fromDir = dirOf(from);
    const toDir = dirOf(to);
    const fromArea = areaOf(from);
    const toArea = areaOf(to);
    if (ROOT_FILES.includes(to) && (from.includes("/") || to === "main.ts")) {
      out.push({ rule: "layering", message: `${from} imports the entry point ${to}` });
      continue;
    }
    if (fromArea !== toArea && !LAYERS[fromArea]?.includes(toArea)) {
      out.push({ rule: "layering", message: `${from} (${fromArea}/) imports ${to} (${toArea}/)` });
      continue;
    }
    if (fromDir === toDir) continue;
    if (fromDir === "." ? false : (fromDir + "/").startsWith(toDir === "." ? "" : toDir + "/")) {
      out.push({ rule: "upward import", message: `${from} imports ${to} from a folder above it` });
      continue;
    }
    if (!to.endsWith("/mod.ts")) {
      out.push({
        rule: "deep import",
        message: `${from} imports ${to}: import ${toDir}/mod.ts (the folder's public surface)`,
      });
    }
  }
  for (const cycle of cycles(edges)) {
    out.push({ rule: "cycle", message: cycle.join(" -> ") + " -> " + cycle[0] });
  }
  return out;
}

/**
 * Imports of files that do not exist (`exists` answers for a repository-relative path). A
 * literal dynamic `import("…")` is not resolved by `deno check` when it fails, only when it
 * runs: a file moved to another room with its relative path left as it was breaks at run time.
 */
export function missingImports(
  edges: ImportEdge[],
  exists: (path: string) => boolean,
): Violation[] {
  return edges.filter((e) => !exists(e.to)).map((e) => ({
    rule: "missing import",
    message: `${e.from} imports ${e.to}, which does not exist`,
  }));
}

/** Strongly connected components of more than one file (or a file importing itself). */
export function cycles(edges: ImportEdge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const e of edges) {
    if (!graph.has(e.from)) graph.set(e.from, []);
    if (!graph.has(e.to)) graph.set(e.to, []);
    graph.get(e.from)!.push(e.to);
  }
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)!) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)!.includes(v)) found.push(comp.reverse());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return found;
}

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(`${root}/${rel}`)];
    } catch {
      return;
    }
    for (const e of entries) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (e.name.endsWith(".ts")) out.push(p);
    }
  };
  for (const r of SOURCE_ROOTS) walk(r);
  for (const f of ROOT_FILES) {
    try {
      Deno.statSync(`${root}/${f}`);
      out.push(f);
    } catch { /* absent */ }
  }
  return out.sort();
}

if (import.meta.main) {
  const root = Deno.args[0] ?? Deno.cwd();
  const files = sourceFiles(root).map((path) => ({
    path,
    text: Deno.readTextFileSync(`${root}/${path}`),
  }));
  const edges = files.flatMap((f) => importsOf(f.path, f.text));
  const exists = (path: string) => {
    try {
      return Deno.statSync(`${root}/${path}`).isFile;
    } catch {
      return false;
    }
  };
  const found = [
    ...violations(edges),
    ...missingImports(edges, exists),
    ...shapeViolations(files, edges),
    ...staleAllowances(files),
  ];
  for (const v of found) console.error(`${v.rule}: ${v.message}`);
  if (found.length) {
    console.error(`\n${found.length} rule violation(s) (see scripts/check_imports.ts)`);
    Deno.exit(1);
  }
  console.log(
    `imports ok: ${edges.length} edges, no cycle, no deep or upward import; ` +
      `shape ok: ${files.length} files`,
  );
}
