/**
 * Walks over literals and code that stay linear on shared structure and terminate on cycles:
 * stripping macro renames out of quoted data ({@link stripAll}), freezing literal constants
 * ({@link freezeLiteral}) and reading the elements of a list of code ({@link codeItems}).
 *
 * @module
 */
import { alloc, immutableBytes, NIL, Pair, schemeError, work } from "../base/mod.ts";
import { Alias, rootSym } from "./syntax.ts";

/** True if a macro alias is reachable from `x` (each pair and vector visited once). */
function hasAlias(x: unknown): boolean {
  if (x instanceof Alias) return true;
  if (!(x instanceof Pair) && !Array.isArray(x)) return false;
  const seen = new Set<object>();
  const todo: unknown[] = [x];
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Alias) return true;
    if (v instanceof Pair) {
      if (seen.has(v)) continue;
      seen.add(v);
      todo.push(v.cdr, v.car);
    } else if (Array.isArray(v)) {
      if (seen.has(v)) continue;
      seen.add(v);
      for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
    }
    if ((seen.size & 1023) === 0) work(1024 * 64);
  }
  return false;
}

/**
 * Replaces macro aliases by their symbols throughout a datum (for `quote`). Data without aliases
 * is returned as is; otherwise the copy keeps the sharing and the cycles of the original.
 */
export function stripAll(x: unknown): unknown {
  if (x instanceof Alias) return rootSym(x);
  if (!hasAlias(x)) return x;
  const memo = new Map<object, object>();
  const todo: [unknown, (v: unknown) => void][] = [];
  let result: unknown;
  const visit = (v: unknown, set: (c: unknown) => void): void => {
    if (v instanceof Alias) return set(rootSym(v));
    if (v instanceof Pair) {
      let c = memo.get(v) as Pair | undefined;
      if (c === undefined) {
        alloc(1);
        const np = c = new Pair(undefined, undefined);
        memo.set(v, np);
        todo.push([v.cdr, (r) => (np.cdr = r)], [v.car, (r) => (np.car = r)]);
      }
      return set(c);
    }
    if (Array.isArray(v)) {
      let c = memo.get(v) as unknown[] | undefined;
      if (c === undefined) {
        alloc(v.length);
        const na: unknown[] = c = new Array(v.length);
        memo.set(v, na);
        for (let i = v.length - 1; i >= 0; i--) todo.push([v[i], (r) => (na[i] = r)]);
      }
      return set(c);
    }
    set(v);
  };
  visit(x, (r) => (result = r));
  while (todo.length) {
    const [v, set] = todo.pop()!;
    visit(v, set);
  }
  return result;
}

/**
 * Makes a literal constant immutable: its pairs and vectors are frozen (mutating them raises),
 * its bytevectors marked. Shared and cyclic structure is visited once.
 */
export function freezeLiteral<T>(x: T): T {
  if (x instanceof Uint8Array) {
    immutableBytes.add(x);
    return x;
  }
  if (!(x instanceof Pair) && !Array.isArray(x)) return x;
  const todo: unknown[] = [x];
  let n = 0;
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Pair) {
      if (Object.isFrozen(v)) continue;
      Object.freeze(v);
      todo.push(v.cdr, v.car);
    } else if (Array.isArray(v)) {
      if (Object.isFrozen(v)) continue;
      Object.freeze(v);
      for (let i = v.length - 1; i >= 0; i--) todo.push(v[i]);
    } else if (v instanceof Uint8Array) immutableBytes.add(v);
    if ((++n & 1023) === 0) work(1024 * 64);
  }
  return x;
}

/**
 * The elements of a list of code (`(f a b)`, a body, bindings…); raises a syntax error for an
 * improper or circular list (each element is visited once, and charged).
 */
export function codeItems(x: unknown, form: unknown, what = "form"): unknown[] {
  const out: unknown[] = [];
  let slow = x;
  while (x instanceof Pair) {
    out.push(x.car);
    x = x.cdr;
    if ((out.length & 1) === 0) {
      slow = (slow as Pair).cdr;
      if (slow === x && x instanceof Pair) {
        throw schemeError("syntax", `bad syntax: circular list in ${what}`);
      }
    }
  }
  if (out.length > 1024) work(out.length * 64);
  if (x !== NIL) throw schemeError("syntax", `bad syntax (improper list) in ${what}:`, [form]);
  return out;
}

/** The elements of `x` up to its first non-pair tail (null if the list is circular). */
export function spineItems(x: unknown): { items: unknown[]; tail: unknown } | null {
  const items: unknown[] = [];
  let slow = x;
  while (x instanceof Pair) {
    items.push(x.car);
    x = x.cdr;
    if ((items.length & 1) === 0) {
      slow = (slow as Pair).cdr;
      if (slow === x && x instanceof Pair) return null;
    }
  }
  if (items.length > 1024) work(items.length * 64);
  return { items, tail: x };
}
