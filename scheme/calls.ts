/**
 * Call nodes: procedure application with arity-specialised fast paths for closures, inlined
 * primitive calls, proper tail calls ({@link TailCall}), resumption after a {@link Capture}, and
 * backtrace frames appended to errors passing through a call site.
 *
 * @module
 */
import { type Cell, UNBOUND } from "./types.ts";
import { schemeError, toSchemeError } from "./errors.ts";
import {
  apply,
  applyTail,
  callBody,
  Capture,
  Closure,
  type Frame,
  KF,
  type Node,
  type Prim,
  R,
  type Site,
  TailCall,
} from "./runtime.ts";

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

/** Converts `e` to a SchemeError carrying one more backtrace frame (captures pass through). */
export function addTrace(e: unknown, site: Site): unknown {
  if (e instanceof Capture) return e;
  const se = toSchemeError(e);
  if (se.dyn === undefined) se.dyn = R.dyn;
  if (se.trace.length < 24) se.trace.push(site);
  return se;
}

/**
 * Handles an exception at a call site: a {@link Capture} gets a frame resuming the evaluation of
 * operands from `step`; anything else gets a backtrace frame.
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
    if (step < nodes.length) {
      const part = vals.slice(0, step);
      e.frames.push(
        new KF((v) => {
          const vs = part.slice();
          vs[step] = v;
          return resumeCall(f, nodes, step + 1, vs, tail, site);
        }),
      );
    }
    return e;
  }
  return addTrace(e, site);
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
    const args = vals.slice(1);
    return tail ? applyTail(vals[0], args) : apply(vals[0], args);
  } catch (e) {
    throw callErr(e, f, i, vals, nodes, tail, site);
  }
}

/** Pads a frame to `size` slots. */
export function grow(a: unknown[], size: number): unknown[] {
  for (let i = a.length; i < size; i++) a.push(undefined);
  return a;
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
    return (f) => {
      let step = 1, a;
      try {
        a = aN(f);
        step = 2;
        const v = cell.value;
        if (v === p) return f1(a);
        return tail ? applyTail(v, [a]) : apply(v, [a]);
      } catch (e) {
        throw callErr(e, f, step, [cell.value, a], nodes, tail, site);
      }
    };
  }
  if (n === 2 && p.f2) {
    const f2 = p.f2;
    const aN = argNs[0];
    const bN = argNs[1];
    const nodes = [fnN, aN, bN];
    return (f) => {
      let step = 1, a, b;
      try {
        a = aN(f);
        step = 2;
        b = bN(f);
        step = 3;
        const v = cell.value;
        if (v === p) return f2(a, b);
        return tail ? applyTail(v, [a, b]) : apply(v, [a, b]);
      } catch (e) {
        throw callErr(e, f, step, [cell.value, a, b], nodes, tail, site);
      }
    };
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
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 0 && !lam.rest) {
                return new TailCall(lam.body, grow([fn.env], lam.size), site);
              }
            }
            return applyTail(fn, []);
          } catch (e) {
            throw callErr(e, f, fn === undefined ? 0 : 1, [fn], nodes, tail, site);
          }
        }
        : (f) => {
          let fn;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 0 && !lam.rest) return callBody(lam.body, grow([fn.env], lam.size));
            }
            return apply(fn, []);
          } catch (e) {
            throw callErr(e, f, fn === undefined ? 0 : 1, [fn], nodes, tail, site);
          }
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
            step = 2;
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 1 && !lam.rest) {
                return new TailCall(
                  lam.body,
                  lam.size === 2 ? [fn.env, a] : grow([fn.env, a], lam.size),
                  site,
                );
              }
            }
            return applyTail(fn, [a]);
          } catch (e) {
            throw callErr(e, f, step, [fn, a], nodes, tail, site);
          }
        }
        : (f) => {
          let step = 0, fn, a;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
            step = 2;
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 1 && !lam.rest) {
                return callBody(
                  lam.body,
                  lam.size === 2 ? [fn.env, a] : grow([fn.env, a], lam.size),
                );
              }
            }
            return apply(fn, [a]);
          } catch (e) {
            throw callErr(e, f, step, [fn, a], nodes, tail, site);
          }
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
            step = 3;
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 2 && !lam.rest) {
                return new TailCall(
                  lam.body,
                  lam.size === 3 ? [fn.env, a, b] : grow([fn.env, a, b], lam.size),
                  site,
                );
              }
            }
            return applyTail(fn, [a, b]);
          } catch (e) {
            throw callErr(e, f, step, [fn, a, b], nodes, tail, site);
          }
        }
        : (f) => {
          let step = 0, fn, a, b;
          try {
            fn = gcell !== null ? gref(gcell) : fnN(f);
            step = 1;
            a = aN(f);
            step = 2;
            b = bN(f);
            step = 3;
            if (fn instanceof Closure) {
              const lam = fn.lam;
              if (lam.nreq === 2 && !lam.rest) {
                return callBody(
                  lam.body,
                  lam.size === 3 ? [fn.env, a, b] : grow([fn.env, a, b], lam.size),
                );
              }
            }
            return apply(fn, [a, b]);
          } catch (e) {
            throw callErr(e, f, step, [fn, a, b], nodes, tail, site);
          }
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
          step = 4;
          if (fn instanceof Closure) {
            const lam = fn.lam;
            if (lam.nreq === 3 && !lam.rest) {
              const nf = lam.size === 4 ? [fn.env, a, b, c] : grow([fn.env, a, b, c], lam.size);
              return tail ? new TailCall(lam.body, nf, site) : callBody(lam.body, nf);
            }
          }
          return tail ? applyTail(fn, [a, b, c]) : apply(fn, [a, b, c]);
        } catch (e) {
          throw callErr(e, f, step, [fn, a, b, c], nodes, tail, site);
        }
      };
    }
    default:
      return (f) => {
        const vals: unknown[] = new Array(n + 1);
        let i = 0;
        try {
          for (; i <= n; i++) vals[i] = nodes[i](f);
          const fn = vals[0];
          const args = vals.slice(1);
          if (fn instanceof Closure) {
            const lam = fn.lam;
            if (lam.nreq === n && !lam.rest) {
              args.unshift(fn.env);
              grow(args, lam.size);
              if (tail) {
                return new TailCall(lam.body, args, site);
              }
              return callBody(lam.body, args);
            }
          }
          return tail ? applyTail(fn, args) : apply(fn, args);
        } catch (e) {
          throw callErr(e, f, i, vals, nodes, tail, site);
        }
      };
  }
}
