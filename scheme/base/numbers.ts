/**
 * The numeric tower: exact integers (JS safe integers, else BigInt), exact rationals,
 * inexact reals ({@link Flo}) and complex numbers ({@link Complex}), in one module since
 * each level of the tower is built with the others.
 *
 * @module
 */
import { Complex, Flo, Ratio } from "./types.ts";
import { SchemeLimitError, typeError } from "./errors.ts";
import { checkDeadline, work } from "./runtime.ts";

/** Any Scheme number. */
export type Num = number | bigint | Ratio | Flo | Complex;

const MAX = Number.MAX_SAFE_INTEGER;

/** True if `x` is a Scheme number. */
export function isNumber(x: unknown): x is Num {
  return typeof x === "number" || typeof x === "bigint" || x instanceof Flo || x instanceof Ratio ||
    x instanceof Complex;
}
/** True for real numbers (every number but a non-real complex). */
export function isReal(x: unknown): boolean {
  return isNumber(x) && !(x instanceof Complex);
}
/** True for exact integers. */
export function isExactInteger(x: unknown): x is number | bigint {
  return typeof x === "number" || typeof x === "bigint";
}
/** True for exact numbers. */
export function isExact(x: Num): boolean {
  if (x instanceof Complex) return !(x.re instanceof Flo) && !(x.im instanceof Flo);
  return !(x instanceof Flo);
}
/** True for integers (exact or inexact). */
export function isInteger(x: unknown): boolean {
  return typeof x === "number" || typeof x === "bigint" ||
    (x instanceof Flo && Number.isInteger(x.v));
}
/** True for rationals (finite numbers). */
export function isRational(x: unknown): boolean {
  return isNumber(x) && !(x instanceof Complex) && (!(x instanceof Flo) || Number.isFinite(x.v));
}

/** Normalises a BigInt to a JS number when it is a safe integer. */
export function normBig(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

function big(x: number | bigint): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}
const BIG = 1n << 2048n;
/** True for integers big enough that one operation on them is worth charging. */
function isBig(x: bigint): boolean {
  return x > BIG || x < -BIG;
}
/**
 * Charges the work of an operation on big integers (about n·log n in their size in words, as the
 * engine multiplies and divides large numbers in near-linear time) and checks the deadline by the
 * clock, since one such operation can take milliseconds.
 */
function chargeBig(...xs: bigint[]): void {
  let words = 0;
  for (const x of xs) if (isBig(x)) words += bits(x) >> 6;
  if (words === 0) return;
  work(words * Math.ceil(Math.log2(words + 2)) * 64);
  checkDeadline();
}
function bgcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  let i = 0;
  const big = isBig(a) || isBig(b);
  while (b !== 0n) {
    [a, b] = [b, a % b];
    // Euclid on huge integers can take long: charge it and honour the evaluation deadline
    if (big && (++i & 63) === 0) chargeBig(a, b);
  }
  return a;
}

/** Builds a normalised exact rational n/d. */
export function makeRatio(n: bigint, d: bigint): Num {
  if (d === 0n) throw typeError("/", "non-zero divisor", 0);
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = bgcd(n, d);
  if (g !== 1n) {
    n /= g;
    d /= g;
  }
  return d === 1n ? normBig(n) : new Ratio(n, d);
}

/** Converts any number to a JS double. */
export function toFloat(x: Num): number {
  if (typeof x === "number") return x;
  if (x instanceof Complex) typeError("inexact", "real number", x);
  if (x instanceof Flo) return x.v;
  if (typeof x === "bigint") return Number(x);
  return ratioToFloat(x);
}
function ratioToFloat(r: Ratio): number {
  const n = Number(r.num), d = Number(r.den);
  if (Number.isFinite(n) && Number.isFinite(d)) return n / d;
  // scale down huge values
  const shift = BigInt(Math.max(r.num.toString(2).length, r.den.toString(2).length) - 1000);
  return Number(r.num >> (shift > 0n ? shift : 0n)) / Number(r.den >> (shift > 0n ? shift : 0n));
}

