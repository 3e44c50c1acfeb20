// deno-lint-ignore-file no-explicit-any
/**
 * The compiler: turns (macro-expanded) S-expressions into JS closures (`Node`s) over flat,
 * lexically addressed frames. `let` variables are allocated in the enclosing lambda's frame.
 * Every node that evaluates a sub-expression before doing more work catches a `Capture`
 * and pushes a resumable `KF` (resume.ts, calls.ts); call sites also append Scheme backtrace frames to errors.
 *
 * @module
 */
import {
  alloc,
  apply,
  callWeight,
  CaseLambda,
  Cell,
  Closure,
  type Environment,
  type Frame,
  guardCall,
  Lambda,
  LazyDefinition,
  lazyHooks,
  type Loc,
  locations,
  NIL,
  type Node,
  Pair,
  Prim,
  R,
  SchemeError,
  schemeError,
  SchemeLimitError,
  type Site,
  type Sym,
  tickCheck,
  UNBOUND,
  weighted,
} from "./base/mod.ts";
import {
  Alias,
  Block,
  type Ident,
  inheritLoc,
  isIdent,
  LamScope,
  Macro,
  rootSym,
  Special,
  VarBinding,
} from "./syntax.ts";
import { makeSyntaxRules } from "./syntax_rules.ts";
import { codeItems, freezeLiteral, stripAll } from "./literals.ts";
import { libraryState } from "./libraries.ts";
import { libraryKey } from "./expander.ts";
import { fastIf, fastIf1, fastOp, isFastOp, isFastTest1, type Shape } from "./fastops.ts";
import { callAt, callErr, callNode, primCallNode, tailAt, unbound } from "./calls.ts";
import { fusedCallNode, isFusableOp, type OperandShape, type SimpleShape } from "./fused_calls.ts";
import { describe } from "./ir.ts";
import { ifErr, letErr, letFrom, seqErr, seqFrom, setErr } from "./resume.ts";
import { warmUp } from "./jit.ts";

/** Compile context. */
export interface Ctx {
  /** Global environment. */
  env: Environment;
  /** Current nesting of compile calls. */
  depth: number;
}

type Resolved =
  | { t: "local"; depth: number; slot: number }
  | { t: "macro"; m: Macro }
  | { t: "special"; s: Special }
  | { t: "global"; cell: Cell };

/** Returns (creating if needed) the global cell for `s` in `env`. */
export function globalCell(env: Environment, s: Sym): Cell {
  const v = env.get(s);
  if (v instanceof Cell) return v;
  const c = new Cell(UNBOUND, s);
  if (v === undefined) env.table.set(s, c);
  return c;
}

function lookup(id: Ident, block: Block | null, from: LamScope, env: Environment): Resolved {
  for (let b = block; b; b = b.parent) {
    const bd = b.vars.get(id);
    if (bd !== undefined) {
      if (bd instanceof Macro) return { t: "macro", m: bd };
      let d = 0;
      for (let l: LamScope | null = from; l !== bd.lam; l = l.parent) {
        if (!l) throw schemeError("syntax", "internal: bad scope for", [rootSym(id)]);
        d++;
      }
      return { t: "local", depth: d, slot: bd.slot };
    }
  }
  if (id instanceof Alias) return lookup(id.orig, id.block, from, id.env ?? env);
  const v = env.get(id);
  if (v instanceof Macro) return { t: "macro", m: v };
  if (v instanceof Special) return { t: "special", s: v };
  const cell = globalCell(env, id);
  if (cell.value instanceof LazyDefinition) lazyHooks.force(cell);
  return { t: "global", cell };
}

let curLoc: Loc | undefined = undefined;

function syntaxErr(msg: string, form: unknown, irritants: unknown[] = [form]): never {
  const e = schemeError("syntax", msg, irritants.map(stripAll), locOf(form) ?? curLoc);
  throw e;
}

/** Nearest recorded source location of a form. */
export function locOf(form: unknown): Loc | undefined {
  return form instanceof Pair ? locations.get(form) : undefined;
}

