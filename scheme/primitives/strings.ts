/**
 * Characters and strings (R7RS 6.6, 6.7), Unicode-aware (indices are code points).
 *
 * @module
 */
import {
  alloc,
  Char,
  char,
  checkBytesLength,
  checkStringLength,
  foldCase,
  MString,
  NIL,
  Pair,
  rangeError,
  typeError,
  work,
} from "../base/mod.ts";
import {
  chr,
  codePoints,
  def,
  defv,
  idx,
  isSimple,
  listArg,
  type PrimTable,
  range,
  str,
} from "./util.ts";

function cps(s: string): number[] | string {
  work(s.length);
  return isSimple(s) ? s : codePoints(s);
}
/** Length of a string in code points. */
export function strLength(s: string): number {
  return isSimple(s) ? s.length : codePoints(s).length;
}
/** Checks the length of a string a primitive produced (and charges it). */
function made(s: string): string {
  checkStringLength(s.length);
  return s;
}
/** Number of bytes of the UTF-8 encoding of `s`. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return n;
}
/** Substring by code-point indices. */
export function substr(s: string, start: number, end: number): string {
  if (isSimple(s)) return s.slice(start, end);
  return String.fromCodePoint(...codePoints(s).slice(start, end));
}
function fromCps(a: number[]): string {
  let out = "";
  for (let i = 0; i < a.length; i += 4096) out += String.fromCodePoint(...a.slice(i, i + 4096));
  return out;
}

const ch = (c: Char) => String.fromCodePoint(c.code);

function charCmp(name: string, ci: boolean, ok: (a: number, b: number) => boolean) {
  return (...xs: unknown[]) => {
    const cs = xs.map((x) => {
      const c = chr(name, x).code;
      return ci ? foldCase(String.fromCodePoint(c)).codePointAt(0)! : c;
    });
    for (let i = 0; i + 1 < cs.length; i++) if (!ok(cs[i], cs[i + 1])) return false;
    return true;
  };
}
function strCmp(name: string, ci: boolean, ok: (c: number) => boolean) {
  return (...xs: unknown[]) => {
    const ss = xs.map((x) => (ci ? foldCase(str(name, x)) : str(name, x)));
    for (let i = 0; i + 1 < ss.length; i++) {
      const a = ss[i], b = ss[i + 1];
      if (!ok(a < b ? -1 : a > b ? 1 : 0)) return false;
    }
    return true;
  };
}

function mstr(proc: string, x: unknown): MString {
  if (x instanceof MString) return x;
  return typeError(proc, "mutable string", x);
}

