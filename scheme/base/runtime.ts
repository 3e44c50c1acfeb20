/**
 * The runtime core: procedure representations, the application protocol with proper tail calls
 * (trampolining through the {@link TailCall} marker), sandbox accounting (fuel, deadline, memory,
 * depth), and the driver ({@link Run}) that implements deep recursion, first-class continuations
 * and asynchronous primitives by unwinding the JS stack into heap frames ({@link Capture}).
 *
 * How it works: compiled code runs directly on the JS stack. When the JS stack gets deep, or
 * `call/cc` is called, or a host primitive returns a Promise, a {@link Capture} is thrown; every
 * compiled node it passes through pushes a {@link KF} ("what I still had to do"), and the
 * {@link Run} driver resumes those frames from a shallow stack.
 *
 * @module
 */
import {
  Keyword,
  type Loc,
  NIL,
  Pair,
  Parameter,
  Sym,
  sym,
  symbolTableHooks,
  Values,
} from "./types.ts";
import {
  SchemeError,
  schemeError,
  SchemeExit,
  SchemeLimitError,
  toSchemeError,
  type TraceFrame,
  traceHooks,
} from "./errors.ts";

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

/** A first-class continuation. */
export class Continuation {
  /** Captured heap frames (innermost last), dynamic state and owning run. */
  constructor(public frames: KF[], public dyn: DynNode | null, public run: Run) {}
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

/** Sandbox limits (all optional; see docs for defaults). */
export interface Limits {
  /** Maximum procedure calls per evaluation (default 100,000,000). */
  fuel?: number;
  /** Wall-clock budget per evaluation in milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Maximum cells (pairs, vector slots, string chars / 8 ...) allocated per evaluation (default 20,000,000). */
  maxCells?: number;
  /** Maximum string length (default 10,000,000). */
  maxStringLength?: number;
  /** Maximum vector/bytevector length (default 10,000,000). */
  maxVectorLength?: number;
  /** Maximum recursion depth, in Scheme frames (default 100,000). */
  maxDepth?: number;
}

/** Default limits. */
export const DEFAULT_LIMITS: Required<Limits> = {
  fuel: 100_000_000,
  timeoutMs: 10_000,
  maxCells: 20_000_000,
  maxStringLength: 10_000_000,
  maxVectorLength: 10_000_000,
  maxDepth: 100_000,
};

const BATCH = 10_000;
/**
 * Stack discipline. Compiled code runs on the JS stack; below {@link PROBE_FROM} nested calls it
 * runs unchecked. Beyond, every {@link PROBE_EVERY} levels of nesting `callBody` probes for
 * ~85 KB of free JS stack (a small recursion that the engine stops with a
 * RangeError when the room is not there); a failed probe is a safe point, where the pending
 * frames move to the heap and the run continues on a fresh stack. So recursion runs at full speed
 * as deep as the JS stack allows (thousands of frames, more when the code is optimized), and the
 * switch to heap frames happens only when the stack is really full.
 */
const PROBE_FROM = 256;
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

/**
 * The symbols and keywords an interpreter interned beyond the process-wide static ones (the names
 * of the standard library and those a host makes with {@link sym}). They count against the
 * interpreter's memory limit and are dropped with it.
 */
export class SymbolTable {
  /** Interned symbols by name. */
  readonly syms: Map<string, Sym> = new Map();
  /** Interned keywords by name. */
  readonly keywords: Map<string, Keyword> = new Map();
  /** Returns the symbol named `name` (the static one if it exists). */
  intern(name: string): Sym {
    // local first: a static symbol made later (by a host) must not split an interned name
    let s = this.syms.get(name) ?? symbolTableHooks.staticSym(name);
    if (s === undefined) {
      this.charge(name);
      s = new Sym(name);
      this.syms.set(name, s);
    }
    return s;
  }
  /** Returns the keyword `:name` (the static one if it exists). */
  keyword(name: string): Keyword {
    let k = this.keywords.get(name) ?? symbolTableHooks.staticKeyword(name);
    if (k === undefined) {
      this.charge(name);
      k = new Keyword(name);
      this.keywords.set(name, k);
    }
    return k;
  }
  /** Number of symbols and keywords interned here. */
  get size(): number {
    return this.syms.size + this.keywords.size;
  }
  /** Charges a new entry to the running interpreter's memory if this is its table. */
  private charge(name: string): void {
    // a symbol costs an object, a map entry and its name: 16 cells plus the name's bytes
    if (R.symbols === this) alloc(16 + (name.length >> 3));
  }
}

/** Interns `name` in the running interpreter's symbol table (the static table outside one). */
export function intern(name: string): Sym {
  return R.symbols ? R.symbols.intern(name) : sym(name);
}
/** Interns keyword `:name` in the running interpreter's table. */
export function internKeyword(name: string): Keyword {
  return R.symbols ? R.symbols.keyword(name) : symbolTableHooks.keyword(name);
}

/** Mutable runtime state of one interpreter. */
export class State {
  /** Countdown until the next slow check. */
  tick = BATCH;
  /** Fuel left beyond the current batch. */
  fuel = 0;
  /** Deadline (ms since epoch). */
  deadline = Infinity;
  /** Nesting of callBody on the JS stack. */
  depth = 0;
  /** Depth at which callBody next probes the JS stack (see {@link PROBE_FROM}). */
  probeAt = PROBE_FROM;
  /** Depth of the running driver's base: a run always keeps a few frames of its own. */
  runBase = 0;
  /** Host callbacks currently nested (runs started by `callSync` from a primitive). */
  nesting = 0;
  /** Calls after which a procedure body compiled under this interpreter is compiled to JS (0: never). */
  jitAfter = 0;
  /** Bodies this interpreter compiled to JS so far (see scheme/jit.ts). */
  jitBodies = 0;
  /** Current dynamic state. */
  dyn: DynNode | null = null;
  /** Cells allocated in this evaluation. */
  cells = 0;
  /** Cell limit. */
  cellLimit = DEFAULT_LIMITS.maxCells;
  /** Maximum heap frames. */
  maxFrames = DEFAULT_LIMITS.maxDepth * 2;
  /** Effective limits. */
  limits: Required<Limits> = { ...DEFAULT_LIMITS };
  /** Owner (the interpreter), opaque here. */
  owner: unknown = null;
  /** The interpreter's own symbols (null: intern into the static table). */
  symbols: SymbolTable | null = null;
  /**
   * The shadow stack of active call sites (`sites[0..sp)`, innermost last): call nodes push
   * their site around the call, so an error made anywhere below knows its backtrace without
   * any handler on the way (see {@link traceHooks}).
   */
  sites: Site[] = [];
  /** Top of {@link sites}. */
  sp = 0;

