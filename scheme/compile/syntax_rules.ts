/**
 * `syntax-rules`: pattern matching with ellipses (incl. tail patterns, vectors, custom ellipsis
 * and `(... ...)` escapes) and template instantiation with hygienic renaming of introduced
 * identifiers (each becomes an {@link Alias} resolved in the macro's definition scope).
 *
 * @module
 */
import { alloc, type Environment, NIL, Pair, R, schemeError, sym, tickCheck } from "../base/mod.ts";
import {
  Alias,
  type Block,
  type ExpandCtx,
  type Ident,
  isIdent,
  Macro,
  rootSym,
} from "./syntax.ts";
import { spineItems, stripAll } from "./literals.ts";

class Seq {
  constructor(public items: Map<Ident, unknown>[]) {}
}

type Binds = Map<Ident, unknown>;

const UNDERSCORE = sym("_");
const DEFAULT_ELLIPSIS = sym("...");

function sameId(a: Ident, b: Ident): boolean {
  return a === b || rootSym(a) === rootSym(b);
}

function listLen(x: unknown): number {
  let n = 0;
  while (x instanceof Pair) {
    n++;
    x = x.cdr;
  }
  return n;
}

/** Creates the macro for a `(syntax-rules ...)` spec defined in `block` of `env`. */
export function makeSyntaxRules(
  spec: Pair,
  block: Block | null,
  env: Environment,
  name: string,
): Macro {
  let rest = spec.cdr as Pair;
  let ellipsis: Ident = DEFAULT_ELLIPSIS;
  if (rest instanceof Pair && isIdent(rest.car)) {
    ellipsis = rest.car;
    rest = rest.cdr as Pair;
  }
  if (!(rest instanceof Pair)) throw schemeError("syntax", "syntax-rules: missing literals");
  const literals: Ident[] = [];
  for (let l = rest.car; l instanceof Pair; l = l.cdr) {
    if (isIdent(l.car)) literals.push(l.car);
  }
  const rules: [unknown, unknown][] = [];
  for (let r = rest.cdr; r instanceof Pair; r = r.cdr) {
    const rule = r.car;
    if (!(rule instanceof Pair) || !(rule.cdr instanceof Pair)) {
      throw schemeError("syntax", "syntax-rules: bad rule", [rule]);
    }
    rules.push([rule.car, rule.cdr.car]);
  }
  const rs = new Rules(ellipsis, literals, block, env, name);
  return new Macro(name, (form: Pair, _ctx: ExpandCtx) => {
    for (const [pat, tmpl] of rules) {
      const b: Binds = new Map();
      if (pat instanceof Pair && rs.match(pat.cdr, form.cdr, b)) {
        return rs.expand(tmpl, b, new Map(), false);
      }
    }
    throw schemeError("syntax", `no matching syntax rule for ${name}:`, [stripAll(form)]);
  });
}

/** One `syntax-rules` spec's matcher and template expander: its ellipsis and literals. */
class Rules {
  readonly #ellipsisIsLiteral: boolean;
  /** Creates the rules of macro `name`, whose templates' free identifiers refer to `block` of `env`. */
  constructor(
    readonly ellipsis: Ident,
    readonly literals: Ident[],
    readonly block: Block | null,
    readonly env: Environment,
    readonly name: string,
  ) {
    this.#ellipsisIsLiteral = literals.some((l) => rootSym(l) === rootSym(ellipsis));
  }

  isEllipsis(x: unknown): boolean {
    return !this.#ellipsisIsLiteral &&
      isIdent(x) &&
      (x === this.ellipsis ||
        (rootSym(x as Ident) === rootSym(this.ellipsis) && !this.literals.includes(x as Ident)));
  }

  isLiteral(x: Ident): boolean {
    return this.literals.some((l) => l === x);
  }

  patternVars(p: unknown, out: Ident[]): Ident[] {
    if (isIdent(p)) {
      if (!this.isLiteral(p) && !this.isEllipsis(p) && p !== UNDERSCORE) out.push(p);
    } else if (p instanceof Pair) {
      this.patternVars(p.car, out);
      this.patternVars(p.cdr, out);
    } else if (Array.isArray(p)) { for (const x of p) this.patternVars(x, out); }
    return out;
  }

