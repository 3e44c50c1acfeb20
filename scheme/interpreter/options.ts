/**
 * The interpreter's options and the shapes a host hands it: host primitives, module loaders,
 * evaluation options.
 *
 * @module
 */
import type { Limits } from "../base/mod.ts";
import type { Clock, ProcessContext } from "../primitives/mod.ts";

/** A host primitive: receives Scheme values, returns a Scheme value or a Promise of one. */
export type HostPrimitive = (...args: unknown[]) => unknown;

/** A host primitive with explicit arity. */
export interface HostPrimitiveSpec {
  /** The implementation. */
  fn: HostPrimitive;
  /** Minimum argument count (default 0). */
  minArgs?: number;
  /** Maximum argument count (default unlimited). */
  maxArgs?: number;
  /**
   * The time the host takes to settle a Promise this primitive returns is the host's, not
   * the program's: it is not charged to the evaluation's deadline (e.g. a guard's `invoke`,
   * which runs the guarded tool). Fuel and memory limits still apply to the program.
   */
  untimed?: boolean;
}

/** What a module loader returns: source text and the file name used in locations. */
export interface LoadedModule {
  /** Scheme source. */
  source: string;
  /** File name for locations and backtraces. */
  file: string;
}

/**
 * Host hook resolving `(require "name")`; `fromFile` is the file name of the evaluation that
 * called `require`. Resolution, jailing and de-duplication are the host's job.
 */
export type ModuleLoader = (
  name: string,
  fromFile: string | undefined,
) => LoadedModule | null | Promise<LoadedModule | null>;

/** Options for {@link Interpreter}. */
export interface InterpreterOptions {
  /** Host primitives, by Scheme name. */
  primitives?: Record<string, HostPrimitive | HostPrimitiveSpec>;
  /** Default sandbox limits for every evaluation. */
  limits?: Limits;
  /** Sink for `current-output-port` (default: discard). */
  stdout?: (s: string) => void;
  /** Sink for `current-error-port` (default: discard). */
  stderr?: (s: string) => void;
  /** Module loader for `require` (absent: `require` raises). */
  loader?: ModuleLoader;
  /** What `command-line` and `get-environment-variable(s)` answer (default: nothing). */
  processContext?: ProcessContext;
  /** The clock `current-jiffy` and `current-second` read (default: none, they raise). */
  clock?: Clock;
  /** Libraries the host grants: `"name parts"` (e.g. `"harness tools"`) → Scheme source. */
  libraries?: Record<string, string>;
  /**
   * The body compiler (scheme/jit.ts): a procedure's body becomes one JavaScript function after
   * this many calls (default 1,000); `false` or `0` keeps every body a tree
   * of nodes. The program's results, errors, limits and continuations are the same either way.
   */
  jit?: number | false;
}

/** Per-call evaluation options. */
export interface EvalOptions {
  /** File name used in source locations (default `<eval>`). */
  file?: string;
  /** Limits overriding the interpreter defaults for this evaluation. */
  limits?: Limits;
}
