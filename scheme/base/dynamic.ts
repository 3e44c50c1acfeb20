/**
 * The dynamic state: `dynamic-wind`, `with-exception-handler`, `parameterize` and `guard` push a
 * {@link DynNode}; `raise` finds the handler in it; a parameter's value is looked up in it.
 *
 * @module
 */
import { SchemeError, schemeError, SchemeExit, SchemeLimitError, toSchemeError } from "./errors.ts";
import { Capture, DynKind, DynNode, KF } from "./procedures.ts";
import { R, work } from "./state.ts";
import { apply } from "./apply.ts";

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