function check(proc: string, x: unknown): Num {
  if (!isNumber(x)) typeError(proc, "number", x);
  return x as Num;
}

function nd(x: Num): [bigint, bigint] {
  if (x instanceof Ratio) return [x.num, x.den];
  return [big(x as number | bigint), 1n];
}

/** Addition. */
export function add(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (r <= MAX && r >= -MAX) return r;
    return normBig(BigInt(a) + BigInt(b));
  }
  const x = check("+", a), y = check("+", b);
  if (x instanceof Complex || y instanceof Complex) return cadd(x, y);
  if (x instanceof Flo || y instanceof Flo) return new Flo(toFloat(x) + toFloat(y));
  if (x instanceof Ratio || y instanceof Ratio) {
    const [n1, d1] = nd(x), [n2, d2] = nd(y);
    return makeRatio(n1 * d2 + n2 * d1, d1 * d2);
  }
  const r = big(x) + big(y);
  if (isBig(r)) chargeBig(r);
  return normBig(r);
}
/** Subtraction. */
export function sub(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (r <= MAX && r >= -MAX) return r;
    return normBig(BigInt(a) - BigInt(b));
  }
  const x = check("-", a), y = check("-", b);
  if (x instanceof Complex || y instanceof Complex) return csub(x, y);
  if (x instanceof Flo || y instanceof Flo) return new Flo(toFloat(x) - toFloat(y));
  if (x instanceof Ratio || y instanceof Ratio) {
    const [n1, d1] = nd(x), [n2, d2] = nd(y);
    return makeRatio(n1 * d2 - n2 * d1, d1 * d2);
  }
  const r = big(x) - big(y);
  if (isBig(r)) chargeBig(r);
  return normBig(r);
}
/** Largest exact integer size, in bits (keeps single operations bounded in time). */
export const MAX_INTEGER_BITS = 4_000_000;

function bits(x: bigint): number {
  return (x < 0n ? -x : x).toString(16).length * 4;
}
function checkBits(n: number): void {
  if (n > MAX_INTEGER_BITS) {
    throw new SchemeLimitError("memory", `integer too large (more than ${MAX_INTEGER_BITS} bits)`);
  }
}

/** Multiplication. */
export function mul(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (r <= MAX && r >= -MAX) return r === 0 ? 0 : r;
    return normBig(BigInt(a) * BigInt(b));
  }
  const x = check("*", a), y = check("*", b);
  if (x instanceof Complex || y instanceof Complex) return cmul(x, y);
  if (x instanceof Flo || y instanceof Flo) return new Flo(toFloat(x) * toFloat(y));
  if (x instanceof Ratio || y instanceof Ratio) {
    const [n1, d1] = nd(x), [n2, d2] = nd(y);
    checkBits(bits(n1) + bits(n2) + bits(d1) + bits(d2));
    chargeBig(n1, n2, d1, d2);
    return makeRatio(n1 * n2, d1 * d2);
  }
  const bx = big(x), by = big(y);
  if (typeof x === "bigint" || typeof y === "bigint") checkBits(bits(bx) + bits(by));
  const r = bx * by;
  if (isBig(r)) chargeBig(r);
  return normBig(r);
}
/** Division. */
export function div(a: unknown, b: unknown): Num {
  const x = check("/", a), y = check("/", b);
  if (x instanceof Complex || y instanceof Complex) {
    if (isZero(y)) throw typeError("/", "non-zero divisor", y);
    return cdiv(x, y);
  }
  if (x instanceof Flo || y instanceof Flo) return new Flo(toFloat(x) / toFloat(y));
  if (isZero(y)) throw typeError("/", "non-zero divisor", y);
  if (typeof x === "number" && typeof y === "number" && x % y === 0) return x / y;
  const [n1, d1] = nd(x), [n2, d2] = nd(y);
  return makeRatio(n1 * d2, d1 * n2);
}