function listItems(x: unknown, form: unknown): unknown[] {
  try {
    return codeItems(x, form);
  } catch (e) {
    const p = e instanceof SchemeError ? e.payload as any : null;
    if (p && p.loc === undefined) p.loc = locOf(form) ?? curLoc;
    throw e;
  }
}

/** Compiles expression `x` in `block`. */
export function compile(x: unknown, block: Block, tail: boolean, ctx: Ctx): Node {
  if (isIdent(x)) return compileRef(x, block, ctx, x);
  if (x instanceof Pair) {
    if (++ctx.depth > 1500) {
      throw new SchemeLimitError("depth", "expression nesting too deep");
    }
    // compiling is work and memory too: a macro that doubles its output must meet the limits
    if (--R.tick < 0) tickCheck();
    alloc(COMPILED_NODE_CELLS);
    const saved = curLoc;
    curLoc = locations.get(x) ?? curLoc;
    try {
      return compilePair(x, block, tail, ctx);
    } finally {
      ctx.depth--;
      curLoc = saved;
    }
  }
  if (x === NIL) syntaxErr("bad syntax: empty combination ()", x);
  const v = Array.isArray(x) || x instanceof Uint8Array ? freezeLiteral(stripAll(x)) : x;
  return constNode(v);
}

/** Cells charged per compiled form (a node is a few closures and arrays). */
const COMPILED_NODE_CELLS = 8;

/** Expands a macro use once, charging fuel and keeping the source location. */
export function expandMacro(m: Macro, x: Pair, block: Block | null, ctx: Ctx): unknown {
  if (--R.tick < 0) tickCheck();
  let y;
  try {
    y = m.expand(x, { block, env: ctx.env });
  } catch (e) {
    if (e instanceof SchemeError && !(e instanceof SchemeLimitError)) {
      const p = e.payload as any;
      if (p && p.loc === undefined && locOf(x)) p.loc = locOf(x);
    }
    throw e;
  }
  inheritLoc(y, x);
  return y;
}

function headOf(x: Pair, block: Block, ctx: Ctx): Special | Macro | null {
  const h = x.car;
  if (h instanceof Special || h instanceof Macro) return h;
  if (isIdent(h)) {
    const r = lookup(h, block, block.lam, ctx.env);
    if (r.t === "special") return r.s;
    if (r.t === "macro") return r.m;
  }
  return null;
}

function compilePair(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  const h = headOf(x, block, ctx);
  if (h instanceof Special) return compileSpecial(h, x, block, tail, ctx);
  if (h instanceof Macro) return compile(expandMacro(h, x, block, ctx), block, tail, ctx);
  return compileCall(x, block, tail, ctx);
}

function compileRef(id: Ident, block: Block, ctx: Ctx, form: unknown): Node {
  const r = lookup(id, block, block.lam, ctx.env);
  switch (r.t) {
    case "local": {
      const s = r.slot;
      return describe(localRef(r.depth, s), { k: "local", depth: r.depth, slot: s });
    }
    case "global": {
      const cell = r.cell;
      return describe(() => {
        const v = cell.value;
        if (v === UNBOUND) unbound(cell);
        return v;
      }, { k: "global", cell });
    }
    default:
      return syntaxErr(`bad syntax: keyword used as a variable: ${rootSym(id).name}`, form, []);
  }
}

function localRef(depth: number, s: number): Node {
  switch (depth) {
    case 0:
      return (f: any) => f[s];
    case 1:
      return (f: any) => f[0][s];
    case 2:
      return (f: any) => f[0][0][s];
    case 3:
      return (f: any) => f[0][0][0][s];
    default:
      return (f: any) => {
        for (let i = 0; i < depth; i++) f = f[0];
        return f[s];
      };
  }
}

/** A node answering `v`. */
function constNode(v: unknown): Node {
  return describe(() => v, { k: "const", value: v });
}

function setter(
  r: Resolved,
  id: Ident,
  form: unknown,
  define: boolean,
): (f: any, v: unknown) => void {
  if (r.t === "local") {
    const s = r.slot, d = r.depth;
    if (d === 0) return (f, v) => void (f[s] = v);
    if (d === 1) return (f, v) => void (f[0][s] = v);
    return (f, v) => {
      for (let i = 0; i < d; i++) f = f[0];
      f[s] = v;
    };
  }
  if (r.t === "global") {
    const cell = r.cell;
    if (define) return (_f, v) => void (cell.value = v);
    return (_f, v) => {
      if (cell.value === UNBOUND) unbound(cell);
      cell.value = v;
    };
  }
  return syntaxErr(`bad syntax: cannot assign keyword ${rootSym(id).name}`, form, []);
}

