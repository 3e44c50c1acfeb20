/**
 * The literal syntax of numbers: parsing numeric literals (prefixes `#x #e …`, rationals,
 * decimals, `+inf.0`, complex forms `1+2i` and `1@0.5`) and writing numbers back
 * (`number->string`).
 *
 * @module
 */
import { Complex, Flo, Ratio } from "./types.ts";
import { work } from "./state.ts";
import {
  chargeBigIntegers as chargeBig,
  checkIntegerBits as checkBits,
  exact,
  inexact,
  isExact,
  isZero,
  makeRatio,
  normBig,
  type Num,
  type Real,
} from "./numbers.ts";
import { makePolar } from "./number_functions.ts";

/** Parses a numeric literal (with optional #x/#e/... prefixes). Returns null if not a number. */
export function parseNumber(s: string, radix = 10): Num | null {
  // the common case first: a short decimal integer (what the general path below gives for it,
  // without building a BigInt or compiling a regular expression at start-up)
  if (radix === 10 && s.length > 0 && s.length <= 15) {
    let i = 0;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === s.length) return Number(s);
  }
  let exactness: "e" | "i" | null = null;
  while (s.length >= 2 && s[0] === "#") {
    const c = s[1].toLowerCase();
    if (c === "x") radix = 16;
    else if (c === "b") radix = 2;
    else if (c === "o") radix = 8;
    else if (c === "d") radix = 10;
    else if (c === "e" || c === "i") {
      if (exactness) return null;
      exactness = c;
    } else return null;
    s = s.slice(2);
  }
  const v = parseReal(s, radix) ??
    parseComplex(s, (t) => parseReal(t, radix) as Real | null);
  if (v === null) return null;
  if (exactness === "e") {
    if (v instanceof Complex) return exact(v);
    return v instanceof Flo ? (Number.isFinite(v.v) ? exact(v) : null) : v;
  }
  if (exactness === "i") return inexact(v);
  return v;
}

const DIGITS: Record<number, RegExp> = {
  2: /^[01]+$/,
  8: /^[0-7]+$/,
  10: /^[0-9]+$/,
  16: /^[0-9a-fA-F]+$/,
};
const PREFIX: Record<number, string> = { 2: "0b", 8: "0o", 10: "", 16: "0x" };

function parseUInt(s: string, radix: number): bigint | null {
  if (!DIGITS[radix]?.test(s)) return null;
  checkBits(s.length * 4);
  if (s.length <= 15) return BigInt(PREFIX[radix] + s);
  work(s.length);
  const r = BigInt(PREFIX[radix] + s);
  chargeBig(r);
  return r;
}

function parseReal(s: string, radix: number): Num | null {
  const lower = s.toLowerCase();
  if (lower === "+inf.0") return new Flo(Infinity);
  if (lower === "-inf.0") return new Flo(-Infinity);
  if (lower === "+nan.0" || lower === "-nan.0") return new Flo(NaN);
  let sgn = 1n;
  let body = s;
  if (body[0] === "+" || body[0] === "-") {
    if (body[0] === "-") sgn = -1n;
    body = body.slice(1);
  }
  if (body.length === 0) return null;
  const slash = body.indexOf("/");
  if (slash >= 0) {
    const n = parseUInt(body.slice(0, slash), radix), d = parseUInt(body.slice(slash + 1), radix);
    if (n === null || d === null) return null;
    if (d === 0n) return null;
    return makeRatio(sgn * n, d);
  }
  const i = parseUInt(body, radix);
  if (i !== null) return normBig(sgn * i);
  if (radix !== 10) return null;
  if (!/^(\d+\.?\d*|\.\d+)([esfdl][+-]?\d+)?$/i.test(body)) return null;
  const v = Number(body.replace(/[sfdl]/i, "e"));
  return new Flo(sgn < 0n ? -v : v);
}

/** Formats a double the Scheme way (`1.0`, `+inf.0`, `-nan.0`...). */
export function floToString(v: number): string {
  if (Number.isNaN(v)) return "+nan.0";
  if (v === Infinity) return "+inf.0";
  if (v === -Infinity) return "-inf.0";
  if (Object.is(v, -0)) return "-0.0";
  const s = String(v);
  if (s.includes("e") && !s.includes(".")) return s.replace("e", ".0e");
  if (/[.e]/.test(s)) return s;
  return s + ".0";
}

/** number->string. */
export function numberToString(x: Num, radix = 10): string {
  if (typeof x === "number") return x.toString(radix);
  if (x instanceof Complex) return complexToString(x, radix);
  if (typeof x === "bigint") {
    const s = x.toString(radix);
    chargeBig(x);
    return s;
  }
  if (x instanceof Ratio) {
    const s = `${x.num.toString(radix)}/${x.den.toString(radix)}`;
    chargeBig(x.num, x.den);
    return s;
  }
  if (radix !== 10) {
    if (Number.isInteger(x.v)) return x.v.toString(radix) + ".";
    return x.v.toString(radix);
  }
  return floToString(x.v);
}

/** Writes a complex number: `1+2i`, `-i`, `1.5-0.5i` (exact zero real parts are left out). */
export function complexToString(z: Complex, radix: number): string {
  const re = z.re === 0 ? "" : numberToString(z.re, radix);
  let im = numberToString(z.im, radix);
  if (im === "1") im = "";
  else if (im === "-1") im = "-";
  if (!/^[+-]/.test(im)) im = "+" + im;
  return `${re}${im}i`;
}

/**
 * Parses the complex forms of a numeric literal (after its prefixes): `a+bi`, `a-bi`, `+bi`,
 * `+i`, `a@b`; `parseReal` parses the real parts. Null if `s` is not one.
 */
export function parseComplex(s: string, parseReal: (s: string) => Real | null): Num | null {
  const at = s.indexOf("@");
  if (at > 0) {
    const m = parseReal(s.slice(0, at)), a = parseReal(s.slice(at + 1));
    return m === null || a === null ? null : makePolar(m, a);
  }
  const last = s[s.length - 1];
  if (last !== "i" && last !== "I") return null;
  const body = s.slice(0, -1);
  // the sign that starts the imaginary part: the last + or - not in an exponent
  let k = -1;
  for (let i = body.length - 1; i >= 0; i--) {
    const c = body[i];
    if (
      (c === "+" || c === "-") &&
      !(i > 0 && /[eE]/.test(body[i - 1]) && /[0-9.]/.test(body[i - 2] ?? ""))
    ) {
      k = i;
      break;
    }
  }
  if (k < 0) return null;
  const reText = body.slice(0, k), imText = body.slice(k);
  const im = imText === "+" ? 1 : imText === "-" ? -1 : parseReal(imText);
  const re = reText === "" ? 0 : parseReal(reText);
  if (re === null || im === null) return null;
  if (isExact(im) && isZero(im)) return re;
  return new Complex(re, im);
}
