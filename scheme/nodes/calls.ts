/**
 * Call nodes: procedure application with arity-specialised fast paths for closures, inlined
 * primitive calls, proper tail calls ({@link TailCall}), resumption after a {@link Capture}, and
 * backtrace frames appended to errors passing through a call site.
 *
 * @module
 */
import {
  apply,
  applyTail,
  callBody,
  callPrim,
  Capture,
  type Cell,
  Closure,
  Continuation,
  type Frame,
  Jump,
  KF,
  type Node,
  Prim,
  R,
  schemeError,
  type Site,
  TailCall,
  toSchemeError,
  UNBOUND,
  Values,
} from "../base/mod.ts";
import { type Desc, describe } from "./ir.ts";

type Entry = (...a: unknown[]) => unknown;

/** Reads a global cell, raising for unbound variables. */
export function gref(cell: Cell): unknown {
  const v = cell.value;
  if (v === UNBOUND) unbound(cell);
  return v;
}

/** Raises the unbound-variable error for `cell`. */
export function unbound(cell: Cell): never {
  throw schemeError("unbound", `unbound variable: ${cell.name.name}`);
}

/** Converts `e` to a SchemeError (captures pass through); its backtrace is already recorded. */
export function addTrace(e: unknown, _site: Site): unknown {
  if (e instanceof Capture) return e;
  const se = toSchemeError(e);
  if (se.dyn === undefined) se.dyn = R.dyn;
  return se;
}

/**
 * The heap frame of a call interrupted while its operands were evaluated: resuming it stores
 * the value as operand `step` and evaluates the rest. One object with the state as fields (no
 * closure, no copy of the operands at capture time) keeps a deep spill small: 10^6 pending calls
 * make ~10^6 of these, and their size is the garbage a deep recursion leaves to the collector.
 */
class CallK extends KF {
  /** Creates the frame; `vals` is owned by it (resumes copy it: continuations re-enter). */
  constructor(
    readonly f: Frame,
    readonly nodes: Node[],
    readonly step: number,
    readonly vals: unknown[],
    readonly tail: boolean,
    readonly site: Site,
  ) {
    super(resumeCallK);
  }
}

function resumeCallK(this: CallK, v: unknown): unknown {
  const step = this.step;
  const vs = this.vals.slice(0, step + 1);
  vs[step] = v;
  return resumeCall(this.f, this.nodes, step + 1, vs, this.tail, this.site);
}

/**
 * Handles an exception while the operands of a call are evaluated: a {@link Capture} gets a frame
 * resuming the evaluation of operands from `step` (`vals[0..step)` hold those evaluated, and
 * `vals` is not used by the caller afterwards); an error passes on (converted).
 */
export function callErr(
  e: unknown,
  f: Frame,
  step: number,
  vals: unknown[],
  nodes: Node[],
  tail: boolean,
  site: Site,
): unknown {
  if (e instanceof Capture) {
    if (step < nodes.length) e.frames.push(new CallK(f, nodes, step, vals, tail, site));
    return e;
  }
  return addTrace(e, site);
}

/** Calls `fn` with `args` (non-tail) with `site` on the shadow stack of call sites. */
export function callAt(fn: unknown, args: unknown[], site: Site): unknown {
  const st = R;
  const sp = st.sp;
  st.sites[sp] = site;
  st.sp = sp + 1;
  // primitives and continuations directly: fewer JS frames for a capture to unwind
  const r = fn instanceof Prim ? callPrim(fn, args, false) : apply(fn, args);
  st.sp = sp;
  return r;
}

/** Tail-calls `fn`: a closure becomes a TailCall; anything else runs now, with `site` pushed. */
export function tailAt(fn: unknown, args: unknown[], site: Site): unknown {
  if (fn instanceof Closure) {
    const t = applyTail(fn, args) as TailCall;
    t.site = site;
    return t;
  }
  if (fn instanceof Continuation) {
    return new Jump(fn, args.length === 1 ? args[0] : new Values(args));
  }
  const st = R;
  const sp = st.sp;
  st.sites[sp] = site;
  st.sp = sp + 1;
  const r = fn instanceof Prim ? callPrim(fn, args, true) : applyTail(fn, args);
  st.sp = sp;
  return r instanceof TailCall && r.site === undefined ? (r.site = site, r) : r;
}

/** Runs closure body `body` on `frame` (non-tail) with `site` on the shadow stack. */
export function bodyAt(body: Node, frame: Frame, site: Site): unknown {
  const st = R;
  const sp = st.sp;
  st.sites[sp] = site;
  st.sp = sp + 1;
  const r = callBody(body, frame);
  st.sp = sp;
  return r;
}

function resumeCall(
  f: Frame,
  nodes: Node[],
  start: number,
  vals: unknown[],
  tail: boolean,
  site: Site,
): unknown {
  let i = start;
  try {
    for (; i < nodes.length; i++) vals[i] = nodes[i](f);
  } catch (e) {
    throw callErr(e, f, i, vals, nodes, tail, site);
  }
  const args = vals.slice(1);
  return tail ? tailAt(vals[0], args, site) : callAt(vals[0], args, site);
}