function assignNode(valN: Node, set: (f: any, v: unknown) => void): Node {
  return describe((f) => {
    let v;
    try {
      v = valN(f);
    } catch (e) {
      throw setErr(e, f, set);
    }
    set(f, v);
    return undefined;
  }, { k: "set", value: valN, set });
}

// ------------------------------------------------------------------------------------------
// Sequences

function seqNode(nodes: Node[]): Node {
  if (nodes.length === 0) return constNode(undefined);
  if (nodes.length === 1) return nodes[0];
  return describe(seqTree(nodes), { k: "seq", nodes });
}

function seqTree(nodes: Node[]): Node {
  if (nodes.length === 2) {
    const [a, b] = nodes;
    return (f) => {
      try {
        a(f);
      } catch (e) {
        throw seqErr(e, f, nodes, 0);
      }
      return b(f);
    };
  }
  return (f) => seqFrom(f, nodes, 0);
}

// ------------------------------------------------------------------------------------------
// Bodies and definitions

type BodyItem = { def: Ident; form: unknown; name: string } | { expr: unknown };

function parseDefine(x: Pair): { id: Ident; value: unknown; name: string } {
  const rest = x.cdr;
  if (!(rest instanceof Pair)) syntaxErr("bad define", x);
  let target = rest.car;
  let body = rest.cdr;
  // (define ((f a) b) ...) curried
  while (target instanceof Pair) {
    const lam = new Pair(
      SPECIAL_LAMBDA(),
      new Pair(target.cdr, body),
    );
    locations.set(lam, locOf(x)!);
    body = new Pair(lam, NIL);
    target = target.car;
  }
  if (!isIdent(target)) syntaxErr("bad define: expected identifier", x);
  let value: unknown = undefined;
  if (body instanceof Pair) {
    if (body.cdr !== NIL && !(rest.car instanceof Pair)) syntaxErr("bad define", x);
    value = body.car;
  } else if (body !== NIL) syntaxErr("bad define", x);
  return { id: target, value, name: rootSym(target).name };
}

let lambdaSpecial: Special | null = null;
function SPECIAL_LAMBDA(): Special {
  return lambdaSpecial!;
}

/** Compiles a body (internal definitions then expressions) in `block`. */
export function compileBody(
  forms: unknown,
  block: Block,
  tail: boolean,
  ctx: Ctx,
  top = false,
): Node {
  const items: BodyItem[] = [];
  const scan = (form: unknown): void => {
    if (--R.tick < 0) tickCheck();
    alloc(1);
    for (;;) {
      if (form instanceof Pair) {
        const h = headOf(form, block, ctx);
        if (h instanceof Macro) {
          form = expandMacro(h, form, block, ctx);
          continue;
        }
        if (h instanceof Special) {
          switch (h.name) {
            case "begin":
              for (const sub of listItems(form.cdr, form)) scan(sub);
              return;
            case "define": {
              const d = parseDefine(form);
              if (!top) block.vars.set(d.id, new VarBinding(block.lam, block.lam.size++));
              items.push({ def: d.id, form: d.value, name: d.name });
              return;
            }
            case "define-syntax":
              defineSyntax(form, block, ctx, top);
              return;
          }
        }
      }
      items.push({ expr: form });
      return;
    }
  };
  for (const f of listItems(forms, forms)) scan(f);
  const nodes: Node[] = [];
  items.forEach((it, i) => {
    const isLast = i === items.length - 1;
    if ("def" in it) {
      const valN = it.form === undefined
        ? constNode(undefined)
        : compileNamed(it.form, block, ctx, it.name);
      const id = top ? rootSym(it.def) : it.def;
      const r = top
        ? { t: "global" as const, cell: globalCell(ctx.env, id as Sym) }
        : lookup(id, block, block.lam, ctx.env);
      nodes.push(assignNode(valN, setter(r, id, it.form, true)));
    } else nodes.push(compile(it.expr, block, tail && isLast, ctx));
  });
  if (nodes.length === 0) return constNode(undefined);
  return seqNode(nodes);
}

