/**
 * Complex numbers (`(scheme complex)`): rectangular arithmetic that keeps exactness (`1+2i`
 * times `3-i` is exact `5+5i`), polar constructors, the elementary functions over the complex
 * plane, and the literal syntax (`1+2i`, `-i`, `1.5e3-2/3i`, `1@0.5`).
 *
 * @module
 */
import { Complex, Flo } from "./types.ts";
import * as N from "./numbers.ts";
import type { Num } from "./numbers.ts";

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
  return makeRect(r(N.add(p, u)), r(N.add(q, v)));
}
/** Difference. */
export function csub(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  return makeRect(r(N.sub(p, u)), r(N.sub(q, v)));
}
/** Product. */
export function cmul(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  return makeRect(r(N.sub(N.mul(p, u), N.mul(q, v))), r(N.add(N.mul(p, v), N.mul(q, u))));
}
/** Quotient. */
export function cdiv(a: Num, b: Num): Num {
  const [p, q] = parts(a), [u, v] = parts(b);
  const d = N.add(N.mul(u, u), N.mul(v, v));
  return makeRect(
    r(N.div(N.add(N.mul(p, u), N.mul(q, v)), d)),
    r(N.div(N.sub(N.mul(q, u), N.mul(p, v)), d)),
  );
}
/** Numeric equality of complex numbers. */
export function ceq(a: Num, b: Num): boolean {
  const [p, q] = parts(a), [u, v] = parts(b);
  return N.numEq(p, u) && N.numEq(q, v);
}

const f = (x: Real) => N.toFloat(x);

/** `magnitude`: exact for exact parts whose squares sum to a perfect square. */
export function magnitude(x: Num): Num {
  if (!(x instanceof Complex)) return N.sign(x) < 0 ? N.neg(x) : x;
  if (N.isExact(x.re) && N.isExact(x.im)) {
    const s = N.sqrt(N.add(N.mul(x.re, x.re), N.mul(x.im, x.im)));
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
    return N.sign(x) < 0 ? new Flo(Math.PI) : 0;
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
  if (b === 0 && N.sign(a) < 0) {
    // sqrt of a negative real: ±i·sqrt(|a|), exact if |a| is an exact square
    const s = N.sqrt(N.neg(a));
    return s instanceof Flo ? fc(0, s.v) : makeRect(0, r(s));
  }
  if (z instanceof Complex && N.isExact(a) && N.isExact(b)) {
    // exact square roots of exact complex numbers when (m+a)/2 and (m-a)/2 are exact squares
    const m = magnitude(z);
    if (N.isExact(m)) {
      const x = N.sqrt(N.div(N.add(m, a), 2)), y = N.sqrt(N.div(N.sub(m, a), 2));
      if (N.isExact(x) && N.isExact(y)) return makeRect(r(x), r(N.sign(b) < 0 ? N.neg(y) : y));
    }
  }
  // on the negative real axis (a signed zero imaginary part included) the root is +i·sqrt|a|
  if (N.isZero(b) && N.sign(a) < 0) return fc(0, Math.sqrt(-f(a)));
  const mag = Math.sqrt(Math.hypot(f(a), f(b))), ang = Math.atan2(f(b), f(a)) / 2;
  return fc(mag * Math.cos(ang), mag * Math.sin(ang));
}
/** Complex `expt`: exact for exact bases and exact integer exponents. */
export function cexpt(a: Num, b: Num): Num {
  if (N.isExactInteger(b) && N.isExact(parts(a)[0]) && N.isExact(parts(a)[1])) {
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
  if (parts(a)[0] === 0 && parts(a)[1] === 0) return N.isExact(parts(b)[0]) ? 0 : new Flo(0);
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
  const re = z.re === 0 ? "" : N.numberToString(z.re, radix);
  let im = N.numberToString(z.im, radix);
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
  if (N.isExact(im) && N.isZero(im)) return re;
  return new Complex(re, im);
}
