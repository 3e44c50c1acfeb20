/**
 * Equivalence predicates, pairs and lists, symbols and booleans (R7RS 6.1-6.5).
 *
 * @module
 */
import {
  alloc,
  Char,
  Complex,
  Dict,
  Flo,
  intern,
  MString,
  NIL,
  Pair,
  Ratio,
  Record,
  Sym,
  typeError,
  work,
} from "../base/mod.ts";
import { def, defv, idx, listArg, mutablePair, pair, type PrimTable, str, symb } from "./util.ts";

/** `eqv?` */
export function eqv(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Flo && b instanceof Flo) return Object.is(a.v, b.v);
  if (typeof a === "bigint" && typeof b === "bigint") return a === b;
  if (a instanceof Ratio && b instanceof Ratio) return a.num === b.num && a.den === b.den;
  if (a instanceof Complex && b instanceof Complex) return eqv(a.re, b.re) && eqv(a.im, b.im);
  if (a instanceof MString || b instanceof MString) return false;
  if (typeof a === "string" && typeof b === "string") return a === "" && b === "";
  return false;
}

/** `eq?` */
export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "string" && typeof b === "string") return a === "" && b === "";
  return false;
}

/** `equal?` (terminates on cycles). */
export function equal(a: unknown, b: unknown): boolean {
  const seen = new Map<unknown, Set<unknown>>();
  let steps = 0;
  const go = (a: unknown, b: unknown, depth: number): boolean => {
    for (;;) {
      if ((++steps & 1023) === 0) work(1024);
      if (eqv(a, b)) return true;
      if (a instanceof Pair && b instanceof Pair) {
        let s = seen.get(a);
        if (s && s.has(b)) return true;
        if (!s) seen.set(a, s = new Set());
        s.add(b);
        if (!go(a.car, b.car, depth + 1)) return false;
        a = a.cdr;
        b = b.cdr;
        continue;
      }
      if (
        (typeof a === "string" || a instanceof MString) &&
        (typeof b === "string" || b instanceof MString)
      ) {
        return String(a) === String(b);
      }
      if (Array.isArray(a) && Array.isArray(b)) {
        if (a.length !== b.length) return false;
        let s = seen.get(a);
        if (s && s.has(b)) return true;
        if (!s) seen.set(a, s = new Set());
        s.add(b);
        for (let i = 0; i < a.length; i++) if (!go(a[i], b[i], depth + 1)) return false;
        return true;
      }
      if (a instanceof Uint8Array && b instanceof Uint8Array) {
        const bb = b;
        return a.length === bb.length && a.every((x, i) => x === bb[i]);
      }
      if (a instanceof Dict && b instanceof Dict) {
        if (a.map.size !== b.map.size) return false;
        for (const [k, v] of a.map) {
          if (!b.map.has(k) || !go(v, b.map.get(k), depth + 1)) return false;
        }
        return true;
      }
      if (a instanceof Record && b instanceof Record) return false;
      return false;
    }
  };
  return go(a, b, 0);
}

function cxr(t: PrimTable, path: string): void {
  const name = `c${path}r`;
  const ops = path.split("").reverse();
  def(t, name, 1, 1, (x: unknown) => {
    let v = x;
    for (const o of ops) {
      if (!(v instanceof Pair)) return typeError(name, "pair", x);
      v = o === "a" ? v.car : v.cdr;
    }
    return v;
  });
}

/** `length` with cycle detection. */
export function length(x: unknown): number {
  return listArg("length", x).length;
}

function mem(cmp: (a: unknown, b: unknown) => boolean) {
  return (x: unknown, l: unknown) => {
    let n = 0;
    for (; l instanceof Pair; l = l.cdr) {
      if ((++n & 1023) === 0) work(1024);
      if (cmp(x, l.car)) return l;
    }
    return false;
  };
}
function ass(name: string, cmp: (a: unknown, b: unknown) => boolean) {
  return (x: unknown, l: unknown) => {
    let n = 0;
    for (; l instanceof Pair; l = l.cdr) {
      if ((++n & 1023) === 0) work(1024);
      const e = l.car;
      if (!(e instanceof Pair)) return typeError(name, "association list", l.car);
      if (cmp(x, e.car)) return e;
    }
    return false;
  };
}

const not = (x: unknown) => x === false;
const isPair = (x: unknown) => x instanceof Pair;
const isNull = (x: unknown) => x === NIL;
const car = (x: unknown) => x instanceof Pair ? x.car : typeError("car", "pair", x);
const cdr = (x: unknown) => x instanceof Pair ? x.cdr : typeError("cdr", "pair", x);

/**
 * One-operand list primitives the body compiler (jit.ts) writes inline, by their entry
 * function (so a host primitive of the same name is not mistaken for them): `ok` is when the
 * entry cannot fail, as JS on the operand's name (absent: never fails), `value` what it returns
 * then. `NIL` and `Pair` are in scope of the generated code.
 */
export const INLINE_LIST_ENTRIES: ReadonlyMap<
  unknown,
  { ok?: (a: string) => string; value: (a: string) => string }
> = new Map<unknown, { ok?: (a: string) => string; value: (a: string) => string }>([
  [not, { value: (a) => `${a} === false` }],
  [isPair, { value: (a) => `${a} instanceof Pair` }],
  [isNull, { value: (a) => `${a} === NIL` }],
  [car, { ok: (a) => `${a} instanceof Pair`, value: (a) => `${a}.car` }],
  [cdr, { ok: (a) => `${a} instanceof Pair`, value: (a) => `${a}.cdr` }],
]);