function compileNamed(form: unknown, block: Block, ctx: Ctx, name: string): Node {
  if (form instanceof Pair && headOf(form, block, ctx) === lambdaSpecial) {
    return compileLambda(form, block, ctx, name);
  }
  return compile(form, block, false, ctx);
}

function defineSyntax(form: Pair, block: Block, ctx: Ctx, top: boolean): void {
  const items = listItems(form.cdr, form);
  if (items.length !== 2 || !isIdent(items[0])) syntaxErr("bad define-syntax", form);
  const m = makeTransformer(items[1], block, ctx, rootSym(items[0] as Ident).name);
  if (top) ctx.env.table.set(rootSym(items[0] as Ident), m);
  else block.vars.set(items[0] as Ident, m);
}

function makeTransformer(spec: unknown, block: Block, ctx: Ctx, name: string): Macro {
  if (spec instanceof Pair) {
    const h = headOf(spec, block, ctx);
    if (h instanceof Special && h.name === "syntax-rules") {
      return makeSyntaxRules(spec, block.vars.size || block.parent ? block : null, ctx.env, name);
    }
  }
  if (isIdent(spec)) {
    const r = lookup(spec, block, block.lam, ctx.env);
    if (r.t === "macro") return r.m;
  }
  return syntaxErr("bad syntax transformer (expected syntax-rules)", spec);
}

// ------------------------------------------------------------------------------------------
// Special forms

