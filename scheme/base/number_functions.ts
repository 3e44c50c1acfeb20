/**
 * The numeric functions over the tower (numbers.ts): integer division, `gcd`, `expt`, square
 * roots, rounding, `numerator`/`denominator`, `rationalize`; and over the complex plane
 * `magnitude`, `angle`, polar construction, `exp`, `log`, `sqrt`, `expt` and trigonometry.
 *
 * @module
 */
import { Complex, Flo, Ratio } from "./types.ts";
import { typeError } from "./errors.ts";
import {
  add,
  bigGcd as bgcd,
  bitLength as bits,
  cadd,
  cdiv,
  chargeBigIntegers as chargeBig,
  checkIntegerBits as checkBits,
  checkNumber as check,
  cmul,
  compare,
  csub,
  div,
  exact,
  inexact,
  isBigInteger as isBig,
  isExact,
  isExactInteger,
  isInteger,
  isZero,
  makeRatio,
  makeRect,
  mul,
  neg,
  normBig,
  type Num,
  parts,
  type Real,
  sign,
  sub,
  toBigInt as big,
  toFloat,
} from "./numbers.ts";

const r = (x: Num) => x as Real;

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
