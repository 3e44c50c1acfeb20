/**
 * The numeric tower: exact integers (JS safe integers, else BigInt), exact rationals,
 * inexact reals ({@link Flo}) and complex numbers ({@link Complex}): the predicates, the four
 * operations and comparison over every level (the complex ones here too, since each level is
 * built with the others), exactness. The functions over the tower are in number_functions.ts,
 * the literal syntax in number_syntax.ts.
 *
 * @module
 */
import { Complex, Flo, Ratio } from "./types.ts";
import { SchemeLimitError, typeError } from "./errors.ts";
import { checkDeadline, work } from "./state.ts";

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

// for the tower's other modules (number_functions.ts, number_syntax.ts), under names that say
// what they are in the base's surface
export {
  bgcd as bigGcd,
  big as toBigInt,
  bits as bitLength,
  chargeBig as chargeBigIntegers,
  check as checkNumber,
  checkBits as checkIntegerBits,
  isBig as isBigInteger,
};