function compileSpecial(sp: Special, x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  switch (sp.name) {
    case "quote": {
      const items = listItems(x.cdr, x);
      if (items.length !== 1) syntaxErr("bad quote", x);
      return constNode(freezeLiteral(stripAll(items[0])));
    }
    case "if": {
      const items = listItems(x.cdr, x);
      if (items.length < 2 || items.length > 3) syntaxErr("bad if", x);
      const test = compile(items[0], block, false, ctx);
      const thenN = compile(items[1], block, tail, ctx);
      const elseN = items.length === 3 ? compile(items[2], block, tail, ctx) : constNode(undefined);
      const t1 = fastTest1(items[0], block, ctx, thenN, elseN);
      if (t1) return t1;
      const fp = fastParts(items[0], block, ctx, false, true);
      if (fp && fp.op !== "+" && fp.op !== "-") {
        const slow = (f: Frame, a: unknown, b: unknown) => {
          let t;
          try {
            t = fp.slow(f, a, b);
          } catch (e) {
            throw ifErr(e, f, thenN, elseN);
          }
          return t !== false ? thenN(f) : elseN(f);
        };
        const [sa, sb] = [fp.sa as SimpleShape, fp.sb as SimpleShape]; // simpleOnly above
        return fastIf(fp.op, sa, sb, fp.cell as Cell, fp.prim, slow, thenN, elseN);
      }
      return describe((f) => {
        let t;
        try {
          t = test(f);
        } catch (e) {
          throw ifErr(e, f, thenN, elseN);
        }
        return t !== false ? thenN(f) : elseN(f);
      }, { k: "if", test, then: thenN, else: elseN });
    }
    case "define": {
      const d = parseDefine(x);
      if (block.parent !== null || block.vars.size) {
        syntaxErr("bad syntax: definition in expression context", x);
      }
      const id = rootSym(d.id);
      const valN = d.value === undefined
        ? constNode(undefined)
        : compileNamed(d.value, block, ctx, d.name);
      return assignNode(valN, setter({ t: "global", cell: globalCell(ctx.env, id) }, id, x, true));
    }
    case "set!": {
      const items = listItems(x.cdr, x);
      if (items.length !== 2 || !isIdent(items[0])) syntaxErr("bad set!", x);
      const id = items[0] as Ident;
      const r = lookup(id, block, block.lam, ctx.env);
      return assignNode(compile(items[1], block, false, ctx), setter(r, id, x, false));
    }
    case "lambda":
      return compileLambda(x, block, ctx, "lambda");
    case "named-lambda": {
      const rest = x.cdr as Pair;
      if (!(rest instanceof Pair) || !(rest.car instanceof Pair)) syntaxErr("bad named-lambda", x);
      const spec = rest.car as Pair;
      return compileLambda(
        new Pair(x.car, new Pair(spec.cdr, rest.cdr)),
        block,
        ctx,
        String(rootSym(spec.car as Ident).name),
      );
    }
    case "begin": {
      if (x.cdr === NIL) return constNode(undefined);
      if (block.parent === null && block.vars.size === 0) {
        return compileBody(x.cdr, block, tail, ctx, true);
      }
      return seqNode(
        listItems(x.cdr, x).map((e, i, a) => compile(e, block, tail && i === a.length - 1, ctx)),
      );
    }
    case "let":
      return compileLet(x, block, tail, ctx);
    case "letrec":
    case "letrec*":
      return compileLetrec(x, block, tail, ctx);
    case "let-syntax":
    case "letrec-syntax": {
      const items = listItems(x.cdr, x);
      if (items.length < 1) syntaxErr("bad " + sp.name, x);
      const nb = new Block(block, block.lam);
      for (const b of listItems(items[0], x)) {
        const bi = listItems(b, x);
        if (bi.length !== 2 || !isIdent(bi[0])) syntaxErr("bad syntax binding", x);
        nb.vars.set(
          bi[0] as Ident,
          makeTransformer(
            bi[1],
            sp.name === "letrec-syntax" ? nb : block,
            ctx,
            rootSym(bi[0] as Ident).name,
          ),
        );
      }
      return compileBody(listToPairs(items.slice(1)), nb, tail, ctx);
    }
    case "define-syntax": {
      if (block.parent !== null || block.vars.size) {
        syntaxErr("bad syntax: define-syntax in expression context", x);
      }
      defineSyntax(x, block, ctx, true);
      return constNode(undefined);
    }
    case "case-lambda": {
      const clauses = listItems(x.cdr, x).map((c) => {
        if (!(c instanceof Pair)) syntaxErr("bad case-lambda clause", x);
        return lambdaParts(c.car, c.cdr, block, ctx, "case-lambda", x);
      });
      return (f) => new CaseLambda(clauses.map((L) => new Closure(L, f)), "case-lambda");
    }
    case "%guard": {
      const items = listItems(x.cdr, x);
      const t = compile(items[0], block, false, ctx), h = compile(items[1], block, false, ctx);
      return (f) => guardCall(t(f), h(f));
    }
    case "syntax-error": {
      const items = listItems(x.cdr, x);
      return syntaxErr(
        String(typeof items[0] === "string" ? items[0] : "syntax error"),
        x,
        items.slice(1),
      );
    }
    case "define-library": {
      // the library's definitions go into the global environment; its name becomes importable
      const [name, ...decls] = listItems(x.cdr, x);
      const bodies: unknown[] = [];
      const declare = (d: unknown): void => {
        if (!(d instanceof Pair) || !isIdent(d.car)) return;
        const kind = rootSym(d.car).name;
        if (kind === "begin") bodies.push(...listItems(d.cdr, d));
        else if (kind === "import") bodies.unshift(d);
        else if (kind === "cond-expand") {
          const h = headOf(d, block, ctx);
          const e = h instanceof Macro ? expandMacro(h, d, block, ctx) : null;
          if (e instanceof Pair) { for (const sub of listItems(e.cdr, e)) declare(sub); }
        } else if (kind === "export" || kind === "include" || kind === "include-ci") {
          if (kind !== "export") syntaxErr(`define-library: ${kind} is not supported`, d);
        }
      };
      for (const d of decls) declare(d);
      libraryState(ctx.env).defined.add(libraryKey(name, x));
      return compileBody(listToPairs(bodies), block, false, ctx, true);
    }
    case "syntax-rules":
      return syntaxErr("bad syntax: syntax-rules outside define-syntax", x);
    default:
      return syntaxErr(`unsupported special form ${sp.name}`, x);
  }
}

function listToPairs(a: unknown[]): unknown {
  let r: unknown = NIL;
  for (let i = a.length - 1; i >= 0; i--) r = new Pair(a[i], r);
  return r;
}