/** Compares two real numbers: negative, 0, positive, or NaN. */
export function compare(a: unknown, b: unknown, proc = "<"): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = check(proc, a), y = check(proc, b);
  if (x instanceof Complex) typeError(proc, "real number", x);
  if (y instanceof Complex) typeError(proc, "real number", y);
  if (x instanceof Flo || y instanceof Flo) {
    const fx = toFloat(x), fy = toFloat(y);
    if (Number.isNaN(fx) || Number.isNaN(fy)) return NaN;
    if (
      !Number.isFinite(fx) || !Number.isFinite(fy) ||
      (Number.isInteger(fx) && Number.isInteger(fy) && Math.abs(fx) < 2 ** 53 &&
        Math.abs(fy) < 2 ** 53)
    ) {
      return fx < fy ? -1 : fx > fy ? 1 : 0;
    }
    // exact comparison
    return compare(x instanceof Flo ? exact(x) : x, y instanceof Flo ? exact(y) : y, proc);
  }
  if (x instanceof Ratio || y instanceof Ratio) {
    const [n1, d1] = nd(x), [n2, d2] = nd(y);
    const l = n1 * d2, r = n2 * d1;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  const bx = big(x), by = big(y);
  return bx < by ? -1 : bx > by ? 1 : 0;
}

/** Numeric equality. */
export function numEq(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (a instanceof Complex || b instanceof Complex) {
    return ceq(check("=", a), check("=", b));
  }
  return compare(a, b, "=") === 0;
}

/** True if x is zero. */
export function isZero(x: Num): boolean {
  if (typeof x === "number") return x === 0;
  if (x instanceof Flo) return x.v === 0;
  if (x instanceof Complex) return isZero(x.re) && isZero(x.im);
  return false;
}
/** Sign of a real: -1, 0, 1 (NaN for NaN). */
export function sign(x: Num): number {
  if (typeof x === "number") return Math.sign(x);
  if (x instanceof Complex) return typeError("sign", "real number", x);
  if (typeof x === "bigint") return x < 0n ? -1 : 1;
  if (x instanceof Flo) return Math.sign(x.v);
  return x.num < 0n ? -1 : 1;
}
/** Negation. */
export function neg(x: unknown): Num {
  if (x instanceof Flo) return new Flo(-x.v);
  if (x instanceof Complex) return makeRect(neg(x.re) as Real, neg(x.im) as Real);
  return sub(0, x);
}

/** Converts to an exact number. */
export function exact(x: unknown): Num {
  const n = check("exact", x);
  if (n instanceof Complex) return makeRect(exact(n.re) as Real, exact(n.im) as Real);
  if (!(n instanceof Flo)) return n;
  const v = n.v;
  if (!Number.isFinite(v)) typeError("exact", "finite number", n);
  if (Number.isInteger(v)) return Number.isSafeInteger(v) ? v : BigInt(v);
  // decompose the double exactly
  let m = v, e = 0n;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return makeRatio(BigInt(m), 1n << e);
}
/** Converts to an inexact number. */
export function inexact(x: unknown): Flo {
  const n = check("inexact", x);
  if (n instanceof Complex) return new Complex(inexact(n.re), inexact(n.im)) as unknown as Flo;
  return n instanceof Flo ? n : new Flo(toFloat(n));
}

