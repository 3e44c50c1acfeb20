/**
 * Numeric procedures (R7RS 6.2).
 *
 * @module
 */
import { Complex, Flo, Ratio, typeError, Values as ValuesCtor } from "../base/mod.ts";
import * as C from "../base/mod.ts";
import * as N from "../base/mod.ts";
import { def, defv, type PrimTable, str } from "./util.ts";

const MAX = Number.MAX_SAFE_INTEGER;

function num(proc: string, x: unknown): N.Num {
  if (!N.isNumber(x)) typeError(proc, "number", x);
  return x as N.Num;
}
function int(proc: string, x: unknown): N.Num {
  if (!N.isInteger(x)) typeError(proc, "integer", x);
  return x as N.Num;
}

function compareChain(name: string, ok: (c: number) => boolean) {
  return (...xs: unknown[]) => {
    for (const x of xs) num(name, x);
    for (let i = 0; i + 1 < xs.length; i++) {
      if (!ok(N.compare(xs[i], xs[i + 1], name))) return false;
    }
    return true;
  };
}

/** Complex versions of the elementary functions, and the real domain outside of which they apply. */
const COMPLEX_FN: Record<string, [(z: Complex) => N.Num, (x: number) => boolean]> = {
  exp: [C.cexp, () => true],
  log: [C.clog, (x) => x >= 0 || Number.isNaN(x)],
  sin: [C.csin, () => true],
  cos: [C.ccos, () => true],
  tan: [C.ctan, () => true],
  asin: [(z) => C.casin(z), (x) => Math.abs(x) <= 1 || Number.isNaN(x)],
  acos: [(z) => C.cacos(z), (x) => Math.abs(x) <= 1 || Number.isNaN(x)],
  atan: [(z) => C.catan(z), () => true],
};

function float1(name: string, f: (x: number) => number) {
  const [cf, inDomain] = COMPLEX_FN[name];
  return (x: unknown) => {
    const n = num(name, x);
    if (n instanceof Complex) return cf(n);
    if (!inDomain(N.toFloat(n))) return cf(new Complex(n, 0));
    if (n === 0 && (name === "sin" || name === "tan" || name === "asin" || name === "atan")) {
      return 0;
    }
    if (n === 1 && name === "log") return 0;
    if (n === 0 && name === "exp") return 1;
    return new Flo(f(N.toFloat(n)));
  };
}