function lambdaParts(
  formals: unknown,
  body: unknown,
  block: Block,
  ctx: Ctx,
  name: string,
  form: unknown,
): Lambda {
  const lam = new LamScope(block.lam);
  const b = new Block(block, lam);
  let nreq = 0;
  let rest = false;
  let p = formals;
  while (p instanceof Pair) {
    if (!isIdent(p.car)) syntaxErr("bad lambda parameter", form);
    if (b.vars.has(p.car)) syntaxErr("duplicate lambda parameter", form);
    b.vars.set(p.car, new VarBinding(lam, lam.size++));
    nreq++;
    p = p.cdr;
  }
  if (p !== NIL) {
    if (!isIdent(p)) syntaxErr("bad lambda parameter list", form);
    b.vars.set(p, new VarBinding(lam, lam.size++));
    rest = true;
  }
  if (body === NIL) syntaxErr("bad lambda: empty body", form);
  lam.nestBase = ctx.depth;
  const bodyN = compileBody(body, b, true, ctx);
  const L = new Lambda(nreq, rest, lam.size, bodyN, name, locOf(form));
  warmUp(L);
  return L;
}

function compileLambda(x: Pair, block: Block, ctx: Ctx, name: string): Node {
  const rest = x.cdr;
  if (!(rest instanceof Pair)) syntaxErr("bad lambda", x);
  const L = lambdaParts(rest.car, rest.cdr, block, ctx, name, x);
  return describe((f) => new Closure(L, f), { k: "closure", lambda: L });
}

function letNode(slots: number[], inits: Node[], body: Node): Node {
  return describe(letTree(slots, inits, body), { k: "let", slots, inits, body });
}

function letTree(slots: number[], inits: Node[], body: Node): Node {
  if (inits.length === 1) {
    const s = slots[0], init = inits[0];
    return (f: any) => {
      let v;
      try {
        v = init(f);
      } catch (e) {
        throw letErr(e, f, slots, inits, 0, body);
      }
      f[s] = v;
      return body(f);
    };
  }
  return (f) => letFrom(f, slots, inits, 0, body);
}

function bindings(x: unknown, form: Pair): [Ident, unknown][] {
  return listItems(x, form).map((b) => {
    if (isIdent(b)) return [b, undefined] as [Ident, unknown];
    const bi = listItems(b, form);
    if (bi.length < 1 || bi.length > 2 || !isIdent(bi[0])) syntaxErr("bad binding", form);
    return [bi[0] as Ident, bi[1]] as [Ident, unknown];
  });
}

function compileLet(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  const rest = x.cdr;
  if (!(rest instanceof Pair)) syntaxErr("bad let", x);
  if (isIdent(rest.car)) {
    // named let: ((letrec ((name (lambda (vars) body))) name) inits...)
    const name = rest.car;
    const r2 = rest.cdr;
    if (!(r2 instanceof Pair)) syntaxErr("bad named let", x);
    const bs = bindings(r2.car, x);
    const lam = new Pair(lambdaSpecial, new Pair(listToPairs(bs.map((b) => b[0])), r2.cdr));
    locations.set(lam, locOf(x)!);
    const lr = listToPairs([
      SPECIAL_LETREC(),
      listToPairs([listToPairs([name, lam])]),
      name,
    ]);
    const call = new Pair(lr, listToPairs(bs.map((b) => b[1])));
    locations.set(call, locOf(x)!);
    return compile(call, block, tail, ctx);
  }
  const bs = bindings(rest.car, x);
  const inits = bs.map(([id, init]) =>
    init === undefined ? constNode(undefined) : compileNamed(init, block, ctx, rootSym(id).name)
  );
  const nb = new Block(block, block.lam);
  const slots = bs.map(([id]) => {
    const s = block.lam.size++;
    nb.vars.set(id, new VarBinding(block.lam, s));
    return s;
  });
  const body = compileBody(rest.cdr, nb, tail, ctx);
  if (bs.length === 0) return body;
  return letNode(slots, inits, body);
}

let letrecSpecial: Special | null = null;
function SPECIAL_LETREC(): Special {
  return letrecSpecial!;
}

