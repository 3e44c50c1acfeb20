/**
 * The application protocol: applying procedures (closures, primitives, `case-lambda`s,
 * continuations) with proper tail calls, trampolining through the {@link TailCall} marker, and the
 * stack discipline that moves pending frames to the heap when the JS stack is full.
 *
 * How it works: compiled code runs directly on the JS stack. When the JS stack gets deep, or
 * `call/cc` is called, or a host primitive returns a Promise, a {@link Capture} is thrown; every
 * compiled node it passes through pushes a {@link KF} ("what I still had to do"), and the
 * driver (driver.ts) resumes those frames from a shallow stack.
 *
 * @module
 */
import { NIL, Pair, Parameter, Values } from "./types.ts";
import { schemeError } from "./errors.ts";
import {
  Capture,
  CaseLambda,
  CK,
  Closure,
  Continuation,
  type Frame,
  Jump,
  type Node,
  Prim,
  TailCall,
} from "./procedures.ts";
import { PROBE_FROM, R, type State, tickCheck } from "./state.ts";

/**
 * Stack discipline. Compiled code runs on the JS stack; below {@link PROBE_FROM} nested calls it
 * runs unchecked. Beyond, every {@link PROBE_EVERY} levels of nesting `callBody` probes for
 * ~85 KB of free JS stack (a small recursion that the engine stops with a
 * RangeError when the room is not there); a failed probe is a safe point, where the pending
 * frames move to the heap and the run continues on a fresh stack. So recursion runs at full speed
 * as deep as the JS stack allows (thousands of frames, more when the code is optimized), and the
 * switch to heap frames happens only when the stack is really full.
 */
const PROBE_EVERY = 40;
/** Parameters of one probe frame: wide frames touch the same stack with fewer calls. */
const PROBE_WIDTH = 48;
/** Probe frames: 200 × (48 + 5 words) ≈ 85 KB, room for 40 Scheme frames and a primitive. */
const PROBE_DEPTH = 200;
/** Kept for callers that read it: the depth where probing starts. */
export const SPILL = PROBE_FROM;

/**
 * The probe: a recursion whose frames carry {@link PROBE_WIDTH} arguments each, so it touches
 * ~85 KB of stack in 200 calls (a third cheaper than narrow frames for the same room). Built
 * once from a fixed template (never from program text), on the first probe (building it costs
 * ~1 ms, which a program that never nests 256 calls deep does not pay); `probe(n)` recurses `n`
 * deep.
 */
function probe(n: number): number {
  return (probeFn ??= makeProbe())(n);
}
let probeFn: ((n: number) => number) | undefined;
function makeProbe(): (n: number) => number {
  const ps = Array.from({ length: PROBE_WIDTH }, (_, i) => `a${i}`);
  const rot = [...ps.slice(1), "a0"].join(", ");
  const zeros = ps.map(() => "0").join(", ");
  return new Function(
    `"use strict";
function p(n, ${ps.join(", ")}) { return n === 0 ? a0 : p(n - 1, ${rot}) + 1; }
return (n) => p(n, ${zeros});`,
  )() as (n: number) => number;
}

/**
 * The extra levels a non-tail call counts when it is made `nesting` expressions deep in its
 * lambda's body: each enclosing expression is a JS frame under the call (~180 bytes before the
 * engine optimizes it, `bench/scheme_stack.ts`), so a level under a dozen of them takes three
 * times the stack of a plain one. Counting it as several keeps every level within what the
 * probes assume: 0 extra up to {@link NEST_FREE}, then one per {@link NEST_PER}.
 */
export function callWeight(nesting: number): number {
  return nesting <= NEST_FREE ? 0 : Math.floor((nesting - NEST_FREE - 1) / NEST_PER) + 1;
}
const NEST_FREE = 5;
const NEST_PER = 4;

/** `node` counting `w` more levels while it runs (see {@link callWeight}). */
export function weighted(node: Node, w: number): Node {
  if (w === 0) return node;
  return (f) => {
    const st = R;
    // a capture or error passing through leaves the depth to whoever catches it (they reset it)
    st.depth += w;
    const r = node(f);
    st.depth -= w;
    return r;
  };
}

/** A nested run (host callback) always gets this many frames of its own before it spills. */
const MIN_SLICE = 32;
/** Host callbacks (`callSync` from a primitive) nested deeper than this raise a depth error. */
export const MAX_HOST_NESTING = 200;

function trampoline(r: TailCall): unknown {
  // the running tail call's site takes one slot of the shadow stack
  const st = R;
  const sp = st.sp;
  st.sp = sp + 1;
  let v: unknown = r;
  do {
    if (--st.tick < 0) tickCheck();
    const t = v as TailCall;
    st.sites[sp] = t.site!;
    v = t.body(t.frame);
  } while (v instanceof TailCall);
  st.sp = sp;
  return v;
}

function spill(body: Node, frame: Frame): never {
  R.depth--;
  throw new Capture(CK.Spill, () => callBodyTop(body, frame));
}

/**
 * Runs a closure body to completion (non-tail call), trampolining tail calls. It has no
 * handler: a {@link Capture} passing through needs no frame here, because the driver runs any
 * {@link TailCall} a resumed frame returns.
 */
export function callBody(body: Node, frame: Frame): unknown {
  const st = R;
  if (++st.depth > st.probeAt) probeStack(st, body, frame);
  if (--st.tick < 0) tickCheck();
  let r = body(frame);
  if (r instanceof TailCall) r = trampoline(r);
  if (r instanceof Jump) throw new Capture(CK.Reinstate, r.k, r.value);
  // well below the last probe: probe again sooner (another path may use bigger frames)
  if (--st.depth < st.probeAt - 4 * PROBE_EVERY) {
    st.probeAt = Math.max(st.runBase + PROBE_FROM, st.depth + PROBE_EVERY);
  }
  return r;
}

