/**
 * Hash tables for `(scheme hash-table)` (SRFI 125, with the SRFI 69 names): the table itself in
 * JS, keyed by `eq?`, `eqv?`, `equal?`, `string=?`, `string-ci=?` or `=`; any other equivalence
 * uses the program's hash function and predicate. Installed only into the library environment.
 *
 * @module
 */
import {
  alloc,
  apply,
  Char,
  Complex,
  Dict,
  Flo,
  foldCase,
  MString,
  NIL as NILV,
  Pair,
  Ratio,
  Sym,
  typeError,
  work,
} from "../base/mod.ts";
import { equal } from "./lists.ts";
import { def, type PrimTable, str } from "./util.ts";

/** The equivalences a table can be keyed by. */
export type HashKind = "eq" | "eqv" | "equal" | "string" | "string-ci" | "number" | "custom";

/** A hash table: entries in insertion order, looked up by a key derived from the equivalence. */
export class HashTable {
  /** Normalised key → [key, value] (custom tables: hash → bucket of entries). */
  readonly map: Map<unknown, [unknown, unknown]> = new Map();
  /** Creates a table. */
  constructor(
    readonly kind: HashKind,
    public mutable = true,
    readonly same: unknown = null,
    readonly hash: unknown = null,
  ) {}
}

const ids = new WeakMap<object, number>();
let nextId = 1;
function idOf(x: object): number {
  let n = ids.get(x);
  if (n === undefined) ids.set(x, n = nextId++);
  return n;
}

function eqvKey(x: unknown): unknown {
  if (x instanceof Flo) return Object.is(x.v, -0) ? "f-0" : "f" + x.v;
  if (x instanceof Ratio) return `r${x.num}/${x.den}`;
  if (x instanceof Complex) return `z${String(eqvKey(x.re))},${String(eqvKey(x.im))}`;
  return x;
}

/** A structural hash for `equal?` keys (bounded: deep or long data hash on a prefix). */
function equalHash(x: unknown, depth = 0): string {
  if (typeof x === "string") return "s" + x;
  if (x instanceof MString) return "s" + x.s;
  if (typeof x === "number" || typeof x === "bigint") return "n" + x;
  if (x instanceof Flo || x instanceof Ratio) return String(eqvKey(x));
  if (x instanceof Char) return "c" + x.code;
  if (x instanceof Sym) return "y" + x.name;
  if (typeof x === "boolean") return x ? "#t" : "#f";
  if (depth > 3) return "~";
  if (x instanceof Pair) {
    let s = "(";
    let p: unknown = x;
    for (let i = 0; i < 8 && p instanceof Pair; i++, p = p.cdr) {
      s += equalHash(p.car, depth + 1) + " ";
    }
    return s;
  }
  if (Array.isArray(x)) {
    let s = "#(" + x.length;
    for (let i = 0; i < Math.min(8, x.length); i++) s += " " + equalHash(x[i], depth + 1);
    return s;
  }
  if (x instanceof Uint8Array) return "u" + x.length + ":" + x.slice(0, 16).join(",");
  if (x instanceof Dict) return "d" + x.map.size;
  if (x !== null && typeof x === "object") return "o" + idOf(x);
  return String(x);
}

function keyOf(t: HashTable, k: unknown): unknown {
  switch (t.kind) {
    case "eq":
    case "eqv":
      return eqvKey(k);
    case "number":
      if (k instanceof Flo && Number.isInteger(k.v)) return Number.isSafeInteger(k.v) ? k.v : k.v;
      return eqvKey(k);
    case "string":
      return str("hash-table", k);
    case "string-ci":
      return foldCase(str("hash-table", k));
    case "equal":
      return equalHash(k);
    case "custom":
      return apply(t.hash, [k]);
  }
}

function ht(proc: string, x: unknown): HashTable {
  if (x instanceof HashTable) return x;
  return typeError(proc, "hash table", x);
}
function mut(proc: string, x: unknown): HashTable {
  const t = ht(proc, x);
  if (!t.mutable) typeError(proc, "mutable hash table", t);
  return t;
}

/** Finds the entry for `k`: in bucketed tables the bucket is an array of entries. */
function find(t: HashTable, k: unknown): [unknown, unknown] | undefined {
  const key = keyOf(t, k);
  if (t.kind !== "equal" && t.kind !== "custom") return t.map.get(key);
  const bucket = t.map.get(key) as unknown as [unknown, unknown][] | undefined;
  if (!bucket) return undefined;
  for (const e of bucket) {
    if (t.kind === "equal" ? equal(e[0], k) : apply(t.same, [e[0], k]) !== false) return e;
  }
  return undefined;
}

function set(t: HashTable, k: unknown, v: unknown): void {
  const e = find(t, k);
  if (e) {
    e[1] = v;
    return;
  }
  alloc(4);
  const key = keyOf(t, k);
  if (t.kind !== "equal" && t.kind !== "custom") {
    t.map.set(key, [k, v]);
    return;
  }
  const bucket = t.map.get(key) as unknown as [unknown, unknown][] | undefined;
  if (bucket) bucket.push([k, v]);
  else t.map.set(key, [[k, v]] as unknown as [unknown, unknown]);
}

