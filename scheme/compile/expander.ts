/**
 * Derived expression types (R7RS 4.2 / 7.3) as native macros: `let*`, `and`, `or`, `when`,
 * `unless`, `cond`, `case`, `do`, `quasiquote`, `delay`, `delay-force`, `parameterize`, `guard`,
 * `let-values`, `let*-values`, `define-values`, `receive`, `define-record-type`, `assert`.
 * Introduced identifiers are fresh {@link Alias}es, so expansions are hygienic.
 *
 * @module
 */
import {
  alloc,
  bindingKey,
  Cell,
  type Environment,
  intern,
  NIL,
  Pair,
  R,
  readAll,
  schemeError,
  Sym,
  sym,
  tickCheck,
} from "../base/mod.ts";
import { Alias, type ExpandCtx, type Ident, isIdent, Macro, rootSym } from "./syntax.ts";
import { spineItems, stripAll } from "./literals.ts";
import {
  FEATURES,
  isKnownLibrary,
  LAZY,
  libraryHooks,
  libraryState,
  TEST_LIBRARIES,
  TEST_LIBRARY,
} from "../lib/mod.ts";

/** A reference to global `name` that user bindings cannot capture. */
function G(name: string): Alias {
  return new Alias(bindingKey(name), null, null);
}
/** A fresh temporary identifier. */
function fresh(name: string): Alias {
  return new Alias(sym(name), null, null);
}
function L(...xs: unknown[]): unknown {
  let r: unknown = NIL;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}
function LT(xs: unknown[], tail: unknown): unknown {
  let r = tail;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}
function items(x: unknown, form: unknown, what: string): unknown[] {
  const sp = spineItems(x);
  if (sp === null) throw schemeError("syntax", `bad syntax: circular list in ${what}`);
  if (sp.tail !== NIL) bad(what, form);
  return sp.items;
}
function bad(what: string, form: unknown): never {
  throw schemeError("syntax", `bad syntax in ${what}:`, [stripAll(form)]);
}
let curCtx: ExpandCtx | null = null;
function isNamed(x: unknown, name: string): boolean {
  if (!isIdent(x) || rootSym(x).name !== name) return false;
  // a lexically bound identifier is a variable, not the auxiliary keyword
  for (let b = curCtx?.block ?? null; b; b = b.parent) if (b.vars.has(x)) return false;
  return true;
}