/** Pads a frame to `size` slots. */
export function grow(a: unknown[], size: number): unknown[] {
  for (let i = a.length; i < size; i++) a.push(undefined);
  return a;
}

// Frames of closure calls. They are made here by the Array constructor, never by array literals:
// V8 tracks an allocation site per literal and pretenures it (allocates its objects in the old
// generation from then on) once most of them survive — which is what a deep recursion does, its
// frames held by heap frames until it unwinds. The literal sites of the call nodes are shared by
// every program in the process, so after one 10^6-deep recursion every later call frame went
// to the old generation and allocation-heavy code (tail loops, list building) ran 3–8× slower
// (the "cliff late in a run"); frames from the constructor are not pretenured.
/** The frame of a call with no argument. */
function frame0(env: unknown, size: number): Frame {
  const f = size === 1 ? new Array(1) : new Array(size);
  f[0] = env;
  return f;
}
/** The frame of a call with one argument. */
function frame1(env: unknown, a: unknown, size: number): Frame {
  const f = size === 2 ? new Array(2) : new Array(size);
  f[0] = env;
  f[1] = a;
  return f;
}
/** The frame of a call with two arguments. */
function frame2(env: unknown, a: unknown, b: unknown, size: number): Frame {
  const f = size === 3 ? new Array(3) : new Array(size);
  f[0] = env;
  f[1] = a;
  f[2] = b;
  return f;
}
/** The frame of a call with three arguments. */
function frame3(env: unknown, a: unknown, b: unknown, c: unknown, size: number): Frame {
  const f = size === 4 ? new Array(4) : new Array(size);
  f[0] = env;
  f[1] = a;
  f[2] = b;
  f[3] = c;
  return f;
}

/** Builds an inlined call of primitive `p` (read from `cell`, re-checked at run time). */
export function primCallNode(
  p: Prim,
  cell: Cell,
  fnN: Node,
  argNs: Node[],
  tail: boolean,
  site: Site,
): Node | null {
  const n = argNs.length;
  if (n === 1 && p.f1) {
    const f1 = p.f1;
    const aN = argNs[0];
    const nodes = [fnN, aN];
    const d: Desc = { k: "primCall", nodes, cell, prim: p, entry: f1 as Entry, tail, site };
    return describe((f) => {
      let a;
      try {
        a = aN(f);
      } catch (e) {
        throw callErr(e, f, 1, [cell.value], nodes, tail, site);
      }
      const v = cell.value;
      const st = R;
      const sp = st.sp;
      st.sites[sp] = site;
      st.sp = sp + 1;
      const r = v === p ? f1(a) : tail ? applyTail(v, [a]) : apply(v, [a]);
      st.sp = sp;
      return r;
    }, d);
  }
  if (n === 2 && p.f2) {
    const f2 = p.f2;
    const aN = argNs[0];
    const bN = argNs[1];
    const nodes = [fnN, aN, bN];
    const d: Desc = { k: "primCall", nodes, cell, prim: p, entry: f2 as Entry, tail, site };
    return describe((f) => {
      let step = 1, a, b;
      try {
        a = aN(f);
        step = 2;
        b = bN(f);
      } catch (e) {
        throw callErr(e, f, step, [cell.value, a, b], nodes, tail, site);
      }
      const v = cell.value;
      const st = R;
      const sp = st.sp;
      st.sites[sp] = site;
      st.sp = sp + 1;
      const r = v === p ? f2(a, b) : tail ? applyTail(v, [a, b]) : apply(v, [a, b]);
      st.sp = sp;
      return r;
    }, d);
  }
  return null;
}

