/**
 * Control features (R7RS 6.10, 6.11, 4.2.5, 4.2.6, 5.5): procedures, `apply`, `values`,
 * `call/cc`, dynamic state, exceptions and error objects, promises, parameters, records.
 *
 * @module
 */
import {
  applyTail,
  Capture,
  CK,
  dynCall,
  DynKind,
  ErrorObject,
  isProcedure,
  NIL,
  Pair,
  Parameter,
  paramValue,
  Prim,
  R,
  raise,
  Record,
  RecordType,
  SPromise,
  Sym,
  sym,
  typeError,
  Values,
} from "../base/mod.ts";
import { def, defv, listArg, type PrimTable, symb } from "./util.ts";

function proc(name: string, x: unknown): unknown {
  if (!isProcedure(x)) typeError(name, "procedure", x);
  return x;
}

/** Installs control primitives. */
export function installControl(t: PrimTable): void {
  def(t, "procedure?", 1, 1, isProcedure);
  def(t, "apply", 2, Infinity, (fn: unknown, ...args: unknown[]) => {
    const all = args.length
      ? [...args.slice(0, -1), ...listArg("apply", args[args.length - 1])]
      : [];
    return applyTail(proc("apply", fn), all);
  });
  defv(t, "values", 0, (xs) => (xs.length === 1 ? xs[0] : new Values(xs)));
  def(t, "%values->list", 1, 1, (v) => {
    const xs = v instanceof Values ? v.vals : [v];
    let r: unknown = NIL;
    for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
    return r;
  });
  const callcc = (f: unknown) => {
    throw new Capture(CK.CallCC, proc("call/cc", f));
  };
  def(t, "call-with-current-continuation", 1, 1, callcc);
  def(t, "call/cc", 1, 1, callcc);
  def(
    t,
    "%dynamic-wind",
    3,
    3,
    (before, thunk, after) => dynCall(DynKind.Wind, [before, after], thunk),
  );
  def(t, "with-exception-handler", 2, 2, (h, thunk) => {
    proc("with-exception-handler", h);
    proc("with-exception-handler", thunk);
    return dynCall(DynKind.Handler, h, thunk);
  });
  def(t, "raise", 1, 1, (x) => raise(x, false));
  def(t, "raise-continuable", 1, 1, (x) => raise(x, true));
  def(t, "%reraise", 1, 1, (x) => raise(x, true));
  def(t, "error", 0, Infinity, (msg: unknown, ...irritants: unknown[]) => {
    let l: unknown = NIL;
    for (let i = irritants.length - 1; i >= 0; i--) l = new Pair(irritants[i], l);
    const m = typeof msg === "string" || msg instanceof Object && "s" in (msg as object)
      ? String(msg)
      : msg instanceof Sym
      ? msg.name
      : msg === undefined
      ? ""
      : String(msg);
    return raise(new ErrorObject(m, l), false);
  });
  def(t, "error-object?", 1, 1, (x) => x instanceof ErrorObject);
  def(
    t,
    "error-object-message",
    1,
    1,
    (x) =>
      x instanceof ErrorObject ? x.message : typeError("error-object-message", "error object", x),
  );
  def(
    t,
    "error-object-irritants",
    1,
    1,
    (x) =>
      x instanceof ErrorObject
        ? x.irritants
        : typeError("error-object-irritants", "error object", x),
  );
  def(
    t,
    "error-object-kind",
    1,
    1,
    (x) =>
      x instanceof ErrorObject
        ? symKind(x.kind)
        : typeError("error-object-kind", "error object", x),
  );

  // promises
  def(t, "promise?", 1, 1, (x) => x instanceof SPromise);
  def(
    t,
    "make-promise",
    1,
    1,
    (x) => (x instanceof SPromise ? x : new SPromise({ done: true, value: x })),
  );
  def(t, "%make-done-promise", 1, 1, (x) => new SPromise({ done: true, value: x }));
  def(t, "%make-lazy-promise", 1, 1, (thunk) => new SPromise({ done: false, value: thunk }));
  def(t, "%promise-done?", 1, 1, (p) => (p as SPromise).box.done);
  def(t, "%promise-value", 1, 1, (p) => (p as SPromise).box.value);
  def(t, "%promise-update!", 2, 2, (np, p) => {
    const a = p as SPromise, b = np as SPromise;
    a.box.done = b.box.done;
    a.box.value = b.box.value;
    b.box = a.box;
  });
  def(t, "%check-promise", 1, 1, (p) => p instanceof SPromise);

  // parameters
  def(t, "%make-parameter", 2, 2, (v, conv) => new Parameter(v, conv));
  def(t, "%param-converter", 1, 1, (p) => {
    if (!(p instanceof Parameter)) return typeError("parameterize", "parameter", p);
    return p.converter === false ? IDENTITY : p.converter;
  });
  def(t, "%parameterize", 3, 3, (ps, vs, thunk) => {
    const m = new Map<unknown, unknown>();
    const pa = listArg("parameterize", ps), va = listArg("parameterize", vs);
    pa.forEach((p, i) => m.set(p, va[i]));
    return dynCall(DynKind.Param, m, thunk);
  });

  // records
  def(
    t,
    "%make-record-type",
    2,
    2,
    (name, fields) =>
      new RecordType(
        symb("define-record-type", name).name,
        listArg("define-record-type", fields).map((f) => (f as Sym).name),
      ),
  );
  def(t, "%record-constructor", 2, 2, (rt: RecordType, args) => {
    const names = listArg("define-record-type", args).map((f) => (f as Sym).name);
    const pos = names.map((n) => {
      const i = rt.fields.indexOf(n);
      if (i < 0) typeError("define-record-type", "field name", args);
      return i;
    });
    const n = rt.fields.length;
    return new Prim(
      `make-${rt.name}`,
      (...xs: unknown[]) => {
        const fs = new Array(n).fill(false);
        for (let i = 0; i < pos.length; i++) fs[pos[i]] = xs[i];
        return new Record(rt, fs);
      },
      pos.length,
      pos.length,
    );
  });
  def(
    t,
    "%record-predicate",
    1,
    1,
    (rt: RecordType) =>
      new Prim(`${rt.name}?`, (x: unknown) => x instanceof Record && x.type === rt, 1, 1),
  );
  def(t, "%record-accessor", 2, 2, (rt: RecordType, f: Sym) => {
    const i = rt.fields.indexOf(f.name);
    const name = `${rt.name}-${f.name}`;
    const fn = (
      x: unknown,
    ) => (x instanceof Record && x.type === rt ? x.fields[i] : typeError(name, rt.name, x));
    const p = new Prim(name, fn, 1, 1);
    p.f1 = fn;
    return p;
  });
  def(t, "%record-modifier", 2, 2, (rt: RecordType, f: Sym) => {
    const i = rt.fields.indexOf(f.name);
    const name = `set-${rt.name}-${f.name}!`;
    return new Prim(
      name,
      (x: unknown, v: unknown) => {
        if (!(x instanceof Record && x.type === rt)) typeError(name, rt.name, x);
        (x as Record).fields[i] = v;
      },
      2,
      2,
    );
  });
  def(t, "record?", 1, 1, (x) => x instanceof Record);
  def(t, "void", 0, Infinity, () => undefined);
  def(t, "%param-value", 1, 1, (p: Parameter) => paramValue(p, p.value));
  def(t, "%fuel-left", 0, 0, () => R.fuel + R.tick);
}

const IDENTITY = new Prim("identity", (x: unknown) => x, 1, 1);

function symKind(k: string): Sym {
  return sym(k);
}