const table: Record<string, (x: Pair) => unknown> = {
  "let*": (x) => {
    const [bs, ...body] = items(x.cdr, x, "let*");
    const b = items(bs, x, "let*");
    if (b.length <= 1) return LT([G("let"), bs], LT(body, NIL));
    return L(G("let"), L(b[0]), LT([G("let*"), LT(b.slice(1), NIL)], LT(body, NIL)));
  },
  and: (x) => {
    const xs = items(x.cdr, x, "and");
    if (xs.length === 0) return true;
    if (xs.length === 1) return xs[0];
    return L(G("if"), xs[0], LT([G("and")], LT(xs.slice(1), NIL)), false);
  },
  or: (x) => {
    const xs = items(x.cdr, x, "or");
    if (xs.length === 0) return false;
    if (xs.length === 1) return xs[0];
    const t = fresh("t");
    return L(G("let"), L(L(t, xs[0])), L(G("if"), t, t, LT([G("or")], LT(xs.slice(1), NIL))));
  },
  when: (x) => {
    const [test, ...body] = items(x.cdr, x, "when");
    return L(G("if"), test, LT([G("begin")], LT(body, NIL)));
  },
  unless: (x) => {
    const [test, ...body] = items(x.cdr, x, "unless");
    return L(G("if"), test, undefined, LT([G("begin")], LT(body, NIL)));
  },
  cond: (x) => {
    const clauses = items(x.cdr, x, "cond");
    let r: unknown = undefined;
    for (let i = clauses.length - 1; i >= 0; i--) {
      const c = items(clauses[i], x, "cond clause");
      if (c.length === 0) bad("cond", x);
      if (isNamed(c[0], "else")) {
        if (i !== clauses.length - 1) bad("cond (else not last)", x);
        r = LT([G("begin")], LT(c.slice(1), NIL));
      } else if (c.length === 1) {
        const t = fresh("t");
        r = L(G("let"), L(L(t, c[0])), L(G("if"), t, t, r));
      } else if (isNamed(c[1], "=>")) {
        const t = fresh("t");
        r = L(G("let"), L(L(t, c[0])), L(G("if"), t, L(c[2], t), r));
      } else r = L(G("if"), c[0], LT([G("begin")], LT(c.slice(1), NIL)), r);
    }
    return r === undefined ? L(G("if"), false, false) : r;
  },
  case: (x) => {
    const [key, ...clauses] = items(x.cdr, x, "case");
    const k = fresh("key");
    let r: unknown = undefined;
    for (let i = clauses.length - 1; i >= 0; i--) {
      const c = items(clauses[i], x, "case clause");
      if (c.length < 1) bad("case", x);
      const body = c.length >= 2 && isNamed(c[1], "=>")
        ? L(c[2], k)
        : LT([G("begin")], LT(c.slice(1), NIL));
      if (isNamed(c[0], "else")) r = body;
      else {
        const data = items(c[0], x, "case clause");
        const test = data.length === 1
          ? L(G("eqv?"), k, L(G("quote"), data[0]))
          : L(G("memv"), k, L(G("quote"), LT(data, NIL)));
        r = L(G("if"), test, body, r);
      }
    }
    return L(G("let"), L(L(k, key)), r === undefined ? L(G("if"), false, false) : r);
  },
  do: (x) => {
    const [specs, test, ...cmds] = items(x.cdr, x, "do");
    const ss = items(specs, x, "do").map((s) => items(s, x, "do binding"));
    const t = items(test, x, "do test");
    const loop = fresh("loop");
    const steps = ss.map((s) => (s.length === 3 ? s[2] : s[0]));
    return L(
      G("let"),
      loop,
      LT(ss.map((s) => L(s[0], s[1])), NIL),
      L(
        G("if"),
        t[0],
        LT([G("begin"), undefined], LT(t.slice(1), NIL)),
        LT([G("begin")], LT([...cmds, LT([loop], LT(steps, NIL))], NIL)),
      ),
    );
  },
  quasiquote: (x) => {
    const [tmpl] = items(x.cdr, x, "quasiquote");
    return qq(tmpl, 1);
  },
  "delay-force": (x) => {
    const [e] = items(x.cdr, x, "delay-force");
    return L(G("%make-lazy-promise"), L(G("lambda"), NIL, e));
  },
  delay: (x) => {
    const [e] = items(x.cdr, x, "delay");
    return L(G("%make-lazy-promise"), L(G("lambda"), NIL, L(G("%make-done-promise"), e)));
  },
  "make-promise-lazy": (x) => x,
  parameterize: (x) => {
    const [bs, ...body] = items(x.cdr, x, "parameterize");
    const b = items(bs, x, "parameterize").map((e) => items(e, x, "parameterize binding"));
    const ts = b.map(() => fresh("p"));
    return L(
      G("let"),
      LT(b.map((e, i) => L(ts[i], e[0])), NIL),
      L(
        G("%parameterize"),
        LT([G("list")], LT(ts, NIL)),
        LT([G("list")], LT(b.map((e, i) => L(L(G("%param-converter"), ts[i]), e[1])), NIL)),
        LT([G("lambda"), NIL], LT(body, NIL)),
      ),
    );
  },
  guard: (x) => {
    const [spec, ...body] = items(x.cdr, x, "guard");
    if (!(spec instanceof Pair) || !isIdent(spec.car)) bad("guard", x);
    const v = spec.car as Ident;
    const clauses = items(spec.cdr, x, "guard");
    const last = clauses.length ? items(clauses[clauses.length - 1], x, "guard clause") : [];
    const hasElse = last.length > 0 && isNamed(last[0], "else");
    const all = hasElse ? clauses : [...clauses, L(G("else"), L(G("%reraise"), v))];
    return L(
      G("%guard"),
      LT([G("lambda"), NIL], LT(body, NIL)),
      L(G("lambda"), L(v), LT([G("cond")], LT(all, NIL))),
    );
  },
  "let-values": (x) => letValues(x),
  "let*-values": (x) => letValues(x),
  "define-values": (x) => {
    const [formals, expr] = items(x.cdr, x, "define-values");
    const defs: unknown[] = [];
    const sets: unknown[] = [];
    const mapFormals = (f: unknown): unknown => {
      if (f instanceof Pair) return new Pair(mapFormals(f.car), mapFormals(f.cdr));
      if (isIdent(f)) {
        const t = fresh("v");
        defs.push(L(G("define"), f, false));
        sets.push(L(G("set!"), f, t));
        return t;
      }
      return f;
    };
    const tf = mapFormals(formals);
    return LT(
      [G("begin")],
      LT(
        defs,
        L(L(
          G("call-with-values"),
          L(G("lambda"), NIL, expr),
          LT([G("lambda"), tf], LT(sets, L(undefined))),
        )),
      ),
    );
  },
  receive: (x) => {
    const [formals, expr, ...body] = items(x.cdr, x, "receive");
    return L(
      G("call-with-values"),
      L(G("lambda"), NIL, expr),
      LT([G("lambda"), formals], LT(body, NIL)),
    );
  },
  import: (x) => importForms(x),
  "cond-expand": (x) => {
    for (const c of items(x.cdr, x, "cond-expand")) {
      const [req, ...body] = items(c, x, "cond-expand clause");
      if (isNamed(req, "else") || featureMatch(req, x)) return LT([G("begin")], LT(body, NIL));
    }
    return L(G("begin"));
  },
  assert: (x) => {
    const [e] = items(x.cdr, x, "assert");
    return L(G("if"), e, true, L(G("error"), "assertion failed:", L(G("quote"), e)));
  },
  "define-record-type": (x) => {
    const [tname, ctor, pred, ...fields] = items(x.cdr, x, "define-record-type");
    const typeId = tname instanceof Pair ? tname.car : tname;
    if (!isIdent(typeId)) bad("define-record-type", x);
    const fs = fields.map((f) => (isIdent(f) ? [f] : items(f, x, "record field")));
    const fieldNames = fs.map((f) => rootSym(f[0] as Ident));
    const out: unknown[] = [
      L(
        G("define"),
        typeId,
        L(
          G("%make-record-type"),
          L(G("quote"), rootSym(typeId as Ident)),
          L(G("quote"), LT(fieldNames, NIL)),
        ),
      ),
    ];
    if (ctor instanceof Pair) {
      const cargs = items(ctor.cdr, x, "record constructor").map((a) => rootSym(a as Ident));
      out.push(
        L(
          G("define"),
          ctor.car,
          L(G("%record-constructor"), typeId, L(G("quote"), LT(cargs, NIL))),
        ),
      );
    } else if (isIdent(ctor)) {
      out.push(
        L(
          G("define"),
          ctor,
          L(G("%record-constructor"), typeId, L(G("quote"), LT(fieldNames, NIL))),
        ),
      );
    }
    if (isIdent(pred)) out.push(L(G("define"), pred, L(G("%record-predicate"), typeId)));
    for (const f of fs) {
      const q = L(G("quote"), rootSym(f[0] as Ident));
      if (f[1] !== undefined) out.push(L(G("define"), f[1], L(G("%record-accessor"), typeId, q)));
      if (f[2] !== undefined) out.push(L(G("define"), f[2], L(G("%record-modifier"), typeId, q)));
    }
    return LT([G("begin")], LT(out, NIL));
  },
};