function intArgs(proc: string, a: unknown, b: unknown): [bigint, bigint, boolean] {
  const inex = a instanceof Flo || b instanceof Flo;
  if (!isInteger(a)) typeError(proc, "integer", a);
  if (!isInteger(b)) typeError(proc, "integer", b);
  const x = a instanceof Flo ? BigInt(a.v) : big(a as number | bigint);
  const y = b instanceof Flo ? BigInt(b.v) : big(b as number | bigint);
  if (y === 0n) typeError(proc, "non-zero divisor", b);
  return [x, y, inex];
}
function wrapInt(b: bigint, inex: boolean): Num {
  return inex ? new Flo(Number(b)) : normBig(b);
}
/** Charges a division of `x` by `y` once its result is known. */
function divided<T>(x: bigint, y: bigint, r: T): T {
  if (isBig(x)) chargeBig(x, y);
  return r;
}
/** truncate-quotient. */
export function quotient(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number" && b !== 0) return Math.trunc(a / b);
  const [x, y, i] = intArgs("quotient", a, b);
  return divided(x, y, wrapInt(x / y, i));
}
/** truncate-remainder. */
export function remainder(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number" && b !== 0) {
    const r = a % b;
    return r === 0 ? 0 : r;
  }
  const [x, y, i] = intArgs("remainder", a, b);
  return divided(x, y, wrapInt(x % y, i));
}
/** floor-remainder (modulo). */
export function modulo(a: unknown, b: unknown): Num {
  if (typeof a === "number" && typeof b === "number" && b !== 0) {
    const r = a % b;
    return r !== 0 && (r < 0) !== (b < 0) ? r + b : r === 0 ? 0 : r;
  }
  const [x, y, i] = intArgs("modulo", a, b);
  let r = x % y;
  if (r !== 0n && (r < 0n) !== (y < 0n)) r += y;
  return divided(x, y, wrapInt(r, i));
}
/** floor-quotient. */
export function floorQuotient(a: unknown, b: unknown): Num {
  const [x, y, i] = intArgs("floor-quotient", a, b);
  let q = x / y;
  if ((x % y !== 0n) && ((x < 0n) !== (y < 0n))) q -= 1n;
  return divided(x, y, wrapInt(q, i));
}

/** Greatest common divisor. */
export function gcd(a: unknown, b: unknown): Num {
  const [x, y, i] = intArgs("gcd", a, b === 0 ? 1 : b);
  return wrapInt(b === 0 || (b instanceof Flo && b.v === 0) ? (x < 0n ? -x : x) : bgcd(x, y), i);
}

/** Integer exponentiation and general expt. */
export function expt(a: unknown, b: unknown): Num {
  const x = check("expt", a), y = check("expt", b);
  if (x instanceof Complex || y instanceof Complex) return cexpt(x, y);
  if (
    !isExactInteger(y) && sign(x) < 0 && !(y instanceof Flo && Number.isInteger(y.v))
  ) return cexpt(x, y);
  if (isExactInteger(y) && !(x instanceof Flo)) {
    const e = big(y);
    if (e >= 0n) {
      const ecap = Number(e > 100_000_000n ? 100_000_000n : e);
      if (x instanceof Ratio) {
        checkBits((bits(x.num) + bits(x.den)) * ecap);
        const n = x.num ** e, d = x.den ** e;
        chargeBig(n, d);
        return makeRatio(n, d);
      }
      const bx = big(x as number | bigint);
      if (bx === 0n) return e === 0n ? 1 : 0;
      if (bx === 1n) return 1;
      if (bx === -1n) return e % 2n === 0n ? 1 : -1;
      checkBits(bits(bx) * ecap);
      const r = bx ** e;
      chargeBig(r);
      return normBig(r);
    }
    if (isZero(x)) typeError("expt", "non-zero base", x);
    return div(1, expt(x, neg(y)));
  }
  if (isExactInteger(y) && x instanceof Flo) return new Flo(Math.pow(x.v, Number(y)));
  const fx = toFloat(x), fy = toFloat(y);
  return new Flo(Math.pow(fx, fy));
}