/** Installs character and string primitives. */
export function installStrings(t: PrimTable): void {
  def(t, "char->integer", 1, 1, (c) => chr("char->integer", c).code);
  def(t, "integer->char", 1, 1, (n) => {
    const k = idx("integer->char", n);
    if (k > 0x10ffff || (k >= 0xd800 && k <= 0xdfff)) rangeError("integer->char", "code point", n);
    return char(k);
  });
  const cmps: [string, (a: number, b: number) => boolean][] = [
    ["=", (a, b) => a === b],
    ["<", (a, b) => a < b],
    [">", (a, b) => a > b],
    ["<=", (a, b) => a <= b],
    [">=", (a, b) => a >= b],
  ];
  for (const [op, f] of cmps) {
    def(t, `char${op}?`, 1, Infinity, charCmp(`char${op}?`, false, f));
    def(t, `char-ci${op}?`, 1, Infinity, charCmp(`char-ci${op}?`, true, f));
    def(t, `string${op}?`, 1, Infinity, strCmp(`string${op}?`, false, (c) => f(c, 0)));
    def(t, `string-ci${op}?`, 1, Infinity, strCmp(`string-ci${op}?`, true, (c) => f(c, 0)));
  }
  def(t, "char-alphabetic?", 1, 1, (c) => /\p{Alphabetic}/u.test(ch(chr("char-alphabetic?", c))));
  def(t, "char-numeric?", 1, 1, (c) => /\p{Nd}/u.test(ch(chr("char-numeric?", c))));
  def(t, "char-whitespace?", 1, 1, (c) => /\s/u.test(ch(chr("char-whitespace?", c))));
  def(t, "char-upper-case?", 1, 1, (c) => /\p{Uppercase}/u.test(ch(chr("char-upper-case?", c))));
  def(t, "char-lower-case?", 1, 1, (c) => /\p{Lowercase}/u.test(ch(chr("char-lower-case?", c))));
  def(t, "digit-value", 1, 1, (c) => {
    const s = ch(chr("digit-value", c));
    if (!/\p{Nd}/u.test(s)) return false;
    const code = s.codePointAt(0)!;
    let z = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(z - 1))) z--;
    return (code - z) % 10;
  });
  const single = (
    s: string,
    c: Char,
  ) => (s.length && [...s].length === 1 ? char(s.codePointAt(0)!) : c);
  def(t, "char-upcase", 1, 1, (c) => single(ch(chr("char-upcase", c)).toUpperCase(), c as Char));
  def(
    t,
    "char-downcase",
    1,
    1,
    (c) => single(ch(chr("char-downcase", c)).toLowerCase(), c as Char),
  );
  def(t, "char-foldcase", 1, 1, (c) => single(foldCase(ch(chr("char-foldcase", c))), c as Char));

  def(t, "string?", 1, 1, (x) => typeof x === "string" || x instanceof MString);
  def(t, "make-string", 1, 2, (n, c) => {
    const k = idx("make-string", n);
    checkStringLength(k);
    return new MString((c === undefined ? " " : ch(chr("make-string", c))).repeat(k));
  });
  defv(t, "string", 0, (cs) => {
    checkStringLength(cs.length);
    return new MString(cs.map((c) => ch(chr("string", c))).join(""));
  });
  def(t, "string-length", 1, 1, (s) => {
    const v = str("string-length", s);
    work(v.length);
    return strLength(v);
  });
  def(t, "string-ref", 2, 2, (s, k) => {
    const v = str("string-ref", s);
    const i = idx("string-ref", k);
    const a = cps(v);
    if (i >= a.length) rangeError("string-ref", "index", k);
    return char(typeof a === "string" ? a.charCodeAt(i) : a[i]);
  });
  def(t, "string-set!", 3, 3, (s, k, c) => {
    const m = mstr("string-set!", s);
    work(m.s.length);
    const i = idx("string-set!", k);
    const a = codePoints(m.s);
    if (i >= a.length) rangeError("string-set!", "index", k);
    a[i] = chr("string-set!", c).code;
    m.s = fromCps(a);
  });
  def(t, "substring", 2, 3, (s, a, b) => {
    const v = str("substring", s);
    work(v.length);
    const [x, y] = range("substring", strLength(v), a, b);
    checkStringLength(y - x);
    return substr(v, x, y);
  });
  defv(t, "string-append", 0, (ss) => {
    const parts = ss.map((s) => str("string-append", s));
    let n = 0;
    for (const p of parts) n += p.length;
    checkStringLength(n);
    return parts.join("");
  });
  def(t, "string->list", 1, 3, (s, a, b) => {
    const v = str("string->list", s);
    const arr = codePoints(v);
    const [x, y] = range("string->list", arr.length, a, b);
    alloc(y - x);
    let r: unknown = NIL;
    for (let i = y - 1; i >= x; i--) r = new Pair(char(arr[i]), r);
    return r;
  });
  def(t, "list->string", 1, 1, (l) => {
    const xs = listArg("list->string", l);
    checkStringLength(xs.length);
    return new MString(fromCps(xs.map((c) => chr("list->string", c).code)));
  });
  def(t, "string-copy", 1, 3, (s, a, b) => {
    const v = str("string-copy", s);
    work(v.length);
    const [x, y] = range("string-copy", strLength(v), a, b);
    checkStringLength(y - x);
    return new MString(substr(v, x, y));
  });
  def(t, "string-copy!", 3, 5, (to, at, from, a, b) => {
    const m = mstr("string-copy!", to);
    work(m.s.length);
    const dst = codePoints(m.s);
    const src = codePoints(str("string-copy!", from));
    const [x, y] = range("string-copy!", src.length, a, b);
    const k = idx("string-copy!", at);
    if (k + (y - x) > dst.length) rangeError("string-copy!", "destination", at);
    const part = src.slice(x, y);
    for (let i = 0; i < part.length; i++) dst[k + i] = part[i];
    m.s = fromCps(dst);
  });
  def(t, "string-fill!", 2, 4, (s, c, a, b) => {
    const m = mstr("string-fill!", s);
    work(m.s.length);
    const arr = codePoints(m.s);
    const [x, y] = range("string-fill!", arr.length, a, b);
    const code = chr("string-fill!", c).code;
    for (let i = x; i < y; i++) arr[i] = code;
    m.s = fromCps(arr);
  });
  const cased = (name: string, f: (s: string) => string) => (s: unknown) => {
    const v = str(name, s);
    work(v.length);
    return made(f(v));
  };
  def(t, "string-upcase", 1, 1, cased("string-upcase", (s) => s.toUpperCase()));
  def(t, "string-downcase", 1, 1, cased("string-downcase", (s) => s.toLowerCase()));
  def(t, "string-foldcase", 1, 1, cased("string-foldcase", foldCase));
  def(t, "string->vector", 1, 3, (s, a, b) => {
    const arr = codePoints(str("string->vector", s));
    const [x, y] = range("string->vector", arr.length, a, b);
    alloc(y - x);
    return arr.slice(x, y).map(char);
  });
  def(t, "vector->string", 1, 3, (v, a, b) => {
    if (!Array.isArray(v)) return typeError("vector->string", "vector", v);
    const [x, y] = range("vector->string", v.length, a, b);
    checkStringLength(y - x);
    return fromCps(v.slice(x, y).map((c) => chr("vector->string", c).code));
  });
  def(t, "string->utf8", 1, 3, (s, a, b) => {
    const v = str("string->utf8", s);
    const [x, y] = range("string->utf8", strLength(v), a, b);
    const part = substr(v, x, y);
    work(part.length);
    checkBytesLength(utf8Length(part));
    return new TextEncoder().encode(part);
  });
  def(t, "utf8->string", 1, 3, (bv, a, b) => {
    if (!(bv instanceof Uint8Array)) return typeError("utf8->string", "bytevector", bv);
    const [x, y] = range("utf8->string", bv.length, a, b);
    checkStringLength(y - x);
    return new TextDecoder().decode(bv.subarray(x, y));
  });
  def(t, "string-join", 1, 2, (l, sep) => {
    const parts = listArg("string-join", l).map((s) => str("string-join", s));
    const d = sep === undefined ? " " : str("string-join", sep);
    let n = d.length * Math.max(0, parts.length - 1);
    for (const p of parts) n += p.length;
    checkStringLength(n);
    return parts.join(d);
  });
  def(t, "string-index", 2, 2, (s, c) => {
    const v = str("string-index", s);
    const code = chr("string-index", c).code;
    work(v.length);
    if (isSimple(v)) {
      const i = code > 0xffff ? -1 : v.indexOf(String.fromCharCode(code));
      return i < 0 ? false : i;
    }
    const i = codePoints(v).indexOf(code);
    return i < 0 ? false : i;
  });
  def(t, "string-contains", 2, 2, (s, sub) => {
    const v = str("string-contains", s), w = str("string-contains", sub);
    // indexOf is linear in practice but may compare the needle at each position
    work(v.length + Math.min(v.length * w.length, 1e9) / 8);
    const i = v.indexOf(w);
    return i < 0 ? false : strLength(v.slice(0, i));
  });
  def(t, "string-split", 2, 2, (s, sep) => {
    const v = str("string-split", s);
    const d = sep instanceof Char ? ch(sep) : str("string-split", sep);
    work(v.length);
    const parts = v.split(d);
    alloc(parts.length);
    let r: unknown = NIL;
    for (let i = parts.length - 1; i >= 0; i--) r = new Pair(parts[i], r);
    return r;
  });
}