/** `(library name)` and `(import name)` spell a library as a list: its key is "scheme base". */
export function libraryKey(name: unknown, form: unknown): string {
  const parts = items(stripAll(name), form, "library name");
  return parts.map((p) => (p instanceof Sym ? p.name : String(p))).join(" ");
}

function featureMatch(req: unknown, form: unknown): boolean {
  if (isIdent(req)) return FEATURES.includes(rootSym(req).name);
  if (!(req instanceof Pair) || !isIdent(req.car)) return bad("cond-expand requirement", form);
  const args = items(req.cdr, form, "cond-expand requirement");
  switch (rootSym(req.car).name) {
    case "and":
      return args.every((a) => featureMatch(a, form));
    case "or":
      return args.some((a) => featureMatch(a, form));
    case "not":
      return !featureMatch(args[0], form);
    case "library":
      return isKnownLibrary(libraryKey(args[0], form), curCtx!.env);
  }
  return bad("cond-expand requirement", form);
}

/** The exports of an import set after its `only` / `except` / `prefix` / `rename` modifiers. */
function importSet(set: unknown, form: unknown): { key: string; names: Map<Sym, Sym> | null } {
  if (set instanceof Pair && isIdent(set.car)) {
    const op = rootSym(set.car).name;
    if (op === "only" || op === "except" || op === "prefix" || op === "rename") {
      const [inner, ...args] = items(set.cdr, form, "import set");
      const r = importSet(inner, form);
      if (r.names === null) return r; // always-present library: modifiers have nothing to rename
      const names = new Map<Sym, Sym>();
      const ids = args.map((a) => (isIdent(a) ? rootSym(a).name : ""));
      for (const [to, from] of r.names) {
        if (op === "only" && !ids.includes(to.name)) continue;
        if (op === "except" && ids.includes(to.name)) continue;
        let name = to;
        if (op === "prefix") name = intern(ids[0] + to.name);
        if (op === "rename") {
          const pair = args.map((a) => items(a, form, "rename"))
            .find((p) => isIdent(p[0]) && rootSym(p[0]).name === to.name);
          if (pair) name = rootSym(pair[1] as Ident);
        }
        names.set(name, from);
      }
      return { key: r.key, names };
    }
  }
  const key = libraryKey(set, form);
  if (!isKnownLibrary(key, curCtx!.env)) {
    throw schemeError("syntax", `import: unknown library (${key})`);
  }
  if (key in LAZY) {
    const names = new Map<Sym, Sym>();
    for (const k of libraryHooks.load(key).keys()) names.set(k, k);
    return { key, names };
  }
  return { key, names: null };
}

