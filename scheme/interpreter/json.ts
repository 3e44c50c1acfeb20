/**
 * The JSON ↔ Scheme mapping.
 *
 * | JSON          | Scheme                                   |
 * |---------------|------------------------------------------|
 * | object        | dict (keys in insertion order)           |
 * | array         | vector                                   |
 * | string        | string                                   |
 * | integer       | exact integer                            |
 * | other number  | inexact real                             |
 * | true / false  | `#t` / `#f`                              |
 * | null          | `null` (the distinct JSON-null value)    |
 *
 * `fromJson(toJson(x))` is `equal?` to `x` for every value built from this table; `toJson` of
 * `fromJson(j)` is deep-equal to `j`. Inexact reals with integral values (e.g. `2.0`) become
 * JSON `2`, which reads back as the exact integer 2. Keywords convert to strings. Anything
 * else (lists, symbols, chars, procedures, non-finite numbers) raises a type error.
 *
 * @module
 */
import {
  Char,
  Dict,
  Flo,
  Keyword,
  MString,
  NIL,
  NULL,
  Pair,
  Ratio,
  Sym,
  toFloat,
  typeError,
} from "../base/mod.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Converts a Scheme value to JSON (see module docs). */
export function toJson(x: unknown, depth = 0): Json {
  if (depth > 1000) typeError("toJson", "JSON value nested less than 1000 deep", "<deep>");
  if (x === NULL) return null;
  if (typeof x === "boolean" || typeof x === "string") return x;
  if (typeof x === "number") return x;
  if (typeof x === "bigint") return Number(x);
  if (x instanceof MString) return x.s;
  if (x instanceof Keyword) return x.name;
  if (x instanceof Flo || x instanceof Ratio) {
    const v = toFloat(x);
    if (!Number.isFinite(v)) typeError("toJson", "finite number", x);
    return v;
  }
  if (Array.isArray(x)) return x.map((e) => toJson(e, depth + 1));
  if (x instanceof Dict) {
    const o: { [k: string]: Json } = {};
    for (const [k, v] of x.map) o[k] = toJson(v, depth + 1);
    return o;
  }
  return typeError(
    "toJson",
    "JSON-representable value (dict, vector, string, number, boolean, null)",
    x,
  );
}

/** Converts a JSON value (as produced by `JSON.parse`) to Scheme. */
export function fromJson(j: unknown): unknown {
  if (j === null) return NULL;
  if (typeof j === "boolean" || typeof j === "string") return j;
  if (typeof j === "number") {
    if (Number.isSafeInteger(j)) return j;
    if (Number.isInteger(j)) return BigInt(j);
    return new Flo(j);
  }
  if (Array.isArray(j)) return j.map(fromJson);
  if (typeof j === "object") {
    const m = new Map<string, unknown>();
    for (const [k, v] of Object.entries(j as object)) m.set(k, fromJson(v));
    return new Dict(m);
  }
  return typeError("fromJson", "JSON value", String(j));
}

/**
 * Converts a Scheme value to a plain JS value for host convenience (lossy): numbers → number
 * (BigInt stays BigInt), strings → string, symbols → string, keywords → `":name"`, lists and
 * vectors → arrays, dicts → plain objects, JSON null → null, booleans → booleans,
 * unspecified → undefined; anything else (procedures, records, chars...) is returned as is.
 */
export function toJS(x: unknown, depth = 0): unknown {
  if (depth > 1000) return x;
  if (x === NULL) return null;
  if (
    typeof x === "number" || typeof x === "bigint" || typeof x === "boolean" ||
    typeof x === "string"
  ) return x;
  if (x === undefined) return undefined;
  if (x instanceof MString) return x.s;
  if (x instanceof Sym) return x.name;
  if (x instanceof Keyword) return ":" + x.name;
  if (x instanceof Flo || x instanceof Ratio) return toFloat(x);
  if (x instanceof Char) return String.fromCodePoint(x.code);
  if (Array.isArray(x)) return x.map((e) => toJS(e, depth + 1));
  if (x === NIL || x instanceof Pair) {
    const out: unknown[] = [];
    let p: unknown = x;
    while (p instanceof Pair && out.length < 10_000_000) {
      out.push(toJS(p.car, depth + 1));
      p = p.cdr;
    }
    return out;
  }
  if (x instanceof Dict) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of x.map) o[k] = toJS(v, depth + 1);
    return o;
  }
  return x;
}

/**
 * Converts a plain JS value to Scheme for host convenience: like {@link fromJson}, plus
 * `undefined` → unspecified, BigInt → exact integer, `Map` → dict, `Uint8Array` → bytevector;
 * other objects (e.g. Scheme values already) are passed through unchanged.
 */
export function fromJS(x: unknown, depth = 0): unknown {
  if (depth > 1000) return x;
  if (x === null) return NULL;
  if (x === undefined || typeof x === "boolean" || typeof x === "string" || typeof x === "bigint") {
    return x;
  }
  if (typeof x === "number") {
    return Number.isSafeInteger(x) ? x : Number.isInteger(x) ? BigInt(x) : new Flo(x);
  }
  if (Array.isArray(x)) return x.map((e) => fromJS(e, depth + 1));
  if (x instanceof Map) {
    const m = new Map<string, unknown>();
    for (const [k, v] of x) m.set(String(k), fromJS(v, depth + 1));
    return new Dict(m);
  }
  if (typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
    const m = new Map<string, unknown>();
    for (const [k, v] of Object.entries(x as object)) m.set(k, fromJS(v, depth + 1));
    return new Dict(m);
  }
  return x;
}
