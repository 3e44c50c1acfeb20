/**
 * Libraries and features: which `(import …)` names exist, the R7RS-large libraries compiled on
 * first import (`(scheme list)`, `(scheme sort)`, `(scheme hash-table)`), the `(chibi test)`
 * subset, libraries a host grants as source, and the feature list of `cond-expand` and
 * `(features)`.
 *
 * @module
 */
import { type Environment, internSourceSymbols, type Sym, sym } from "../base/mod.ts";
import { HASH_TABLE_NAMES } from "../primitives/mod.ts";
import { HASH_TABLE_LIBRARY } from "./hash_table.ts";
import { LIST_LIBRARY } from "./list.ts";
import { SORT_LIBRARY } from "./sort.ts";

/** The features `cond-expand` tests and `(features)` lists. */
export const FEATURES: readonly string[] = [
  "r7rs",
  "exact-closed",
  "exact-complex",
  "ieee-float",
  "full-unicode",
  "ratios",
  "harness",
  "srfi-0",
  "srfi-1",
  "srfi-6",
  "srfi-8",
  "srfi-9",
  "srfi-23",
  "srfi-30",
  "srfi-39",
  "srfi-62",
  "srfi-69",
  "srfi-87",
  "srfi-125",
  "srfi-132",
];

/** Libraries whose bindings are always present (importing them is a no-op). */
const BUILTIN = new Set([
  "scheme base",
  "scheme case-lambda",
  "scheme char",
  "scheme complex",
  "scheme cxr",
  "scheme eval",
  "scheme file",
  "scheme inexact",
  "scheme lazy",
  "scheme load",
  "scheme process-context",
  "scheme read",
  "scheme repl",
  "scheme time",
  "scheme write",
  "scheme r5rs",
  "srfi 0",
  "srfi 6",
  "srfi 8",
  "srfi 9",
  "srfi 23",
  "srfi 30",
  "srfi 39",
  "srfi 62",
  "srfi 87",
]);

/** A library compiled once per process, on first import. */
export interface LazyLibrary {
  /** Scheme source (read with internal `%` names). */
  source: string;
  /** Whether it needs the hash-table primitives in its environment. */
  hashTables?: boolean;
}

/** The R7RS-large libraries, by every name they answer to. */
export const LAZY: Record<string, LazyLibrary> = {};
for (const n of ["scheme list", "srfi 1"]) LAZY[n] = { source: LIST_LIBRARY };
for (const n of ["scheme sort", "srfi 132"]) LAZY[n] = { source: SORT_LIBRARY };
for (const n of ["scheme hash-table", "srfi 125", "srfi 69"]) {
  LAZY[n] = { source: HASH_TABLE_LIBRARY, hashTables: true };
}

// The names the lazy libraries define are static symbols from the start, so a program that reads
// one of them before importing the library (or in the import form itself) agrees with it.
for (const lib of new Set(Object.values(LAZY))) {
  internSourceSymbols(lib.source);
  if (lib.hashTables) { for (const n of HASH_TABLE_NAMES) sym(n); }
}

/** The test libraries (installed into the importing environment). */
export const TEST_LIBRARIES = new Set(["chibi test", "srfi 64"]);

/** Per-environment library state: defined with `define-library`, granted by the host. */
export interface LibraryState {
  /** Names of libraries defined by `define-library` in this environment. */
  defined: Set<string>;
  /** Host-granted library sources by name (evaluated on first import). */
  sources: Map<string, string>;
  /** Host-granted libraries already evaluated here. */
  loaded: Set<string>;
}

const states = new WeakMap<Environment, LibraryState>();
/** The library state of `env` (created empty on first use). */
export function libraryState(env: Environment): LibraryState {
  let s = states.get(env);
  if (!s) states.set(env, s = { defined: new Set(), sources: new Map(), loaded: new Set() });
  return s;
}

/** True if `(import name)` / `(library name)` can be satisfied in `env`. */
export function isKnownLibrary(name: string, env: Environment): boolean {
  const st = libraryState(env);
  return BUILTIN.has(name) || name in LAZY || TEST_LIBRARIES.has(name) || st.defined.has(name) ||
    st.sources.has(name);
}

/** Hook set by interpreter.ts: compiles a lazy library once and returns its exports. */
export const libraryHooks: { load: (name: string) => Map<Sym, unknown> } = {
  load: () => new Map(),
};