/** Installs numeric primitives. */
export function installNumbers(t: PrimTable): void {
  def(t, "number?", 1, 1, N.isNumber);
  def(t, "complex?", 1, 1, N.isNumber);
  def(t, "real?", 1, 1, N.isReal);
  def(t, "rational?", 1, 1, N.isRational);
  def(t, "integer?", 1, 1, N.isInteger);
  def(t, "exact?", 1, 1, (x) => N.isExact(num("exact?", x)));
  def(t, "inexact?", 1, 1, (x) => !N.isExact(num("inexact?", x)));
  def(t, "exact-integer?", 1, 1, N.isExactInteger);
  def(t, "exact-rational?", 1, 1, (x) => N.isExactInteger(x) || x instanceof Ratio);
  const realParts = (n: N.Num) => (n instanceof Complex ? [n.re, n.im] : [n]);
  def(
    t,
    "nan?",
    1,
    1,
    (x) => realParts(num("nan?", x)).some((p) => p instanceof Flo && Number.isNaN(p.v)),
  );
  def(
    t,
    "infinite?",
    1,
    1,
    (x) =>
      realParts(num("infinite?", x)).some((p) =>
        p instanceof Flo && (p.v === Infinity || p.v === -Infinity)
      ),
  );
  def(
    t,
    "finite?",
    1,
    1,
    (x) => realParts(num("finite?", x)).every((p) => !(p instanceof Flo) || Number.isFinite(p.v)),
  );

  const eq2 = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" ? a === b : N.numEq(a, b);
  const lt2 = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" ? a < b : N.compare(a, b, "<") < 0;
  const gt2 = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" ? a > b : N.compare(a, b, ">") > 0;
  const le2 = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" ? a <= b : N.compare(a, b, "<=") <= 0;
  const ge2 = (a: unknown, b: unknown) =>
    typeof a === "number" && typeof b === "number" ? a >= b : N.compare(a, b, ">=") >= 0;
  defv(t, "=", 1, (xs) => {
    for (const x of xs) num("=", x);
    for (let i = 0; i + 1 < xs.length; i++) if (!N.numEq(xs[i], xs[i + 1])) return false;
    return true;
  }).f2 = eq2;
  def(t, "<", 1, Infinity, compareChain("<", (c) => c < 0)).f2 = lt2;
  def(t, ">", 1, Infinity, compareChain(">", (c) => c > 0)).f2 = gt2;
  def(t, "<=", 1, Infinity, compareChain("<=", (c) => c <= 0)).f2 = le2;
  def(t, ">=", 1, Infinity, compareChain(">=", (c) => c >= 0)).f2 = ge2;
  const isZero = (x: unknown) => x === 0 || N.isZero(num("zero?", x));
  def(t, "zero?", 1, 1, isZero).f1 = isZero;
  def(t, "positive?", 1, 1, (x) => N.compare(num("positive?", x), 0) > 0);
  def(t, "negative?", 1, 1, (x) => N.compare(num("negative?", x), 0) < 0);
  def(t, "odd?", 1, 1, (x) => !N.isZero(N.remainder(int("odd?", x), 2)));
  def(t, "even?", 1, 1, (x) => N.isZero(N.remainder(int("even?", x), 2)));
  const minmax = (name: string, pick: (c: number) => boolean) => (...xs: unknown[]) => {
    let r = num(name, xs[0]);
    let inexact = r instanceof Flo;
    for (let i = 1; i < xs.length; i++) {
      const x = num(name, xs[i]);
      if (x instanceof Flo) inexact = true;
      const c = N.compare(x, r);
      if (Number.isNaN(c)) r = new Flo(NaN);
      else if (pick(c)) r = x;
    }
    return inexact ? N.inexact(r) : r;
  };
  def(t, "max", 1, Infinity, minmax("max", (c) => c > 0));
  def(t, "min", 1, Infinity, minmax("min", (c) => c < 0));

  const add2 = (a: unknown, b: unknown) => {
    if (typeof a === "number" && typeof b === "number") {
      const r = a + b;
      if (r <= MAX && r >= -MAX) return r;
    }
    return N.add(a, b);
  };
  const sub2 = (a: unknown, b: unknown) => {
    if (typeof a === "number" && typeof b === "number") {
      const r = a - b;
      if (r <= MAX && r >= -MAX) return r;
    }
    return N.sub(a, b);
  };
  const mul2 = (a: unknown, b: unknown) => N.mul(a, b);
  defv(t, "+", 0, (xs) => {
    let r: unknown = 0;
    for (const x of xs) r = add2(r, num("+", x));
    return r;
  }).f2 = add2;
  defv(t, "*", 0, (xs) => {
    let r: unknown = 1;
    for (const x of xs) r = N.mul(r, num("*", x));
    return r;
  }).f2 = mul2;
  const minus = defv(t, "-", 1, (xs) => {
    if (xs.length === 1) return N.neg(xs[0]);
    let r: unknown = xs[0];
    for (let i = 1; i < xs.length; i++) r = N.sub(r, xs[i]);
    return r;
  });
  minus.f2 = sub2;
  minus.f1 = (x) => N.neg(x);
  defv(t, "/", 1, (xs) => {
    if (xs.length === 1) return N.div(1, xs[0]);
    let r: unknown = xs[0];
    for (let i = 1; i < xs.length; i++) r = N.div(r, xs[i]);
    return r;
  }).f2 = N.div;
  def(t, "abs", 1, 1, (x) => {
    const n = num("abs", x);
    if (n instanceof Flo) return new Flo(Math.abs(n.v));
    return N.sign(n) < 0 ? N.neg(n) : n;
  });
  def(t, "magnitude", 1, 1, (x) => C.magnitude(num("magnitude", x)));
  def(t, "quotient", 2, 2, N.quotient).f2 = N.quotient;
  def(t, "remainder", 2, 2, N.remainder).f2 = N.remainder;
  def(t, "modulo", 2, 2, N.modulo).f2 = N.modulo;
  def(t, "truncate-quotient", 2, 2, N.quotient);
  def(t, "truncate-remainder", 2, 2, N.remainder);
  def(t, "floor-quotient", 2, 2, N.floorQuotient);
  def(t, "floor-remainder", 2, 2, N.modulo);
  defv(t, "gcd", 0, (xs) => xs.reduce((a: N.Num, b) => N.gcd(a, b), 0));
  defv(t, "lcm", 0, (xs) =>
    xs.reduce((a: N.Num, b) => {
      if (N.isZero(a) || N.isZero(int("lcm", b))) {
        return N.isExact(a) && N.isExact(b as N.Num) ? 0 : new Flo(0);
      }
      const g = N.gcd(a, b);
      const r = N.quotient(N.mul(a, b), g);
      return N.sign(r) < 0 ? N.neg(r) : r;
    }, 1));
  def(t, "numerator", 1, 1, N.numerator);
  def(t, "denominator", 1, 1, N.denominator);
  for (const op of ["floor", "ceiling", "round", "truncate"] as const) {
    def(t, op, 1, 1, (x) => N.roundOp(op, x));
  }
  def(t, "rationalize", 2, 2, N.rationalize);
  def(t, "exp", 1, 1, float1("exp", Math.exp));
  def(t, "log", 1, 2, (x, b) => {
    if (b === undefined) return float1("log", Math.log)(x);
    const lx = float1("log", Math.log)(x), lb = float1("log", Math.log)(b);
    if (lx instanceof Complex || lb instanceof Complex) return N.div(lx, lb);
    return new Flo(Math.log(N.toFloat(num("log", x))) / Math.log(N.toFloat(num("log", b))));
  });
  def(t, "sin", 1, 1, float1("sin", Math.sin));
  def(t, "cos", 1, 1, float1("cos", Math.cos));
  def(t, "tan", 1, 1, float1("tan", Math.tan));
  def(t, "asin", 1, 1, float1("asin", Math.asin));
  def(t, "acos", 1, 1, float1("acos", Math.acos));
  def(t, "atan", 1, 2, (y, x) => {
    if (x === undefined) return float1("atan", Math.atan)(y);
    real("atan", y);
    real("atan", x);
    if (
      N.isExact(num("atan", y)) && N.isZero(y as N.Num) && N.isExact(num("atan", x)) &&
      N.sign(x as N.Num) > 0
    ) return 0;
    return new Flo(Math.atan2(N.toFloat(num("atan", y)), N.toFloat(num("atan", x))));
  });
  def(t, "square", 1, 1, (x) => N.mul(num("square", x), x));
  def(t, "sqrt", 1, 1, N.sqrt);
  def(t, "exact-integer-sqrt", 1, 1, (x) => {
    const [s, r] = N.exactIntegerSqrt(x);
    return new ValuesCtor([s, r]);
  });
  def(t, "expt", 2, 2, N.expt);
  def(t, "exact", 1, 1, N.exact);
  def(t, "inexact", 1, 1, N.inexact);
  def(t, "inexact->exact", 1, 1, N.exact);
  def(t, "exact->inexact", 1, 1, N.inexact);
  def(t, "floor/", 2, 2, (a, b) => new ValuesCtor([N.floorQuotient(a, b), N.modulo(a, b)]));
  def(t, "truncate/", 2, 2, (a, b) => new ValuesCtor([N.quotient(a, b), N.remainder(a, b)]));
  def(t, "number->string", 1, 2, (x, r) => {
    const radix = r === undefined ? 10 : r;
    if (radix !== 2 && radix !== 8 && radix !== 10 && radix !== 16) {
      typeError("number->string", "radix 2, 8, 10 or 16", r);
    }
    return N.numberToString(num("number->string", x), radix as number);
  });
  def(t, "string->number", 1, 2, (s, r) => {
    const radix = r === undefined ? 10 : r;
    if (radix !== 2 && radix !== 8 && radix !== 10 && radix !== 16) {
      typeError("string->number", "radix 2, 8, 10 or 16", r);
    }
    const v = N.parseNumber(str("string->number", s), radix as number);
    return v === null ? false : v;
  });
  const real = (name: string, x: unknown): C.Real => {
    const n = num(name, x);
    if (n instanceof Complex) typeError(name, "real number", n);
    return n as C.Real;
  };
  def(t, "real-part", 1, 1, (x) => C.parts(num("real-part", x))[0]);
  def(t, "imag-part", 1, 1, (x) => C.parts(num("imag-part", x))[1]);
  def(t, "angle", 1, 1, (x) => C.angle(num("angle", x)));
  def(
    t,
    "make-rectangular",
    2,
    2,
    (re, im) => C.makeRect(real("make-rectangular", re), real("make-rectangular", im)),
  );
  def(t, "make-polar", 2, 2, (m, a) => C.makePolar(real("make-polar", m), real("make-polar", a)));
  def(t, "exact-nonnegative-integer?", 1, 1, (x) => N.isExactInteger(x) && N.sign(x) >= 0);
}