function compileLetrec(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  const rest = x.cdr;
  if (!(rest instanceof Pair)) syntaxErr("bad letrec", x);
  const bs = bindings(rest.car, x);
  const nb = new Block(block, block.lam);
  const slots = bs.map(([id]) => {
    const s = block.lam.size++;
    nb.vars.set(id, new VarBinding(block.lam, s));
    return s;
  });
  const inits = bs.map(([id, init]) =>
    init === undefined ? constNode(undefined) : compileNamed(init, nb, ctx, rootSym(id).name)
  );
  const body = compileBody(rest.cdr, nb, tail, ctx);
  if (bs.length === 0) return body;
  return letNode(slots, inits, body);
}

/** Registers the special-form objects the compiler synthesises forms with. */
export function initCompiler(lambda: Special, letrec: Special): void {
  lambdaSpecial = lambda;
  letrecSpecial = letrec;
}

// ------------------------------------------------------------------------------------------
// Calls

interface FastParts {
  op: string;
  sa: Shape;
  sb: Shape;
  cell: Cell;
  prim: Prim;
  slow: (f: Frame, a: unknown, b: unknown) => unknown;
  onErr: (e: unknown, f: Frame, step: number, a: unknown, b: unknown) => unknown;
}

/**
 * Recognises `(op a b)` with a fast operator (see fastops.ts). Operands that are not simple
 * become "N" shapes unless `simpleOnly`.
 */
function fastParts(
  x: unknown,
  block: Block,
  ctx: Ctx,
  tail: boolean,
  simpleOnly: boolean,
): FastParts | null {
  if (!(x instanceof Pair) || !isIdent(x.car)) return null;
  const args = x.cdr;
  if (!(args instanceof Pair) || !(args.cdr instanceof Pair) || args.cdr.cdr !== NIL) return null;
  const r = lookup(x.car, block, block.lam, ctx.env);
  if (r.t !== "global" || !(r.cell.value instanceof Prim)) return null;
  const p = r.cell.value;
  if (!isFastOp(p.name) || !p.f2) return null;
  const nodes = [
    compile(x.car, block, false, ctx),
    compile(args.car, block, false, ctx),
    compile(args.cdr.car, block, false, ctx),
  ];
  let sa = shapeOf(args.car, block, ctx), sb = shapeOf(args.cdr.car, block, ctx);
  if (simpleOnly && (!sa || !sb)) return null;
  sa ??= { k: "N", node: nodes[1] };
  sb ??= { k: "N", node: nodes[2] };
  const cell = r.cell;
  const f2 = p.f2;
  const site: Site = { name: p.name, loc: locOf(x) };
  const slow = (_f: Frame, a: unknown, b: unknown) => {
    const v = cell.value;
    if (tail && v !== p) return tailAt(v, [a, b], site);
    const st = R;
    const sp = st.sp;
    st.sites[sp] = site;
    st.sp = sp + 1;
    const r = v === p ? f2(a, b) : apply(v, [a, b]);
    st.sp = sp;
    return r;
  };
  const onErr = (e: unknown, f: Frame, step: number, a: unknown, b: unknown) =>
    callErr(e, f, step, [cell.value, a, b], nodes, tail, site);
  return { op: p.name, sa, sb, cell, prim: p, slow, onErr };
}

/** `(if (null?|pair?|not x) ...)` on a simple operand, as one generated node (see fastops.ts). */
function fastTest1(test: unknown, block: Block, ctx: Ctx, thenN: Node, elseN: Node): Node | null {
  if (!(test instanceof Pair) || !isIdent(test.car)) return null;
  const args = test.cdr;
  if (!(args instanceof Pair) || args.cdr !== NIL) return null;
  const r = lookup(test.car, block, block.lam, ctx.env);
  if (r.t !== "global" || !(r.cell.value instanceof Prim)) return null;
  const p = r.cell.value;
  if (!isFastTest1(p.name)) return null;
  const sa = shapeOf(args.car, block, ctx);
  if (!sa || sa.k === "K") return null;
  const cell = r.cell;
  const site: Site = { name: p.name, loc: locOf(test) };
  const nodes = [compile(test.car, block, false, ctx), compile(args.car, block, false, ctx)];
  const slow = (f: Frame, a: unknown) => {
    let t;
    try {
      t = callAt(cell.value, [a], site);
    } catch (e) {
      throw callErr(ifErr(e, f, thenN, elseN), f, 2, [cell.value, a], nodes, false, site);
    }
    return t !== false ? thenN(f) : elseN(f);
  };
  return fastIf1(p.name, sa as SimpleShape, cell, p, slow, thenN, elseN, NIL, Pair);
}