/** Exact integer square root: [s, r] with s*s + r = n. */
export function exactIntegerSqrt(n: unknown): [Num, Num] {
  if (!isExactInteger(n) || big(n) < 0n) {
    typeError("exact-integer-sqrt", "non-negative exact integer", n);
  }
  const b = big(n as number | bigint);
  if (b < 2n) return [normBig(b), 0];
  let x: bigint;
  const approx = Math.sqrt(Number(b));
  if (Number.isFinite(approx) && approx < 2 ** 52) {
    x = BigInt(Math.floor(approx));
  } else {
    // Newton's method from a power of two above the root (each step is charged)
    x = 1n << BigInt(Math.ceil(bits(b) / 2) + 1);
    for (;;) {
      const y = (x + b / x) >> 1n;
      chargeBig(b, x);
      if (y >= x) break;
      x = y;
    }
  }
  while (x * x > b) x--;
  while ((x + 1n) * (x + 1n) <= b) x++;
  return [normBig(x), normBig(b - x * x)];
}

/** sqrt: exact for exact perfect squares (and rationals of them). */
export function sqrt(a: unknown): Num {
  const x = check("sqrt", a);
  if (x instanceof Complex || sign(x) < 0) return csqrt(x);
  if (isExactInteger(x) && big(x) >= 0n) {
    const [s, r] = exactIntegerSqrt(x);
    if (isZero(r as Num)) return s;
  }
  if (x instanceof Ratio && x.num > 0n) {
    const [s1, r1] = exactIntegerSqrt(normBig(x.num));
    const [s2, r2] = exactIntegerSqrt(normBig(x.den));
    if (isZero(r1 as Num) && isZero(r2 as Num)) return div(s1, s2);
  }
  return new Flo(Math.sqrt(toFloat(x)));
}

/** floor / ceiling / round / truncate. */
export function roundOp(op: "floor" | "ceiling" | "round" | "truncate", a: unknown): Num {
  const x = check(op, a);
  if (isExactInteger(x)) return x;
  if (x instanceof Flo) {
    const v = x.v;
    if (op === "round") {
      const r = Math.round(v);
      return new Flo(Math.abs(v - Math.trunc(v)) === 0.5 ? 2 * Math.round(v / 2) : r);
    }
    return new Flo(
      op === "floor" ? Math.floor(v) : op === "ceiling" ? Math.ceil(v) : Math.trunc(v),
    );
  }
  const r = x as Ratio;
  const fl = r.num >= 0n ? r.num / r.den : -((-r.num + r.den - 1n) / r.den);
  switch (op) {
    case "floor":
      return normBig(fl);
    case "ceiling":
      return normBig(fl + 1n);
    case "truncate":
      return normBig(r.num / r.den);
    default: {
      const twice = 2n * (r.num - fl * r.den);
      if (twice < r.den) return normBig(fl);
      if (twice > r.den) return normBig(fl + 1n);
      return normBig(fl % 2n === 0n ? fl : fl + 1n);
    }
  }
}

/** Numerator. */
export function numerator(a: unknown): Num {
  const x = check("numerator", a);
  if (x instanceof Ratio) return normBig(x.num);
  if (x instanceof Flo) return inexact(numerator(exact(x)));
  return x;
}
/** Denominator. */
export function denominator(a: unknown): Num {
  const x = check("denominator", a);
  if (x instanceof Ratio) return normBig(x.den);
  if (x instanceof Flo) return inexact(denominator(exact(x)));
  return 1;
}

/** Simplest rational within y of x (R7RS rationalize). */
export function rationalize(x: unknown, y: unknown): Num {
  const inex = x instanceof Flo || y instanceof Flo;
  const fx = check("rationalize", x), fy = check("rationalize", y);
  if (inex && (!Number.isFinite(toFloat(fx)) || !Number.isFinite(toFloat(fy)))) {
    if (!Number.isFinite(toFloat(fy))) return new Flo(Number.isNaN(toFloat(fy)) ? NaN : 0);
    return inexact(fx);
  }
  const ex = exact(fx), ey = exact(fy);
  const ay = sign(ey) < 0 ? neg(ey) : ey;
  const lo = sub(ex, ay), hi = add(ex, ay);
  const simplest = (lo: Num, hi: Num): Num => {
    const fl = roundOp("floor", lo);
    if (compare(fl, lo) === 0) return fl;
    if (compare(fl, roundOp("floor", hi)) < 0) return add(fl, 1);
    const rest = simplest(div(1, sub(hi, fl)), div(1, sub(lo, fl)));
    return add(fl, div(1, rest));
  };
  let r: Num;
  if (sign(lo) > 0) r = simplest(lo, hi);
  else if (sign(hi) < 0) r = neg(simplest(neg(hi), neg(lo)));
  else r = 0;
  return inex ? inexact(r) : r;
}

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

