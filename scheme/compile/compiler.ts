// deno-lint-ignore-file no-explicit-any
/**
 * The compiler's core: turns (macro-expanded) S-expressions into JS closures (`Node`s) over
 * flat, lexically addressed frames. `let` variables are allocated in the enclosing lambda's
 * frame. Every node that evaluates a sub-expression before doing more work catches a `Capture`
 * and pushes a resumable `KF` (scheme/nodes/: resume.ts, calls.ts); call sites also append
 * Scheme backtrace frames to errors. Here: the compile context, variable lookup, references,
 * assignment, sequences, bodies and definitions, macro uses; the special forms are in
 * special_forms.ts, calls in call_forms.ts, the entry point in toplevel.ts.
 *
 * @module
 */
import {
  alloc,
  Cell,
  type Environment,
  LazyDefinition,
  lazyHooks,
  type Loc,
  locations,
  NIL,
  type Node,
  Pair,
  R,
  SchemeError,
  schemeError,
  SchemeLimitError,
  type Sym,
  tickCheck,
  UNBOUND,
} from "../base/mod.ts";
import {
  Alias,
  type Block,
  type Ident,
  inheritLoc,
  isIdent,
  type LamScope,
  Macro,
  rootSym,
  Special,
  VarBinding,
} from "./syntax.ts";
import { makeSyntaxRules } from "./syntax_rules.ts";
import { codeItems, freezeLiteral, stripAll } from "./literals.ts";
import { describe, seqErr, seqFrom, setErr, unbound } from "../nodes/mod.ts";

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

export function lookup(id: Ident, block: Block | null, from: LamScope, env: Environment): Resolved {
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

export function syntaxErr(msg: string, form: unknown, irritants: unknown[] = [form]): never {
  const e = schemeError("syntax", msg, irritants.map(stripAll), locOf(form) ?? curLoc);
  throw e;
}

/** Nearest recorded source location of a form. */
export function locOf(form: unknown): Loc | undefined {
  return form instanceof Pair ? locations.get(form) : undefined;
}

export function listItems(x: unknown, form: unknown): unknown[] {
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

export function headOf(x: Pair, block: Block, ctx: Ctx): Special | Macro | null {
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
  if (h instanceof Special) return forms.special(h, x, block, tail, ctx);
  if (h instanceof Macro) return compile(expandMacro(h, x, block, ctx), block, tail, ctx);
  return forms.call(x, block, tail, ctx);
}

export function compileRef(id: Ident, block: Block, ctx: Ctx, form: unknown): Node {
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

export function localRef(depth: number, s: number): Node {
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
export function constNode(v: unknown): Node {
  return describe(() => v, { k: "const", value: v });
}

export function setter(
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

export function assignNode(valN: Node, set: (f: any, v: unknown) => void): Node {
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

export function seqNode(nodes: Node[]): Node {
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

export function parseDefine(x: Pair): { id: Ident; value: unknown; name: string } {
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
/** The `lambda` special form (registered by {@link initCompiler}). */
export function SPECIAL_LAMBDA(): Special {
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

export function compileNamed(form: unknown, block: Block, ctx: Ctx, name: string): Node {
  if (form instanceof Pair && headOf(form, block, ctx) === lambdaSpecial) {
    return forms.lambda(form, block, ctx, name);
  }
  return compile(form, block, false, ctx);
}

export function defineSyntax(form: Pair, block: Block, ctx: Ctx, top: boolean): void {
  const items = listItems(form.cdr, form);
  if (items.length !== 2 || !isIdent(items[0])) syntaxErr("bad define-syntax", form);
  const m = makeTransformer(items[1], block, ctx, rootSym(items[0] as Ident).name);
  if (top) ctx.env.table.set(rootSym(items[0] as Ident), m);
  else block.vars.set(items[0] as Ident, m);
}

export function makeTransformer(spec: unknown, block: Block, ctx: Ctx, name: string): Macro {
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

/** Compiles one kind of form; the kinds of special_forms.ts and call_forms.ts. */
export interface Forms {
  /** A special form's use. */
  special(sp: Special, x: Pair, block: Block, tail: boolean, ctx: Ctx): Node;
  /** A procedure call. */
  call(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node;
  /** A `lambda` expression named `name`. */
  lambda(x: Pair, block: Block, ctx: Ctx, name: string): Node;
}

/**
 * The forms compiled in the compiler's other modules, which call back into {@link compile}:
 * bound once by toplevel.ts (so no module of the compiler imports one that imports it).
 */
export const forms: Forms = {
  special: unbound_forms,
  call: unbound_forms,
  lambda: unbound_forms,
};
function unbound_forms(): never {
  throw new Error("scheme/compile: the forms are not bound (import toplevel.ts)");
}

let letrecSpecial: Special | null = null;
/** The `letrec` special form (registered by {@link initCompiler}). */
export function SPECIAL_LETREC(): Special {
  return letrecSpecial!;
}

/** Registers the special-form objects the compiler synthesises forms with. */
export function initCompiler(lambda: Special, letrec: Special): void {
  lambdaSpecial = lambda;
  letrecSpecial = letrec;
}