  match(p: unknown, f: unknown, b: Binds): boolean {
    if (isIdent(p)) {
      if (this.isLiteral(p)) return isIdent(f) && sameId(f, p);
      if (p === UNDERSCORE) return true;
      b.set(p, f);
      return true;
    }
    if (p instanceof Pair) {
      if (p.cdr instanceof Pair && this.isEllipsis(p.cdr.car)) {
        const after = p.cdr.cdr;
        const minAfter = listLen(after);
        const spine = spineItems(f);
        if (spine === null) return false; // a circular form matches no pattern
        const n = spine.items.length - minAfter;
        if (n < 0) return false;
        const seq: Binds[] = [];
        let cur = f;
        for (let i = 0; i < n; i++) {
          if (--R.tick < 0) tickCheck();
          const mb: Binds = new Map();
          if (!this.match(p.car, (cur as Pair).car, mb)) return false;
          seq.push(mb);
          cur = (cur as Pair).cdr;
        }
        for (const v of this.patternVars(p.car, [])) b.set(v, new Seq(seq));
        return this.match(after, cur, b);
      }
      if (!(f instanceof Pair)) return false;
      return this.match(p.car, f.car, b) && this.match(p.cdr, f.cdr, b);
    }
    if (p === NIL) return f === NIL;
    if (Array.isArray(p)) {
      if (!Array.isArray(f)) return false;
      return this.match(arrToList(p), arrToList(f), b);
    }
    return equalDatum(p, f);
  }

  expand(t: unknown, b: Binds, renames: Map<Ident, Alias>, escaped: boolean): unknown {
    if (isIdent(t)) {
      if (b.has(t)) {
        const v = b.get(t);
        if (v instanceof Seq) {
          throw schemeError("syntax", `${this.name}: pattern variable used without ellipsis:`, [
            rootSym(t),
          ]);
        }
        return v;
      }
      let a = renames.get(t);
      if (!a) {
        a = new Alias(t, this.block, this.env);
        renames.set(t, a);
      }
      return a;
    }
    if (t instanceof Pair) {
      alloc(1);
      if (--R.tick < 0) tickCheck();
      if (!escaped && this.isEllipsis(t.car) && t.cdr instanceof Pair) {
        return this.expand(t.cdr.car, b, renames, true);
      }
      if (!escaped && t.cdr instanceof Pair && this.isEllipsis(t.cdr.car)) {
        let after = t.cdr.cdr;
        let depth = 1;
        while (after instanceof Pair && this.isEllipsis(after.car)) {
          depth++;
          after = after.cdr;
        }
        const results = this.expandEllipsis(t.car, b, renames, depth);
        let tail = this.expand(after, b, renames, escaped);
        for (let i = results.length - 1; i >= 0; i--) tail = new Pair(results[i], tail);
        alloc(results.length);
        return tail;
      }
      return new Pair(
        this.expand(t.car, b, renames, escaped),
        this.expand(t.cdr, b, renames, escaped),
      );
    }
    if (Array.isArray(t)) {
      const l = this.expand(arrToList(t), b, renames, escaped);
      const out: unknown[] = [];
      for (let x = l; x instanceof Pair; x = x.cdr) out.push(x.car);
      return out;
    }
    return t;
  }

  expandEllipsis(
    sub: unknown,
    b: Binds,
    renames: Map<Ident, Alias>,
    depth: number,
  ): unknown[] {
    const vars = this.patternVars(sub, []).filter((v) => b.get(v) instanceof Seq);
    if (vars.length === 0) {
      throw schemeError("syntax", `${this.name}: no pattern variable before ellipsis`);
    }
    let n = -1;
    for (const v of vars) {
      const len = (b.get(v) as Seq).items.length;
      if (n < 0 || len < n) n = len;
    }
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if (--R.tick < 0) tickCheck();
      alloc(1);
      const nb: Binds = new Map(b);
      for (const v of vars) {
        const m = (b.get(v) as Seq).items[i];
        for (const [k, val] of m) nb.set(k, val);
      }
      if (depth > 1) out.push(...this.expandEllipsis(sub, nb, renames, depth - 1));
      else out.push(this.expand(sub, nb, renames, false));
    }
    return out;
  }
}

function arrToList(a: unknown[]): unknown {
  let r: unknown = NIL;
  for (let i = a.length - 1; i >= 0; i--) r = new Pair(a[i], r);
  return r;
}

function equalDatum(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "object" && a && typeof b === "object" && b) {
    if ("v" in a && "v" in b) return (a as { v: unknown }).v === (b as { v: unknown }).v;
    if ("s" in a && "s" in b) return (a as { s: unknown }).s === (b as { s: unknown }).s;
  }
  return false;
}

/** Replaces aliases by their root symbols throughout a datum (see literals.ts). */
export { stripAll };