/** Coerces an exact integer argument to a JS index (checks range). */
export function toIndex(proc: string, x: unknown): number {
  if (typeof x !== "number" || x < 0) return typeError(proc, "index", x);
  return x;
}

// ---------------------------------------------------------------------------
// Complex numbers (`(scheme complex)`): rectangular arithmetic that keeps exactness (`1+2i`
// times `3-i` is exact `5+5i`), polar constructors, the elementary functions over the complex
// plane, and the literal syntax (`1+2i`, `-i`, `1.5e3-2/3i`, `1@0.5`).
// ---------------------------------------------------------------------------

/** A real number (every Num but Complex). */
export type Real = Exclude<Num, Complex>;

/** Builds `re + im·i`, a real when `im` is an exact zero. */
export function makeRect(re: Real, im: Real): Num {
  if (im === 0) return re;
  return new Complex(re, im);
}

/** Real and imaginary parts of any number. */
export function parts(x: Num): [Real, Real] {
  return x instanceof Complex ? [x.re, x.im] : [x as Real, 0];
}

const r = (x: Num) => x as Real;

/** Sum. */
export function cadd(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  return makeRect(r(add(p, u)), r(add(q, v)));
}
/** Difference. */
export function csub(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  return makeRect(r(sub(p, u)), r(sub(q, v)));
}
/** Product. */
export function cmul(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  return makeRect(r(sub(mul(p, u), mul(q, v))), r(add(mul(p, v), mul(q, u))));
}
/** Quotient. */
export function cdiv(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  const d = add(mul(u, u), mul(v, v));
  return makeRect(
    r(div(add(mul(p, u), mul(q, v)), d)),
    r(div(sub(mul(q, u), mul(p, v)), d)),
  );
}
/** Numeric equality of complex numbers. */
export function ceq(a: Num, b: Num): boolean {
  const [p, q] = parts(a), [u, v] = parts(b);
  return numEq(p, u) && numEq(q, v);
}

const f = (x: Real) => toFloat(x);

/** `magnitude`: exact for exact parts whose squares sum to a perfect square. */
export function magnitude(x: Num): Num {
  if (!(x instanceof Complex)) return sign(x) < 0 ? neg(x) : x;
  if (isExact(x.re) && isExact(x.im)) {
    const s = sqrt(add(mul(x.re, x.re), mul(x.im, x.im)));
    return s;
  }
  return new Flo(Math.hypot(f(x.re), f(x.im)));
}
/** `angle`. */
export function angle(x: Num): Num {
  if (!(x instanceof Complex)) {
    if (x instanceof Flo) {
      return new Flo(Math.atan2(0, x.v) === 0 && x.v < 0 ? Math.PI : Math.atan2(0, x.v));
    }
    return sign(x) < 0 ? new Flo(Math.PI) : 0;
  }
  return new Flo(Math.atan2(f(x.im), f(x.re)));
}
/** `make-polar`. */
export function makePolar(m: Real, a: Real): Num {
  if (a === 0) return m;
  const mf = f(m), af = f(a);
  return makeRect(new Flo(mf * Math.cos(af)), new Flo(mf * Math.sin(af)));
}

/** Inexact complex from two doubles. */
function fc(re: number, im: number): Num {
  return new Complex(new Flo(re), new Flo(im));
}

