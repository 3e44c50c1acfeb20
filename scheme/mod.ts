/**
 * Harness Scheme: a fast, sandboxed, embeddable R7RS-small Scheme.
 *
 * ```ts
 * import { Interpreter } from "./scheme/mod.ts";
 * const s = new Interpreter({ primitives: { "host-add": (a, b) => (a as number) + (b as number) } });
 * await s.evaluate("(define (f x) (host-add x 1))", { file: "demo.scm" });
 * await s.call("f", 41); // 42
 * ```
 *
 * @module
 */
export {
  type EvalOptions,
  type HostPrimitive,
  type HostPrimitiveSpec,
  Interpreter,
  type InterpreterOptions,
  isSchemeError,
  type LoadedModule,
  type ModuleLoader,
  schemeString,
  symbol,
  toList,
} from "./interpreter/mod.ts";
export { DEFAULT_LIMITS, type Limits } from "./base/mod.ts";
export type { Clock, ProcessContext } from "./primitives/mod.ts";
export {
  type ErrorKind,
  ErrorObject,
  type LimitKind,
  SchemeError,
  SchemeExit,
  SchemeLimitError,
  type TraceFrame,
} from "./base/mod.ts";
export { fromJS, fromJson, type Json, toJS, toJson } from "./interpreter/mod.ts";
export { display, type PrintMode, type PrintOptions, toStr, write } from "./base/mod.ts";
export { readAll, Reader, type ReaderOptions, ReadError } from "./base/mod.ts";
export {
  arrayToList,
  Char,
  char,
  Dict,
  Environment,
  EOF,
  Eof,
  Flo,
  formatLoc,
  JsonNull,
  Keyword,
  keyword,
  list,
  listToArray,
  type Loc,
  locations,
  MString,
  NIL,
  Nil,
  NULL,
  Pair,
  Ratio,
  Sym,
  sym,
  SymbolTable,
  Values,
} from "./base/mod.ts";
export { runSchemeCli, type SchemeCliIO } from "./cli/mod.ts";
export {
  type Binding,
  ProgramFacts,
  type Reach,
  type ReachOptions,
  type TopLevelFacts,
  topLevelFacts,
} from "./analysis/mod.ts";