/** `callBody` for the driver itself: a {@link Jump} comes back as a value. */
export function callBodyTop(body: Node, frame: Frame): unknown {
  const st = R;
  if (++st.depth > st.probeAt) probeStack(st, body, frame);
  if (--st.tick < 0) tickCheck();
  let r = body(frame);
  if (r instanceof TailCall) r = trampoline(r);
  st.depth--;
  return r;
}

/** `apply` for the driver itself: a {@link Jump} comes back as a value. */
export function applyTop(fn: unknown, args: unknown[]): unknown {
  if (fn instanceof Closure) return callBodyTop(fn.lam.body, makeFrame(fn, args));
  return apply(fn, args);
}

function probeStack(st: State, body: Node, frame: Frame): void {
  st.probeAt = st.depth + PROBE_EVERY;
  try {
    probe(PROBE_DEPTH);
  } catch {
    // not enough room left: move the pending frames to the heap (unless this run has just
    // started, e.g. a host callback nested on a nearly full stack: then the engine's own
    // overflow, a depth error, decides)
    if (st.depth - st.runBase > MIN_SLICE) {
      st.probeAt = st.runBase + PROBE_FROM;
      spill(body, frame);
    }
  }
}

/** Runs a pending tail call to completion. */
export function runTC(tc: TailCall): unknown {
  return callBody(tc.body, tc.frame);
}

/** Throws an arity error for `name`. */
export function arityError(name: string, got: number): never {
  throw schemeError("arity", `${name}: wrong number of arguments (${got})`);
}

/** Builds the frame for applying closure `fn` to `args`. */
export function makeFrame(fn: Closure, args: unknown[]): Frame {
  const lam = fn.lam;
  const n = args.length;
  const f: Frame = new Array(lam.size);
  f[0] = fn.env;
  if (lam.rest) {
    if (n < lam.nreq) arityError(lam.name, n);
    for (let i = 0; i < lam.nreq; i++) f[i + 1] = args[i];
    let r: unknown = NIL;
    for (let i = n - 1; i >= lam.nreq; i--) r = new Pair(args[i], r);
    f[lam.nreq + 1] = r;
  } else {
    if (n !== lam.nreq) arityError(lam.name, n);
    for (let i = 0; i < n; i++) f[i + 1] = args[i];
  }
  return f;
}

function isThenable(x: unknown): x is Promise<unknown> {
  return x !== null && typeof x === "object" &&
    typeof (x as { then?: unknown }).then === "function";
}

/** Calls a primitive (arity-checked); handles async results and tail-call results. */
export function callPrim(p: Prim, args: unknown[], tail: boolean): unknown {
  const n = args.length;
  if (n < p.min || n > p.max) arityError(p.name, n);
  const r = p.fa !== undefined ? p.fa(args) : n > MAX_SPREAD ? tooManyArgs(p, n) : p.fn(...args);
  if (p.async && isThenable(r)) throw new Capture(CK.Await, r);
  if (!tail && r instanceof TailCall) return runTC(r);
  return r;
}

/** Calls of a non-variadic primitive with more arguments than this are refused (JS spread). */
const MAX_SPREAD = 50_000;
function tooManyArgs(p: Prim, n: number): never {
  throw schemeError("range", `${p.name}: too many arguments (${n})`);
}

/** Hooks for applying non-procedure callables (keywords on dicts, parameters...). */
export const applyHooks: { other: (fn: unknown, args: unknown[]) => unknown } = {
  other: (fn) => {
    throw schemeError("type", "not a procedure:", [fn]);
  },
};

function selectCase(fn: CaseLambda, n: number): Closure {
  for (const c of fn.clauses) {
    if (n === c.lam.nreq || (c.lam.rest && n >= c.lam.nreq)) return c;
  }
  return arityError(fn.name, n);
}

/** Applies `fn` to `args` as a non-tail call, returning its value. */
export function apply(fn: unknown, args: unknown[]): unknown {
  if (fn instanceof Closure) return callBody(fn.lam.body, makeFrame(fn, args));
  if (fn instanceof Prim) return callPrim(fn, args, false);
  if (fn instanceof CaseLambda) {
    const c = selectCase(fn, args.length);
    return callBody(c.lam.body, makeFrame(c, args));
  }
  if (fn instanceof Continuation) throwTo(fn, args);
  return applyHooks.other(fn, args);
}

/** Applies `fn` to `args` in tail position: may return {@link TailCall}. */
export function applyTail(fn: unknown, args: unknown[]): unknown {
  if (fn instanceof Closure) {
    return new TailCall(fn.lam.body, makeFrame(fn, args));
  }
  if (fn instanceof Prim) return callPrim(fn, args, true);
  if (fn instanceof CaseLambda) {
    const c = selectCase(fn, args.length);
    return new TailCall(c.lam.body, makeFrame(c, args));
  }
  if (fn instanceof Continuation) throwTo(fn, args);
  return applyHooks.other(fn, args);
}

/** Invokes continuation `k` with `args`. */
export function throwTo(k: Continuation, args: unknown[]): never {
  throw new Capture(CK.Reinstate, k, args.length === 1 ? args[0] : new Values(args));
}

/** True if `x` is a procedure. */
export function isProcedure(x: unknown): boolean {
  return x instanceof Closure || x instanceof Prim || x instanceof CaseLambda ||
    x instanceof Continuation || x instanceof Parameter;
}
