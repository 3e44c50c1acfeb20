/**
 * Harness extensions: keywords, dicts (ordered immutable string-keyed maps), keyword-argument
 * parsing and the JSON `null` value.
 *
 * @module
 */
import {
  alloc,
  Dict,
  internKeyword,
  Keyword,
  MString,
  NIL,
  NULL,
  Pair,
  schemeError,
  Sym,
  typeError,
} from "../base/mod.ts";
import { def, defv, listArg, type PrimTable } from "./util.ts";

/** Converts a dict key argument (keyword, string or symbol) to its string form. */
export function dictKey(proc: string, k: unknown): string {
  if (k instanceof Keyword) return k.name;
  if (typeof k === "string") return k;
  if (k instanceof MString) return k.s;
  if (k instanceof Sym) return k.name;
  return typeError(proc, "keyword, string or symbol key", k);
}
function dict(proc: string, d: unknown): Dict {
  if (d instanceof Dict) return d;
  return typeError(proc, "dict", d);
}

/** Reads `key` from a dict, with optional default; raises if missing without default. */
export function dictRef(d: unknown, key: unknown, dflt?: unknown): unknown {
  const m = dict("dict-ref", d).map;
  const k = dictKey("dict-ref", key);
  if (m.has(k)) return m.get(k);
  if (dflt !== undefined) return dflt;
  throw schemeError("error", "dict-ref: key not found:", [key]);
}

/** Parses a keyword-argument rest list into a dict (see docs). */
export function keywordArgs(rest: unknown, allowed?: unknown): Dict {
  const xs = listArg("keyword-args", rest);
  let ok: Set<string> | null = null;
  if (allowed !== undefined && allowed !== false) {
    ok = new Set(listArg("keyword-args", allowed).map((k) => dictKey("keyword-args", k)));
  }
  const m = new Map<string, unknown>();
  for (let i = 0; i < xs.length; i += 2) {
    const k = xs[i];
    if (!(k instanceof Keyword)) {
      throw schemeError("error", "keyword-args: expected a keyword, got", [k]);
    }
    if (i + 1 >= xs.length) throw schemeError("error", "keyword-args: missing value for", [k]);
    if (ok && !ok.has(k.name)) throw schemeError("error", "keyword-args: unknown keyword", [k]);
    if (m.has(k.name)) throw schemeError("error", "keyword-args: duplicate keyword", [k]);
    m.set(k.name, xs[i + 1]);
  }
  return new Dict(m);
}

/** Installs dict and keyword primitives. */
export function installDict(t: PrimTable): void {
  def(t, "keyword?", 1, 1, (x) => x instanceof Keyword);
  def(
    t,
    "keyword->string",
    1,
    1,
    (k) => (k instanceof Keyword ? k.name : typeError("keyword->string", "keyword", k)),
  );
  def(t, "string->keyword", 1, 1, (s) => internKeyword(dictKey("string->keyword", s)));
  def(t, "null", 0, 0, () => NULL);
  def(t, "json-null?", 1, 1, (x) => x === NULL);
  defv(t, "dict", 0, (xs) => {
    if (xs.length % 2) throw schemeError("error", "dict: odd number of arguments");
    const m = new Map<string, unknown>();
    for (let i = 0; i < xs.length; i += 2) m.set(dictKey("dict", xs[i]), xs[i + 1]);
    alloc(m.size);
    return new Dict(m);
  });
  def(t, "dict?", 1, 1, (x) => x instanceof Dict);
  def(t, "dict-ref", 2, 3, dictRef);
  def(t, "dict-get", 2, 3, (d, k, dflt) => {
    const m = dict("dict-get", d).map;
    const key = dictKey("dict-get", k);
    return m.has(key) ? m.get(key) : dflt === undefined ? false : dflt;
  });
  def(t, "dict-has?", 2, 2, (d, k) => dict("dict-has?", d).map.has(dictKey("dict-has?", k)));
  def(t, "dict-set", 3, Infinity, (d, ...kvs: unknown[]) => {
    if (kvs.length % 2) throw schemeError("error", "dict-set: odd number of key/value arguments");
    const m = new Map(dict("dict-set", d).map);
    for (let i = 0; i < kvs.length; i += 2) m.set(dictKey("dict-set", kvs[i]), kvs[i + 1]);
    alloc(m.size);
    return new Dict(m);
  });
  def(t, "dict-remove", 2, Infinity, (d, ...ks: unknown[]) => {
    const m = new Map(dict("dict-remove", d).map);
    for (const k of ks) m.delete(dictKey("dict-remove", k));
    alloc(m.size);
    return new Dict(m);
  });
  def(t, "dict-keys", 1, 1, (d) => {
    const m = dict("dict-keys", d).map;
    alloc(m.size);
    let r: unknown = NIL;
    const ks = [...m.keys()];
    for (let i = ks.length - 1; i >= 0; i--) r = new Pair(ks[i], r);
    return r;
  });
  def(t, "dict-values", 1, 1, (d) => {
    const m = dict("dict-values", d).map;
    alloc(m.size);
    let r: unknown = NIL;
    const vs = [...m.values()];
    for (let i = vs.length - 1; i >= 0; i--) r = new Pair(vs[i], r);
    return r;
  });
  def(t, "dict->alist", 1, 1, (d) => {
    const m = dict("dict->alist", d).map;
    alloc(m.size * 2);
    let r: unknown = NIL;
    const es = [...m.entries()];
    for (let i = es.length - 1; i >= 0; i--) r = new Pair(new Pair(es[i][0], es[i][1]), r);
    return r;
  });
  def(t, "alist->dict", 1, 1, (l) => {
    const m = new Map<string, unknown>();
    for (const e of listArg("alist->dict", l)) {
      if (!(e instanceof Pair)) typeError("alist->dict", "pair", e);
      m.set(dictKey("alist->dict", (e as Pair).car), (e as Pair).cdr);
    }
    alloc(m.size);
    return new Dict(m);
  });
  def(t, "dict-count", 1, 1, (d) => dict("dict-count", d).map.size);
  defv(t, "dict-merge", 0, (ds) => {
    const m = new Map<string, unknown>();
    for (const d of ds) for (const [k, v] of dict("dict-merge", d).map) m.set(k, v);
    alloc(m.size);
    return new Dict(m);
  });
  def(t, "keyword-args", 1, 2, keywordArgs);
}
