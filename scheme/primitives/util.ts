/**
 * Helpers for defining primitives: a registry and argument checkers.
 *
 * @module
 */
import {
  Char,
  isImmutable,
  isString,
  MString,
  NIL,
  Pair,
  Prim,
  schemeError,
  Sym,
  typeError,
  work,
} from "../base/mod.ts";

/** Where primitives are defined, by Scheme name (a Map, or an environment being built). */
export type PrimTable = { set(name: string, p: Prim): unknown };

/** Defines a primitive in `t`. */
export function def(
  t: PrimTable,
  name: string,
  min: number,
  max: number,
  // deno-lint-ignore no-explicit-any
  fn: (...args: any[]) => unknown,
): Prim {
  const p = new Prim(name, fn, min, max);
  t.set(name, p);
  return p;
}

/**
 * Defines a variadic primitive from a function of the argument array (calls with very many
 * arguments, e.g. through `apply`, need no JS spread).
 */
export function defv(
  t: PrimTable,
  name: string,
  min: number,
  fa: (args: unknown[]) => unknown,
): Prim {
  const p = new Prim(name, (...xs: unknown[]) => fa(xs), min, Infinity);
  p.fa = (args) => {
    if (args.length < min) {
      throw schemeError("arity", `${name}: wrong number of arguments (${args.length})`);
    }
    return fa(args);
  };
  t.set(name, p);
  return p;
}

/** Raises the error for mutating a literal constant. */
export function immutableError(proc: string, x: unknown): never {
  throw schemeError("type", `${proc}: cannot mutate an immutable literal constant`, [x]);
}
/** Checks for a pair that may be mutated (not part of a literal). */
export function mutablePair(proc: string, x: unknown): Pair {
  if (!(x instanceof Pair)) return typeError(proc, "pair", x);
  if (Object.isFrozen(x)) immutableError(proc, x);
  return x;
}
/** Checks that a vector or bytevector may be mutated (not a literal). */
export function mutable<T extends object>(proc: string, x: T): T {
  if (isImmutable(x)) immutableError(proc, x);
  return x;
}

/** Checks for a string and returns its JS contents. */
export function str(proc: string, x: unknown): string {
  if (typeof x === "string") return x;
  if (x instanceof MString) return x.s;
  return typeError(proc, "string", x);
}
/** Checks for a character. */
export function chr(proc: string, x: unknown): Char {
  if (x instanceof Char) return x;
  return typeError(proc, "character", x);
}
/** Checks for a symbol. */
export function symb(proc: string, x: unknown): Sym {
  if (x instanceof Sym) return x;
  return typeError(proc, "symbol", x);
}
/** Checks for a pair. */
export function pair(proc: string, x: unknown): Pair {
  if (x instanceof Pair) return x;
  return typeError(proc, "pair", x);
}
/** Checks for a non-negative exact integer index. */
export function idx(proc: string, x: unknown): number {
  if (typeof x === "number" && x >= 0) return x;
  return typeError(proc, "non-negative exact integer", x);
}
/** Checks for a proper list and returns its elements. */
export function listArg(proc: string, x: unknown): unknown[] {
  const out: unknown[] = [];
  let slow = x;
  while (x instanceof Pair) {
    out.push(x.car);
    x = x.cdr;
    if ((out.length & 1) === 0) {
      slow = (slow as Pair).cdr;
      if (slow === x) return typeError(proc, "proper list", "<cyclic list>");
    }
  }
  if (x !== NIL) return typeError(proc, "proper list", x);
  work(out.length);
  return out;
}
/** Resolves optional [start, end) arguments against a length. */
export function range(proc: string, len: number, start: unknown, end: unknown): [number, number] {
  const s = start === undefined ? 0 : idx(proc, start);
  const e = end === undefined ? len : idx(proc, end);
  if (s > e || e > len) typeError(proc, `valid range within 0..${len}`, new Pair(s, e));
  return [s, e];
}
/** Code points of a string. */
export function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}
/** True if a JS string has only BMP non-surrogate code units (index = code point). */
export function isSimple(s: string): boolean {
  return !/[\uD800-\uDFFF]/.test(s);
}
/** Re-export for primitives. */
export { isString };