/** Installs list primitives. */
export function installLists(t: PrimTable): void {
  def(t, "eqv?", 2, 2, eqv).f2 = eqv;
  def(t, "eq?", 2, 2, eq).f2 = eq;
  def(t, "equal?", 2, 2, equal).f2 = equal;
  def(t, "not", 1, 1, not).f1 = not;
  def(t, "boolean?", 1, 1, (x) => typeof x === "boolean");
  defv(t, "boolean=?", 2, (xs) => {
    for (const x of xs) if (typeof x !== "boolean") typeError("boolean=?", "boolean", x);
    return xs.every((x) => x === xs[0]);
  });
  def(t, "pair?", 1, 1, isPair).f1 = isPair;
  const cons = (a: unknown, b: unknown) => {
    alloc(1);
    return new Pair(a, b);
  };
  def(t, "cons", 2, 2, cons).f2 = cons;
  def(t, "car", 1, 1, car).f1 = car;
  def(t, "cdr", 1, 1, cdr).f1 = cdr;
  def(t, "set-car!", 2, 2, (p, v) => void (mutablePair("set-car!", p).car = v));
  def(t, "set-cdr!", 2, 2, (p, v) => void (mutablePair("set-cdr!", p).cdr = v));
  for (const a of ["a", "d"]) {
    for (const b of ["a", "d"]) {
      cxr(t, a + b);
      for (const c of ["a", "d"]) {
        cxr(t, a + b + c);
        for (const d of ["a", "d"]) cxr(t, a + b + c + d);
      }
    }
  }
  def(t, "null?", 1, 1, isNull).f1 = isNull;
  def(t, "list?", 1, 1, (x) => {
    let slow = x;
    let n = 0;
    while (x instanceof Pair) {
      if ((n & 1023) === 1023) work(1024);
      x = x.cdr;
      if (++n % 2 === 0) {
        slow = (slow as Pair).cdr;
        if (slow === x) return false;
      }
    }
    return x === NIL;
  });
  def(t, "make-list", 1, 2, (n, fill) => {
    const k = idx("make-list", n);
    alloc(k);
    let r: unknown = NIL;
    for (let i = 0; i < k; i++) r = new Pair(fill, r);
    return r;
  });
  defv(t, "list", 0, (xs) => {
    alloc(xs.length);
    let r: unknown = NIL;
    for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
    return r;
  });
  def(t, "length", 1, 1, length);
  const append2 = (a: unknown, b: unknown) => {
    const xs = listArg("append", a);
    alloc(xs.length);
    let r = b;
    for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
    return r;
  };
  defv(t, "append", 0, (ls) => {
    if (ls.length === 0) return NIL;
    let r = ls[ls.length - 1];
    for (let i = ls.length - 2; i >= 0; i--) r = append2(ls[i], r);
    return r;
  }).f2 = append2;
  def(t, "reverse", 1, 1, (l) => {
    let r: unknown = NIL;
    for (const x of listArg("reverse", l)) r = new Pair(x, r);
    alloc(1);
    return r;
  });
  def(t, "list-tail", 2, 2, (l, k) => {
    let n = idx("list-tail", k);
    work(n);
    while (n-- > 0) l = pair("list-tail", l).cdr;
    return l;
  });
  def(t, "list-ref", 2, 2, (l, k) => {
    let n = idx("list-ref", k);
    work(n);
    while (n-- > 0) l = pair("list-ref", l).cdr;
    return pair("list-ref", l).car;
  });
  def(t, "list-set!", 3, 3, (l, k, v) => {
    let n = idx("list-set!", k);
    work(n);
    while (n-- > 0) l = pair("list-set!", l).cdr;
    mutablePair("list-set!", l).car = v;
  });
  def(t, "list-copy", 1, 1, (l) => {
    const xs: unknown[] = [];
    let slow = l;
    while (l instanceof Pair) {
      xs.push(l.car);
      l = l.cdr;
      if ((xs.length & 1) === 0) {
        slow = (slow as Pair).cdr;
        if (slow === l) return typeError("list-copy", "list", "<circular list>");
      }
      if ((xs.length & 4095) === 0) alloc(4096);
    }
    alloc(xs.length & 4095);
    let r = l;
    for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
    return r;
  });
  def(t, "memq", 2, 2, mem(eq));
  def(t, "memv", 2, 2, mem(eqv));
  def(t, "%member", 2, 2, mem(equal));
  def(t, "assq", 2, 2, ass("assq", eq));
  def(t, "assv", 2, 2, ass("assv", eqv));
  def(t, "%assoc", 2, 2, ass("assoc", equal));
  def(t, "last-pair", 1, 1, (l) => {
    let p = pair("last-pair", l);
    let slow = p, n = 0;
    while (p.cdr instanceof Pair) {
      p = p.cdr;
      if ((++n & 1) === 0) {
        slow = slow.cdr as Pair;
        if (slow === p) return typeError("last-pair", "list", "<circular list>");
      }
      if ((n & 1023) === 0) work(1024 * 64);
    }
    return p;
  });
  def(t, "symbol?", 1, 1, (x) => x instanceof Sym);
  defv(t, "symbol=?", 2, (xs) => {
    for (const x of xs) symb("symbol=?", x);
    return xs.every((x) => x === xs[0]);
  });
  def(t, "symbol->string", 1, 1, (s) => symb("symbol->string", s).name);
  def(t, "string->symbol", 1, 1, (s) => intern(str("string->symbol", s)));
  def(t, "string->uninterned-symbol", 1, 1, (s) => new Sym(str("string->uninterned-symbol", s)));
  def(t, "char?", 1, 1, (x) => x instanceof Char);
}