function del(t: HashTable, k: unknown): boolean {
  const key = keyOf(t, k);
  if (t.kind !== "equal" && t.kind !== "custom") return t.map.delete(key);
  const bucket = t.map.get(key) as unknown as [unknown, unknown][] | undefined;
  if (!bucket) return false;
  const i = bucket.findIndex((e) =>
    t.kind === "equal" ? equal(e[0], k) : apply(t.same, [e[0], k]) !== false
  );
  if (i < 0) return false;
  bucket.splice(i, 1);
  if (bucket.length === 0) t.map.delete(key);
  return true;
}

/** All entries, in insertion order. */
function entries(t: HashTable): [unknown, unknown][] {
  work(t.map.size * 64);
  if (t.kind !== "equal" && t.kind !== "custom") return [...t.map.values()];
  const out: [unknown, unknown][] = [];
  for (const b of t.map.values()) for (const e of b as unknown as [unknown, unknown][]) out.push(e);
  return out;
}

function toList(xs: unknown[]): unknown {
  alloc(xs.length);
  let r: unknown = NILV;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}

/** Marker returned by `%ht-ref` for a missing key. */
export const MISSING: unique symbol = Symbol("missing");

/** The public names installHashTables defines. */
export const HASH_TABLE_NAMES: readonly string[] = [
  "hash-table?",
  "hash-table-mutable?",
  "hash-table-contains?",
  "hash-table-exists?",
  "hash-table-size",
  "hash-table-keys",
  "hash-table-values",
  "hash-table->alist",
  "hash-table-clear!",
  "string-hash",
  "string-ci-hash",
  "equal-hash",
  "hash",
  "eqv-hash",
  "eq-hash",
  "hash-by-identity",
];

/** Installs the hash-table primitives used by the `(scheme hash-table)` library source. */
export function installHashTables(t: PrimTable): void {
  def(
    t,
    "%make-hash-table",
    1,
    4,
    (kind: Sym, mutable, same, hash) =>
      new HashTable(kind.name as HashKind, mutable !== false, same ?? null, hash ?? null),
  );
  def(t, "hash-table?", 1, 1, (x) => x instanceof HashTable);
  def(t, "hash-table-mutable?", 1, 1, (x) => ht("hash-table-mutable?", x).mutable);
  def(t, "%ht-ref", 2, 2, (x, k) => {
    const e = find(ht("hash-table-ref", x), k);
    return e ? e[1] : MISSING;
  });
  def(t, "%ht-missing?", 1, 1, (x) => x === MISSING);
  def(
    t,
    "hash-table-contains?",
    2,
    2,
    (x, k) => find(ht("hash-table-contains?", x), k) !== undefined,
  );
  def(t, "hash-table-exists?", 2, 2, (x, k) => find(ht("hash-table-exists?", x), k) !== undefined);
  def(t, "%ht-set!", 3, 3, (x, k, v) => set(mut("hash-table-set!", x), k, v));
  def(t, "%ht-delete!", 2, 2, (x, k) => (del(mut("hash-table-delete!", x), k) ? 1 : 0));
  def(t, "hash-table-size", 1, 1, (x) => entries(ht("hash-table-size", x)).length);
  def(
    t,
    "hash-table-keys",
    1,
    1,
    (x) => toList(entries(ht("hash-table-keys", x)).map((e) => e[0])),
  );
  def(
    t,
    "hash-table-values",
    1,
    1,
    (x) => toList(entries(ht("hash-table-values", x)).map((e) => e[1])),
  );
  def(
    t,
    "hash-table->alist",
    1,
    1,
    (x) => toList(entries(ht("hash-table->alist", x)).map((e) => new Pair(e[0], e[1]))),
  );
  def(t, "hash-table-clear!", 1, 1, (x) => void mut("hash-table-clear!", x).map.clear());
  def(t, "%ht-copy", 2, 2, (x, mutable) => {
    const src = ht("hash-table-copy", x);
    const c = new HashTable(src.kind, mutable !== false, src.same, src.hash);
    for (const [k, v] of entries(src)) set(c, k, v);
    return c;
  });
  def(t, "%ht-empty-copy", 1, 1, (x) => {
    const src = ht("hash-table-empty-copy", x);
    return new HashTable(src.kind, true, src.same, src.hash);
  });
  def(t, "%ht-kind", 1, 1, (x) => ht("hash-table", x).kind);
  const strHash = (s: unknown, ci: boolean) => {
    const v = ci ? foldCase(str("string-hash", s)) : str("string-hash", s);
    let h = 0;
    for (let i = 0; i < v.length; i++) h = (Math.imul(h, 31) + v.charCodeAt(i)) >>> 0;
    return h & 0x3fffffff;
  };
  def(t, "string-hash", 1, 2, (s) => strHash(s, false));
  def(t, "string-ci-hash", 1, 2, (s) => strHash(s, true));
  const hashOf = (x: unknown) => {
    const s = equalHash(x);
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) >>> 0;
    return h & 0x3fffffff;
  };
  def(t, "equal-hash", 1, 2, hashOf);
  def(t, "hash", 1, 2, hashOf);
  def(t, "eqv-hash", 1, 2, (x) => hashOf(eqvKey(x)));
  def(t, "eq-hash", 1, 2, (x) => hashOf(eqvKey(x)));
  def(t, "hash-by-identity", 1, 2, (x) => hashOf(eqvKey(x)));
}
