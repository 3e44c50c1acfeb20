/**
 * Vectors and bytevectors (R7RS 6.8, 6.9).
 *
 * @module
 */
import {
  alloc,
  checkBytesLength,
  checkVectorLength,
  NIL,
  Pair,
  rangeError,
  typeError,
  work,
} from "../base/mod.ts";
import { def, defv, idx, immutableError, listArg, mutable, type PrimTable, range } from "./util.ts";

function vec(proc: string, x: unknown): unknown[] {
  if (Array.isArray(x)) return x;
  return typeError(proc, "vector", x);
}
function bytes(proc: string, x: unknown): Uint8Array {
  if (x instanceof Uint8Array) return x;
  return typeError(proc, "bytevector", x);
}
function byte(proc: string, x: unknown): number {
  if (typeof x === "number" && x >= 0 && x < 256) return x;
  return typeError(proc, "byte", x);
}

/** Installs vector and bytevector primitives. */
export function installVectors(t: PrimTable): void {
  def(t, "vector?", 1, 1, (x) => Array.isArray(x));
  def(t, "make-vector", 1, 2, (n, fill) => {
    const k = idx("make-vector", n);
    checkVectorLength(k);
    return new Array(k).fill(fill === undefined ? false : fill);
  });
  defv(t, "vector", 0, (xs) => {
    alloc(xs.length);
    return xs;
  });
  def(t, "vector-length", 1, 1, (v) => vec("vector-length", v).length);
  const vref = (v: unknown, k: unknown) => {
    const a = vec("vector-ref", v);
    if (typeof k !== "number" || k < 0 || k >= a.length || !Number.isInteger(k)) {
      return rangeError("vector-ref", "index", k);
    }
    return a[k];
  };
  def(t, "vector-ref", 2, 2, vref).f2 = vref;
  def(t, "vector-set!", 3, 3, (v, k, x) => {
    const a = vec("vector-set!", v);
    if (typeof k !== "number" || k < 0 || k >= a.length) {
      return rangeError("vector-set!", "index", k);
    }
    if (Object.isFrozen(a)) immutableError("vector-set!", a);
    a[k] = x;
  });
  def(t, "vector->list", 1, 3, (v, a, b) => {
    const arr = vec("vector->list", v);
    const [x, y] = range("vector->list", arr.length, a, b);
    alloc(y - x);
    let r: unknown = NIL;
    for (let i = y - 1; i >= x; i--) r = new Pair(arr[i], r);
    return r;
  });
  def(t, "list->vector", 1, 1, (l) => {
    const xs = listArg("list->vector", l);
    alloc(xs.length);
    return xs;
  });
  def(t, "vector-fill!", 2, 4, (v, fill, a, b) => {
    const arr = mutable("vector-fill!", vec("vector-fill!", v));
    const [x, y] = range("vector-fill!", arr.length, a, b);
    work(y - x);
    arr.fill(fill, x, y);
  });
  def(t, "vector-copy", 1, 3, (v, a, b) => {
    const arr = vec("vector-copy", v);
    const [x, y] = range("vector-copy", arr.length, a, b);
    alloc(y - x);
    return arr.slice(x, y);
  });
  def(t, "vector-copy!", 3, 5, (to, at, from, a, b) => {
    const dst = mutable("vector-copy!", vec("vector-copy!", to)), src = vec("vector-copy!", from);
    const [x, y] = range("vector-copy!", src.length, a, b);
    const k = idx("vector-copy!", at);
    if (k + (y - x) > dst.length) rangeError("vector-copy!", "destination index", at);
    work(y - x);
    const part = src.slice(x, y);
    for (let i = 0; i < part.length; i++) dst[k + i] = part[i];
  });
  defv(t, "vector-append", 0, (vs) => {
    let n = 0;
    for (const v of vs) n += vec("vector-append", v).length;
    checkVectorLength(n);
    return ([] as unknown[]).concat(...(vs as unknown[][]));
  });

  def(t, "bytevector?", 1, 1, (x) => x instanceof Uint8Array);
  def(t, "make-bytevector", 1, 2, (n, fill) => {
    const k = idx("make-bytevector", n);
    checkBytesLength(k);
    return new Uint8Array(k).fill(fill === undefined ? 0 : byte("make-bytevector", fill));
  });
  defv(t, "bytevector", 0, (xs) => {
    checkBytesLength(xs.length);
    return new Uint8Array(xs.map((x) => byte("bytevector", x)));
  });
  def(t, "bytevector-length", 1, 1, (b) => bytes("bytevector-length", b).length);
  def(t, "bytevector-u8-ref", 2, 2, (b, k) => {
    const a = bytes("bytevector-u8-ref", b);
    const i = idx("bytevector-u8-ref", k);
    if (i >= a.length) rangeError("bytevector-u8-ref", "index", k);
    return a[i];
  });
  def(t, "bytevector-u8-set!", 3, 3, (b, k, v) => {
    const a = mutable("bytevector-u8-set!", bytes("bytevector-u8-set!", b));
    const i = idx("bytevector-u8-set!", k);
    if (i >= a.length) rangeError("bytevector-u8-set!", "index", k);
    a[i] = byte("bytevector-u8-set!", v);
  });
  def(t, "bytevector-copy", 1, 3, (b, x, y) => {
    const a = bytes("bytevector-copy", b);
    const [s, e] = range("bytevector-copy", a.length, x, y);
    checkBytesLength(e - s);
    return a.slice(s, e);
  });
  def(t, "bytevector-copy!", 3, 5, (to, at, from, x, y) => {
    const dst = mutable("bytevector-copy!", bytes("bytevector-copy!", to));
    const src = bytes("bytevector-copy!", from);
    const [s, e] = range("bytevector-copy!", src.length, x, y);
    const k = idx("bytevector-copy!", at);
    if (k + (e - s) > dst.length) rangeError("bytevector-copy!", "destination index", at);
    dst.set(src.slice(s, e), k);
  });
  defv(t, "bytevector-append", 0, (bs) => {
    const parts = bs.map((b) => bytes("bytevector-append", b));
    const n = parts.reduce((a, p) => a + p.length, 0);
    checkBytesLength(n);
    const out = new Uint8Array(n);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  });
}