/** Builds a call node; `gcell` is the operator's global cell when it is a global variable. */
export function callNode(
  fnN: Node,
  argNs: Node[],
  gcell: Cell | null,
  tail: boolean,
  site: Site,
): Node {
  const n = argNs.length;
  const nodes = [fnN, ...argNs];
  switch (n) {
    case 0:
      return tail
        ? (f) => {
          let fn;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
          } catch (e) {
            throw callErr(e, f, 0, [], nodes, tail, site);
          }
          return tailInvoke0(fn, site);
        }
        : (f) => {
          let fn;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
          } catch (e) {
            throw callErr(e, f, 0, [], nodes, tail, site);
          }
          return invoke0(fn, site);
        };
    case 1: {
      const aN = argNs[0];
      return tail
        ? (f) => {
          let step = 0, fn, a;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
          } catch (e) {
            throw callErr(e, f, step, [fn, a], nodes, tail, site);
          }
          return tailInvoke1(fn, a, site);
        }
        : (f) => {
          let step = 0, fn, a;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
          } catch (e) {
            throw callErr(e, f, step, [fn, a], nodes, tail, site);
          }
          return invoke1(fn, a, site);
        };
    }
    case 2: {
      const [aN, bN] = argNs;
      return tail
        ? (f) => {
          let step = 0, fn, a, b;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
            step = 2;
            b = bN(f);
          } catch (e) {
            throw callErr(e, f, step, [fn, a, b], nodes, tail, site);
          }
          return tailInvoke2(fn, a, b, site);
        }
        : (f) => {
          let step = 0, fn, a, b;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
            step = 2;
            b = bN(f);
          } catch (e) {
            throw callErr(e, f, step, [fn, a, b], nodes, tail, site);
          }
          return invoke2(fn, a, b, site);
        };
    }
    case 3: {
      const [aN, bN, cN] = argNs;
      return (f) => {
        let step = 0, fn, a, b, c;
        try {
          fn = gcell !== null ? gref(gcell) : fnN(f);
          step = 1;
          a = aN(f);
          step = 2;
          b = bN(f);
          step = 3;
          c = cN(f);
        } catch (e) {
          throw callErr(e, f, step, [fn, a, b, c], nodes, tail, site);
        }
        return tail ? tailInvoke3(fn, a, b, c, site) : invoke3(fn, a, b, c, site);
      };
    }
    default:
      return (f) => {
        const vals: unknown[] = new Array(n + 1);
        let i = 0;
        try {
          for (; i <= n; i++) vals[i] = nodes[i](f);
        } catch (e) {
          throw callErr(e, f, i, vals, nodes, tail, site);
        }
        const fn = vals[0];
        const args = vals.slice(1);
        if (fn instanceof Closure) {
          const lam = fn.lam;
          if (lam.nreq === n && !lam.rest) {
            args.unshift(fn.env);
            grow(args, lam.size);
            return tail ? new TailCall(lam.body, args, site) : bodyAt(lam.body, args, site);
          }
        }
        return tail ? tailAt(fn, args, site) : callAt(fn, args, site);
      };
  }
}

// The call phase of a call whose operands are evaluated (by the call nodes above and the fused
// call nodes of fused_calls.ts), as plain functions V8 can inline at a known call site.

/** Non-tail call of `fn` with no argument, `site` on the shadow stack. */
export function invoke0(fn: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 0 && !lam.rest) return bodyAt(lam.body, frame0(fn.env, lam.size), site);
  }
  return callAt(fn, [], site);
}

/** Non-tail call of `fn` with one argument, `site` on the shadow stack. */
export function invoke1(fn: unknown, a: unknown, site: Site): unknown {
  const st = R;
  const sp = st.sp;
  st.sites[sp] = site;
  st.sp = sp + 1;
  let r;
  if (fn instanceof Closure && fn.lam.nreq === 1 && !fn.lam.rest) {
    const lam = fn.lam;
    r = callBody(lam.body, frame1(fn.env, a, lam.size));
  } else r = apply(fn, [a]);
  st.sp = sp;
  return r;
}

/** Non-tail call of `fn` with two arguments, `site` on the shadow stack. */
export function invoke2(fn: unknown, a: unknown, b: unknown, site: Site): unknown {
  const st = R;
  const sp = st.sp;
  st.sites[sp] = site;
  st.sp = sp + 1;
  let r;
  if (fn instanceof Closure && fn.lam.nreq === 2 && !fn.lam.rest) {
    const lam = fn.lam;
    r = callBody(lam.body, frame2(fn.env, a, b, lam.size));
  } else r = apply(fn, [a, b]);
  st.sp = sp;
  return r;
}

/** Non-tail call of `fn` with three arguments, `site` on the shadow stack. */
export function invoke3(fn: unknown, a: unknown, b: unknown, c: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 3 && !lam.rest) {
      return bodyAt(lam.body, frame3(fn.env, a, b, c, lam.size), site);
    }
  }
  return callAt(fn, [a, b, c], site);
}

/** Tail call of `fn` with no argument. */
export function tailInvoke0(fn: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 0 && !lam.rest) return new TailCall(lam.body, frame0(fn.env, lam.size), site);
  }
  return tailAt(fn, [], site);
}

/** Tail call of `fn` with one argument. */
export function tailInvoke1(fn: unknown, a: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 1 && !lam.rest) {
      return new TailCall(lam.body, frame1(fn.env, a, lam.size), site);
    }
  }
  return tailAt(fn, [a], site);
}

/** Tail call of `fn` with two arguments. */
export function tailInvoke2(fn: unknown, a: unknown, b: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 2 && !lam.rest) {
      return new TailCall(lam.body, frame2(fn.env, a, b, lam.size), site);
    }
  }
  return tailAt(fn, [a, b], site);
}

/** Tail call of `fn` with three arguments. */
export function tailInvoke3(fn: unknown, a: unknown, b: unknown, c: unknown, site: Site): unknown {
  if (fn instanceof Closure) {
    const lam = fn.lam;
    if (lam.nreq === 3 && !lam.rest) {
      return new TailCall(lam.body, frame3(fn.env, a, b, c, lam.size), site);
    }
  }
  return tailAt(fn, [a, b, c], site);
}