/** Complex `exp`. */
export function cexp(z: Complex): Num {
  const e = Math.exp(f(z.re)), b = f(z.im);
  return fc(e * Math.cos(b), e * Math.sin(b));
}
/** Complex `log` (principal branch); also the log of a negative real. */
export function clog(z: Num): Num {
  const [a, b] = parts(z);
  return fc(Math.log(Math.hypot(f(a), f(b))), Math.atan2(f(b), f(a)));
}
/** Complex square root (principal branch), exact when it can be. */
export function csqrt(z: Num): Num {
  const [a, b] = parts(z);
  if (b === 0 && sign(a) < 0) {
    // sqrt of a negative real: ±i·sqrt(|a|), exact if |a| is an exact square
    const s = sqrt(neg(a));
    return s instanceof Flo ? fc(0, s.v) : makeRect(0, r(s));
  }
  if (z instanceof Complex && isExact(a) && isExact(b)) {
    // exact square roots of exact complex numbers when (m+a)/2 and (m-a)/2 are exact squares
    const m = magnitude(z);
    if (isExact(m)) {
      const x = sqrt(div(add(m, a), 2)), y = sqrt(div(sub(m, a), 2));
      if (isExact(x) && isExact(y)) return makeRect(r(x), r(sign(b) < 0 ? neg(y) : y));
    }
  }
  // on the negative real axis (a signed zero imaginary part included) the root is +i·sqrt|a|
  if (isZero(b) && sign(a) < 0) return fc(0, Math.sqrt(-f(a)));
  const mag = Math.sqrt(Math.hypot(f(a), f(b))), ang = Math.atan2(f(b), f(a)) / 2;
  return fc(mag * Math.cos(ang), mag * Math.sin(ang));
}
/** Complex `expt`: exact for exact bases and exact integer exponents. */
export function cexpt(a: Num, b: Num): Num {
  if (isExactInteger(b) && isExact(parts(a)[0]) && isExact(parts(a)[1])) {
    let e = typeof b === "bigint" ? b : BigInt(b);
    let base = a, acc: Num = 1;
    const negative = e < 0n;
    if (negative) e = -e;
    while (e > 0n) {
      if (e & 1n) acc = cmul(acc, base);
      base = cmul(base, base);
      e >>= 1n;
    }
    return negative ? cdiv(1, acc) : acc;
  }
  if (parts(a)[0] === 0 && parts(a)[1] === 0) return isExact(parts(b)[0]) ? 0 : new Flo(0);
  return cexpFull(cmul(b, clog(a)));
}
function cexpFull(z: Num): Num {
  return z instanceof Complex ? cexp(z) : new Flo(Math.exp(f(z as Real)));
}
const I: Num = new Complex(0, 1);
/** Complex sine. */
export function csin(z: Complex): Num {
  const a = f(z.re), b = f(z.im);
  return fc(Math.sin(a) * Math.cosh(b), Math.cos(a) * Math.sinh(b));
}
/** Complex cosine. */
export function ccos(z: Complex): Num {
  const a = f(z.re), b = f(z.im);
  return fc(Math.cos(a) * Math.cosh(b), -Math.sin(a) * Math.sinh(b));
}
/** Complex tangent. */
export function ctan(z: Complex): Num {
  return cdiv(csin(z), ccos(z));
}
/** Complex arcsine: -i log(iz + sqrt(1 - z²)). */
export function casin(z: Num): Num {
  return cmul(new Complex(0, -1), clog(cadd(cmul(I, z), csqrt(csub(1, cmul(z, z))))));
}
/** Complex arccosine: π/2 - asin z. */
export function cacos(z: Num): Num {
  return csub(new Flo(Math.PI / 2), casin(z));
}
/** Complex arctangent: (i/2)(log(1 - iz) - log(1 + iz)). */
export function catan(z: Num): Num {
  const iz = cmul(I, z);
  return cmul(new Complex(0, new Flo(0.5)), csub(clog(csub(1, iz)), clog(cadd(1, iz))));
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