/** The shape of a simple operand (local variable at depth 0/1, or small exact integer). */
function shapeOf(form: unknown, block: Block, ctx: Ctx): Shape | null {
  if (typeof form === "number") return { k: "K", value: form };
  if (isIdent(form)) {
    const r = lookup(form, block, block.lam, ctx.env);
    if (r.t === "local" && r.depth === 0) return { k: "L0", slot: r.slot };
    if (r.t === "local" && r.depth === 1) return { k: "L1", slot: r.slot };
  }
  return null;
}

function compileCall(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  const argForms = listItems(x.cdr, x);
  const n = argForms.length;
  const fnForm = x.car;
  const site: Site = {
    name: isIdent(fnForm)
      ? rootSym(fnForm).name
      : fnForm instanceof Prim
      ? fnForm.name
      : "(anonymous)",
    loc: locOf(x),
  };
  if (n === 2) {
    const fp = fastParts(x, block, ctx, tail, false);
    if (fp) {
      return fastOp(fp.op, fp.sa, fp.sb, fp.cell as Cell, fp.prim, fp.slow, fp.onErr);
    }
  }
  const fnN = compile(fnForm, block, false, ctx);
  const argNs = argForms.map((a) => compile(a, block, false, ctx));
  let gcell: Cell | null = null;
  if (isIdent(fnForm)) {
    const r = lookup(fnForm, block, block.lam, ctx.env);
    if (r.t === "global") {
      gcell = r.cell;
      const v = gcell.value;
      if (v instanceof Prim && (n === 1 || n === 2)) {
        const pn = primCallNode(v, gcell, fnN, argNs, tail, site);
        if (pn) return pn;
      }
    }
  }
  let node: Node | null = null;
  if (n >= 1 && n <= 3) {
    const shapes = argForms.map((form, i): OperandShape =>
      operandShape(form, block, ctx) ?? { k: "N", node: argNs[i] }
    );
    if (shapes.some((s) => s.k !== "N")) {
      node = fusedCallNode(fnN, shapes, [fnN, ...argNs], gcell, tail, site);
    }
  }
  node ??= callNode(fnN, argNs, gcell, tail, site);
  describe(node, { k: "call", nodes: [fnN, ...argNs], gcell, tail, site });
  // a call made deep inside expressions has their JS frames under it: it counts as more levels
  const w = tail ? 0 : callWeight(ctx.depth - block.lam.nestBase);
  return w === 0 ? node : describe(weighted(node, w), { k: "weighted", w, node });
}

/** How a fused call evaluates operand `form` inline (see fused_calls.ts), if it can. */
function operandShape(form: unknown, block: Block, ctx: Ctx): OperandShape | null {
  const s = shapeOf(form, block, ctx);
  if (s) return s as SimpleShape;
  const fp = fastParts(form, block, ctx, false, true);
  if (!fp || !isFusableOp(fp.op) || fp.sa.k === "N" || fp.sb.k === "N") return null;
  return {
    k: "F",
    op: fp.op,
    a: fp.sa as SimpleShape,
    b: fp.sb as SimpleShape,
    cell: fp.cell as Cell,
    prim: fp.prim,
    slow: fp.slow as (f: unknown[], a: unknown, b: unknown) => unknown,
  };
}

/** Compiles a top-level form: returns the node and the size of the toplevel frame. */
export function compileToplevel(form: unknown, env: Environment): { node: Node; size: number } {
  const lam = new LamScope(null);
  const block = new Block(null, lam);
  const ctx: Ctx = { env, depth: 0 };
  const node = compileBody(new Pair(form, NIL), block, true, ctx, true);
  return { node, size: lam.size };
}
