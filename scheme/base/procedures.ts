/**
 * How procedures and control are represented: compiled code ({@link Node}s over {@link Frame}s),
 * lambdas, closures, primitives and `case-lambda`s; the dynamic state's nodes; and the objects
 * that carry control — first-class continuations, the heap frames ({@link KF}) a
 * {@link Capture} collects while it unwinds the JS stack, {@link Jump} and {@link TailCall}.
 *
 * @module
 */
import type { Loc } from "./types.ts";
import type { SchemeError } from "./errors.ts";

/** A runtime environment frame: slot 0 is the parent frame. */
export type Frame = unknown[];
/** A compiled expression. */
export type Node = (f: Frame) => unknown;

/** A compiled lambda (code without environment). */
export class Lambda {
  /** Creates a lambda descriptor. */
  constructor(
    public nreq: number,
    public rest: boolean,
    public size: number,
    public body: Node,
    public name: string,
    public loc?: Loc,
  ) {}
}

/** A Scheme procedure: a lambda closed over its frame. */
export class Closure {
  /** Creates a closure. */
  constructor(public lam: Lambda, public env: Frame) {}
}

/** A primitive procedure implemented in JS. */
export class Prim {
  /** Array entry point (variadic primitives): used for calls with many arguments. */
  fa?: (args: unknown[]) => unknown;
  /** Fast unary entry point (no arity check), used by inlined calls. */
  f1?: (a: unknown) => unknown;
  /** Fast binary entry point (no arity check), used by inlined calls. */
  f2?: (a: unknown, b: unknown) => unknown;
  /** Creates a primitive. `max` may be Infinity. `async` marks host primitives. */
  constructor(
    public name: string,
    // deno-lint-ignore no-explicit-any
    public fn: (...args: any[]) => unknown,
    public min: number,
    public max: number,
    public async = false,
  ) {}
}

/** A `case-lambda` procedure. */
export class CaseLambda {
  /** Creates a case-lambda from its clause closures. */
  constructor(public clauses: Closure[], public name: string) {}
}

/** Dynamic-state node kinds. */
export const enum DynKind {
  Wind,
  Handler,
  Param,
  Guard,
}

/** One node of the dynamic state (winds, handlers, parameterizations, guards). */
export class DynNode {
  /** Creates a node on top of `parent`. */
  constructor(public kind: DynKind, public data: unknown, public parent: DynNode | null) {}
}

/** The run a continuation belongs to (the driver's `Run`, see driver.ts). */
export interface ContinuationOwner {
  /** True for a run serving a host callback. */
  readonly isNested: boolean;
  /** True once a nested run has returned: its continuations are dead. */
  finished: boolean;
}

/** A first-class continuation. */
export class Continuation {
  /** Captured heap frames (innermost last), dynamic state and owning run. */
  constructor(public frames: KF[], public dyn: DynNode | null, public run: ContinuationOwner) {}
}

/** A heap continuation frame: `fn` receives the value; `handler`, if any, receives errors. */
export class KF {
  /** Creates a frame. */
  constructor(
    public fn: (v: unknown) => unknown,
    public handler: ((e: SchemeError) => unknown) | null = null,
  ) {}
}

/** Capture kinds. */
export const enum CK {
  Spill,
  CallCC,
  Reinstate,
  Await,
}

/** Thrown to unwind the JS stack into heap frames. */
export class Capture {
  /** Frames pushed while unwinding, innermost first. */
  frames: KF[] = [];
  /** Creates a capture. */
  constructor(public kind: CK, public payload: unknown, public value?: unknown) {}
}

/**
 * A continuation invoked in tail position: returned (not thrown) up the chain of tail positions,
 * so the JS frames in between need no unwinding. `callBody` throws it as a capture for non-tail
 * callers; the driver takes it directly when it arrives as a value.
 */
export class Jump {
  /** Creates a jump to `k` with `value`. */
  constructor(public readonly k: Continuation, public readonly value: unknown) {}
}

/** A pending tail call, returned by code in tail position and run by the trampoline. */
export class TailCall {
  /** Creates a tail call of `body` on `frame`, made at call site `site`. */
  constructor(public body: Node, public frame: Frame, public site?: Site) {}
}

/** A call site, for backtraces. */
export interface Site {
  /** Callee name. */
  name: string;
  /** Source location of the call. */
  loc?: Loc;
}