  /** Snapshot of the budget (kept by a suspended evaluation). */
  saveBudget(): { tick: number; fuel: number; deadline: number; cells: number } {
    return { tick: this.tick, fuel: this.fuel, deadline: this.deadline, cells: this.cells };
  }
  /** Restores a budget snapshot. */
  restoreBudget(b: { tick: number; fuel: number; deadline: number; cells: number }): void {
    this.tick = b.tick;
    this.fuel = b.fuel;
    this.deadline = b.deadline;
    this.cells = b.cells;
  }

  /** Resets per-evaluation budgets. */
  reset(limits: Required<Limits>): void {
    this.limits = limits;
    this.fuel = Math.max(0, limits.fuel - BATCH);
    this.tick = Math.min(BATCH, limits.fuel);
    this.deadline = Date.now() + limits.timeoutMs;
    this.cells = 0;
    this.cellLimit = limits.maxCells;
    this.maxFrames = limits.maxDepth * 2;
  }
}

/** The state of the interpreter currently running (set by {@link Run}). */
export let R: State = new State();

traceHooks.snapshot = (): TraceFrame[] => {
  const st = R;
  const out: TraceFrame[] = [];
  for (let i = Math.min(st.sp, st.sites.length) - 1; i >= 0 && out.length < 24; i--) {
    const s = st.sites[i];
    if (s) out.push(s);
  }
  return out;
};
/** Makes `s` the current state. */
export function setState(s: State): void {
  R = s;
}

/** Called when `R.tick` drops below zero: refuels from the budget and checks the deadline. */
export function tickCheck(): void {
  if (Date.now() > R.deadline) {
    R.tick = -1;
    throw new SchemeLimitError("deadline", "time limit exceeded");
  }
  if (R.fuel + R.tick <= 0) {
    R.tick = -1;
    R.fuel = 0;
    throw new SchemeLimitError("fuel", "fuel exhausted");
  }
  // a large charge may have driven tick far below zero: take it out of the remaining fuel
  const owed = R.tick < 0 ? -R.tick : 0;
  R.fuel -= owed;
  if (R.fuel <= 0) {
    R.tick = -1;
    R.fuel = 0;
    throw new SchemeLimitError("fuel", "fuel exhausted");
  }
  const b = Math.min(BATCH, R.fuel);
  R.fuel -= b;
  R.tick = b;
}

/** Checks the deadline now (after an operation whose cost is not known in advance). */
export function checkDeadline(): void {
  if (Date.now() > R.deadline) {
    R.tick = -1;
    throw new SchemeLimitError("deadline", "time limit exceeded");
  }
}

/** Accounts for `n` allocated cells; throws a memory limit error past the limit. */
export function alloc(n: number): void {
  if ((R.cells += n) > R.cellLimit) {
    R.cells = R.cellLimit + 1;
    throw new SchemeLimitError("memory", "allocation limit exceeded");
  }
  if (n > 64) work(n);
}

/**
 * Charges fuel for `n` units of primitive work (one step per 64 units), so long-running
 * primitives (string and list traversals, copies) consume fuel and meet deadline checks.
 */
export function work(n: number): void {
  if ((R.tick -= n >> 6) < 0) tickCheck();
}
/** Checks a requested string length. */
export function checkStringLength(n: number): void {
  if (n > R.limits.maxStringLength) {
    throw new SchemeLimitError("memory", `string too long (${n} > ${R.limits.maxStringLength})`);
  }
  alloc(n >> 3);
}
/** Checks a requested vector length. */
export function checkVectorLength(n: number): void {
  if (n > R.limits.maxVectorLength) {
    throw new SchemeLimitError("memory", `vector too long (${n} > ${R.limits.maxVectorLength})`);
  }
  alloc(n);
}
/** Checks a requested bytevector length (bytes count as 1/8 cell). */
export function checkBytesLength(n: number): void {
  if (n > R.limits.maxVectorLength) {
    throw new SchemeLimitError(
      "memory",
      `bytevector too long (${n} > ${R.limits.maxVectorLength})`,
    );
  }
  alloc(n >> 3);
}

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
function callBodyTop(body: Node, frame: Frame): unknown {
  const st = R;
  if (++st.depth > st.probeAt) probeStack(st, body, frame);
  if (--st.tick < 0) tickCheck();
  let r = body(frame);
  if (r instanceof TailCall) r = trampoline(r);
  st.depth--;
  return r;
}

/** `apply` for the driver itself: a {@link Jump} comes back as a value. */
function applyTop(fn: unknown, args: unknown[]): unknown {
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

// ---------------------------------------------------------------------------------------------
// Dynamic state: dynamic-wind, with-exception-handler, parameterize, guard

/** True if `node` is `dyn` or one of its ancestors. */
export function inChain(node: DynNode, dyn: unknown): boolean {
  let n = 0;
  for (let d = dyn as DynNode | null; d; d = d.parent) {
    if (d === node) return true;
    if ((++n & 255) === 0) work(256 * 64);
  }
  return false;
}

function secondary(obj: unknown): SchemeError {
  return schemeError("error", "exception handler returned from non-continuable raise:", [obj]);
}

function dynErr(err: unknown, node: DynNode, saved: DynNode | null): unknown {
  const e = toSchemeError(err);
  if (e.dyn === undefined) e.dyn = R.dyn;
  R.dyn = saved;
  if (e instanceof SchemeLimitError) throw e;
  if (e instanceof SchemeExit && (e.emergency || node.kind !== DynKind.Wind)) throw e;
  if (node.kind === DynKind.Handler && !e.continuable && inChain(node, e.dyn)) {
    // errors signalled by primitives reach the handler here, after unwinding
    const sec = secondary(e.payload);
    sec.dyn = saved;
    try {
      apply(node.data, [e.payload]);
    } catch (c) {
      if (c instanceof Capture) {
        c.frames.push(
          new KF(() => {
            throw sec;
          }),
        );
      }
      throw c;
    }
    throw sec;
  }
  if (node.kind === DynKind.Wind) {
    const after = (node.data as [unknown, unknown])[1];
    try {
      apply(after, []);
    } catch (c) {
      if (c instanceof Capture) {
        c.frames.push(
          new KF(() => {
            throw e;
          }),
        );
      }
      throw c;
    }
  }
  throw e;
}

/** Calls `thunk` (non-tail) with a new dynamic-state node of `kind` pushed. */
export function dynCall(kind: DynKind, data: unknown, thunk: unknown): unknown {
  const saved = R.dyn;
  const depth = R.depth;
  const sp = R.sp;
  const node = new DynNode(kind, data, saved);
  R.dyn = node;
  // dynamic-wind, parameterize and handlers put ~1 KB of JS frames under the thunk: one level
  R.depth = depth + 1;
  let r;
  try {
    r = apply(thunk, []);
  } catch (e) {
    if (e instanceof Capture) {
      e.frames.push(
        new KF((v) => {
          R.dyn = saved;
          return v;
        }, (err) => dynErr(err, node, saved)),
      );
      throw e;
    }
    const se = toSchemeError(e);
    R.depth = depth;
    R.sp = sp;
    return dynErr(se, node, saved);
  }
  R.dyn = saved;
  R.depth = depth;
  return r;
}

function guardErr(err: unknown, node: DynNode, saved: DynNode | null, handler: unknown): unknown {
  const e = toSchemeError(err);
  if (e.dyn === undefined) e.dyn = R.dyn;
  R.dyn = saved;
  if (e instanceof SchemeLimitError || e instanceof SchemeExit || !inChain(node, e.dyn)) throw e;
  return apply(handler, [e.payload]);
}

/** Implements `guard`: runs `thunk`; a raise inside it calls `handler` with the raised object. */
export function guardCall(thunk: unknown, handler: unknown): unknown {
  const saved = R.dyn;
  const depth = R.depth;
  const sp = R.sp;
  const node = new DynNode(DynKind.Guard, null, saved);
  R.dyn = node;
  let r;
  try {
    r = apply(thunk, []);
  } catch (e) {
    if (e instanceof Capture) {
      e.frames.push(
        new KF((v) => {
          R.dyn = saved;
          return v;
        }, (err) => guardErr(err, node, saved, handler)),
      );
      throw e;
    }
    const se = toSchemeError(e);
    R.depth = depth;
    R.sp = sp;
    return guardErr(se, node, saved, handler);
  }
  R.dyn = saved;
  return r;
}

/** Implements `raise` / `raise-continuable`: calls the current handler in the raise context. */
export function raise(obj: unknown, continuable: boolean): unknown {
  let n = R.dyn;
  let steps = 0;
  while (n && n.kind !== DynKind.Handler && n.kind !== DynKind.Guard) {
    n = n.parent;
    if ((++steps & 255) === 0) work(256 * 64);
  }
  if (!n || n.kind === DynKind.Guard) {
    const e = new SchemeError(obj, continuable);
    e.dyn = R.dyn;
    throw e;
  }
  const saved = R.dyn;
  R.dyn = n.parent;
  const after = (v: unknown) => {
    if (!continuable) {
      const sec = secondary(obj);
      sec.dyn = R.dyn;
      throw sec;
    }
    R.dyn = saved;
    return v;
  };
  let r;
  try {
    r = apply(n.data, [obj]);
  } catch (e) {
    if (e instanceof Capture) e.frames.push(new KF(after));
    throw e;
  }
  return after(r);
}

/** Looks up the current value of a parameter object. */
export function paramValue(p: unknown, dflt: unknown): unknown {
  let n = 0;
  for (let d = R.dyn; d; d = d.parent) {
    if ((++n & 255) === 0) work(256 * 64);
    if (d.kind === DynKind.Param) {
      const m = d.data as Map<unknown, unknown>;
      if (m.has(p)) return m.get(p);
    }
  }
  return dflt;
}

/** Winds from the current dynamic state to `to` (running after/before thunks). */
export function windTo(to: DynNode | null): void {
  const from = R.dyn;
  if (from === to) return;
  const fromSet = new Set<DynNode>();
  for (let d = from; d; d = d.parent) fromSet.add(d);
  work(fromSet.size * 64);
  let common: DynNode | null = to;
  while (common && !fromSet.has(common)) common = common.parent;
  for (let d = from; d && d !== common; d = d.parent) {
    R.dyn = d.parent;
    if (d.kind === DynKind.Wind) nested(() => apply((d!.data as unknown[])[1], []));
  }
  const path: DynNode[] = [];
  for (let d = to; d && d !== common; d = d.parent) path.push(d);
  for (let i = path.length - 1; i >= 0; i--) {
    const d = path[i];
    if (d.kind === DynKind.Wind) nested(() => apply((d.data as unknown[])[0], []));
    R.dyn = d;
  }
  R.dyn = to;
}

// ---------------------------------------------------------------------------------------------
// The driver

/** Returned by {@link Run.run} when a host primitive returned a Promise. */
export class Suspend {
  /** The promise to await before calling {@link Run.resume}. */
  constructor(public promise: Promise<unknown>) {}
}

const enum Mode {
  Call,
  Value,
  Error,
}

/** Drives one evaluation: resumes heap frames after captures, implements call/cc and async. */
export class Run {
  private k: KF[] = [];
  private mode = Mode.Call;
  private next: (() => unknown) | null = null;
  private value: unknown = undefined;
  private err: SchemeError | null = null;
  private savedDyn: DynNode | null = null;
  private base: number;
  private baseSp: number;
  /** True once a nested run (a host callback) has returned: its continuations are dead. */
  finished = false;

  /** Creates a run on the current state; nested runs serve callbacks from primitives. */
  constructor(readonly isNested = false) {
    this.base = R.depth;
    this.baseSp = R.sp;
  }

  /** Runs `thunk` to completion, or until it must await a promise. */
  run(thunk: () => unknown): unknown {
    this.mode = Mode.Call;
    this.next = thunk;
    return this.loop();
  }

  /** Resumes after a {@link Suspend} with the promise outcome. */
  resume(ok: boolean, v: unknown): unknown {
    R.dyn = this.savedDyn;
    if (ok) {
      this.mode = Mode.Value;
      this.value = v;
    } else {
      this.mode = Mode.Error;
      this.err = toSchemeError(v);
    }
    return this.loop();
  }

  private loop(): unknown {
    const st = R;
    const savedBase = st.runBase, savedProbe = st.probeAt;
    st.runBase = this.base;
    st.probeAt = this.base + PROBE_FROM;
    try {
      return this.steps(st);
    } finally {
      st.runBase = savedBase;
      st.probeAt = savedProbe;
    }
  }

  private steps(st: State): unknown {
    const k = this.k;
    for (;;) {
      if (this.mode === Mode.Error) {
        const e = this.err!;
        let fr: KF | undefined;
        while ((fr = k.pop()) && !fr.handler);
        if (!fr) {
          st.depth = this.base;
          throw e;
        }
        this.mode = Mode.Call;
        this.next = () => fr!.handler!(e);
      }
      try {
        let v: unknown;
        st.depth = this.base;
        st.sp = this.baseSp;
        if (this.mode === Mode.Call) {
          const t = this.next!;
          this.next = null;
          v = t();
        } else v = this.value;
        for (;;) {
          // a resumed frame in tail position returns a pending tail call: complete it here
          if (v instanceof TailCall) {
            st.depth = this.base;
            v = callBodyTop(v.body, v.frame);
          }
          // a continuation called in tail position: nothing left to unwind. One of this run is
          // reinstated here, as the Reinstate capture below would (without a JS throw, which
          // costs ~1 µs: a generator built on call/cc makes one per step); another run's goes
          // there as a capture.
          if (v instanceof Jump) {
            const kont = v.k;
            if (kont.run !== this) throw new Capture(CK.Reinstate, kont, v.value);
            const value = v.value;
            if (--st.tick < 0) tickCheck();
            k.length = 0;
            st.depth = this.base;
            st.sp = this.baseSp;
            windTo(kont.dyn);
            work(kont.frames.length * 64);
            for (const f of kont.frames) k.push(f);
            v = value;
            continue;
          }
          if (k.length === 0) break;
          st.depth = this.base;
          st.sp = this.baseSp;
          if (--st.tick < 0) tickCheck();
          v = k.pop()!.fn(v);
        }
        return v;
      } catch (e) {
        if (e instanceof Capture) {
          const fs = e.frames;
          if (--st.tick < 0) {
            try {
              tickCheck();
            } catch (lim) {
              k.length = 0;
              this.mode = Mode.Error;
              this.err = lim as SchemeError;
              continue;
            }
          }
          for (let i = fs.length - 1; i >= 0; i--) k.push(fs[i]);
          if (k.length > st.maxFrames) {
            k.length = 0;
            this.mode = Mode.Error;
            this.err = new SchemeLimitError("depth", "recursion depth exceeded");
            continue;
          }
          switch (e.kind) {
            case CK.Spill:
              this.mode = Mode.Call;
              this.next = e.payload as () => unknown;
              break;
            case CK.CallCC: {
              let kont: Continuation;
              try {
                alloc(k.length);
                kont = new Continuation(k.slice(), st.dyn, this);
              } catch (lim) {
                k.length = 0;
                this.mode = Mode.Error;
                this.err = toSchemeError(lim);
                continue;
              }
              const p = e.payload;
              this.mode = Mode.Call;
              this.next = () => applyTop(p, [kont]);
              break;
            }
            case CK.Reinstate: {
              const kont = e.payload as Continuation;
              k.length = 0;
              if (kont.run !== this) {
                if (kont.run.isNested && kont.run.finished) {
                  this.mode = Mode.Error;
                  this.err = schemeError(
                    "error",
                    "cannot re-enter a continuation captured in a host callback that has returned",
                  );
                  continue;
                }
                if (this.isNested) {
                  // the continuation belongs to an outer run: unwind the host frames to it
                  st.depth = this.base;
                  throw e;
                }
              }
              this.mode = Mode.Call;
              this.next = () => {
                windTo(kont.dyn);
                work(kont.frames.length * 64);
                for (const f of kont.frames) k.push(f);
                return e.value;
              };
              break;
            }
            case CK.Await:
              this.savedDyn = st.dyn;
              st.depth = this.base;
              return new Suspend(e.payload as Promise<unknown>);
          }
        } else {
          const se = toSchemeError(e);
          if (se.dyn === undefined) se.dyn = st.dyn;
          if (se instanceof SchemeLimitError || (se instanceof SchemeExit && se.emergency)) {
            k.length = 0;
          }
          this.mode = Mode.Error;
          this.err = se;
        }
      }
    }
  }
}

/** Runs `thunk` synchronously in a nested driver (for callbacks from primitives). */
export function nested(thunk: () => unknown): unknown {
  const st = R;
  const depth = st.depth;
  const sp = st.sp;
  if (st.nesting >= MAX_HOST_NESTING) {
    throw new SchemeLimitError(
      "depth",
      "recursion depth exceeded (host callbacks nested too deep)",
    );
  }
  st.nesting++;
  const run = new Run(true);
  try {
    const r = run.run(thunk);
    if (r instanceof Suspend) {
      r.promise.catch(() => {});
      throw schemeError(
        "error",
        "asynchronous primitive called where only synchronous ones are allowed",
      );
    }
    return r;
  } finally {
    run.finished = true;
    st.nesting--;
    st.depth = depth;
    st.sp = sp;
  }
}