function importForms(x: Pair): unknown {
  const env = curCtx!.env;
  const st = libraryState(env);
  const forms: unknown[] = [];
  for (const set of items(x.cdr, x, "import")) {
    const { key, names } = importSet(set, x);
    if (key in LAZY && names) {
      const exports = libraryHooks.load(key);
      for (const [to, from] of names) {
        const c = env.get(to);
        if (c instanceof Cell) c.value = exports.get(from);
        else env.table.set(to, new Cell(exports.get(from), to));
      }
    } else if (TEST_LIBRARIES.has(key)) {
      forms.push(...readAll(TEST_LIBRARY, "<test-library>", { internal: true }));
    } else if (st.sources.has(key) && !st.loaded.has(key)) {
      st.loaded.add(key);
      forms.push(...readAll(st.sources.get(key)!, `<library ${key}>`, { symbols: R.symbols }));
    }
  }
  return LT([G("begin")], LT(forms, NIL));
}

function letValues(x: Pair): unknown {
  const [bs, ...body] = items(x.cdr, x, "let-values");
  const b = items(bs, x, "let-values");
  if (b.length === 0) return LT([G("let"), NIL], LT(body, NIL));
  const [first, ...rest] = b;
  const [formals, expr] = items(first, x, "let-values binding");
  return L(
    G("call-with-values"),
    L(G("lambda"), NIL, expr),
    L(G("lambda"), formals, LT([G("let*-values"), LT(rest, NIL)], LT(body, NIL))),
  );
}

function qq(t: unknown, depth: number): unknown {
  if (t instanceof Pair) {
    // the expansion of each pair is charged, so a shared template cannot blow up
    alloc(16);
    if (--R.tick < 0) tickCheck();
    if (isNamed(t.car, "unquote")) {
      const arg = (t.cdr as Pair).car;
      if (depth === 1) return arg;
      return L(G("list"), L(G("quote"), G("unquote")), qq(arg, depth - 1));
    }
    if (isNamed(t.car, "quasiquote")) {
      return L(G("list"), L(G("quote"), G("quasiquote")), qq((t.cdr as Pair).car, depth + 1));
    }
    if (t.car instanceof Pair && isNamed(t.car.car, "unquote-splicing")) {
      const arg = (t.car.cdr as Pair).car;
      const rest = qq(t.cdr, depth);
      if (depth === 1) return L(G("append"), arg, rest);
      return L(
        G("cons"),
        L(G("list"), L(G("quote"), G("unquote-splicing")), qq(arg, depth - 1)),
        rest,
      );
    }
    return L(G("cons"), qq(t.car, depth), qq(t.cdr, depth));
  }
  if (Array.isArray(t)) {
    let l: unknown = NIL;
    for (let i = t.length - 1; i >= 0; i--) l = new Pair(t[i], l);
    return L(G("list->vector"), qq(l, depth));
  }
  if (isIdent(t) || t === NIL) return L(G("quote"), t);
  return t;
}

/** Installs the derived-form macros into `env`. */
export function installDerivedForms(env: Environment): void {
  for (const [name, fn] of Object.entries(table)) {
    env.table.set(
      sym(name),
      new Macro(name, (form, ctx) => {
        const prev = curCtx;
        curCtx = ctx;
        try {
          return fn(form);
        } finally {
          curCtx = prev;
        }
      }),
    );
  }
}
