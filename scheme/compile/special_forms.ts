// deno-lint-ignore-file no-explicit-any
/**
 * The special forms: `quote`, `if`, `define`, `set!`, `lambda` and `named-lambda`, `begin`,
 * `let` (and named `let`), `letrec`, `let-syntax`, `define-syntax`, `case-lambda`, `guard`'s
 * core, `syntax-error` and `define-library`, each compiled to tree nodes (scheme/nodes/).
 *
 * @module
 */
import {
  CaseLambda,
  type Cell,
  Closure,
  type Frame,
  guardCall,
  Lambda,
  locations,
  NIL,
  type Node,
  Pair,
} from "../base/mod.ts";
import {
  Block,
  type Ident,
  isIdent,
  LamScope,
  Macro,
  rootSym,
  type Special,
  VarBinding,
} from "./syntax.ts";
import { freezeLiteral, stripAll } from "./literals.ts";
import { libraryState } from "../lib/mod.ts";
import { libraryKey } from "./expander.ts";
import { describe, fastIf, ifErr, letErr, letFrom, type SimpleShape } from "../nodes/mod.ts";
import { warmUp } from "../jit/mod.ts";
import {
  assignNode,
  compile,
  compileBody,
  compileNamed,
  constNode,
  type Ctx,
  defineSyntax,
  expandMacro,
  globalCell,
  headOf,
  listItems,
  locOf,
  lookup,
  makeTransformer,
  parseDefine,
  seqNode,
  setter,
  SPECIAL_LAMBDA,
  SPECIAL_LETREC,
  syntaxErr,
} from "./compiler.ts";
import { fastParts, fastTest1 } from "./call_forms.ts";

// ------------------------------------------------------------------------------------------
// Special forms

/** Compiles the use `x` of special form `sp`. */
export function compileSpecial(sp: Special, x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
  switch (sp.name) {
    case "quote": {
      const items = listItems(x.cdr, x);
      if (items.length !== 1) syntaxErr("bad quote", x);
      return constNode(freezeLiteral(stripAll(items[0])));
    }
    case "if":
      return compileIf(x, block, tail, ctx);
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
    case "letrec-syntax":
      return compileLetSyntax(sp, x, block, tail, ctx);
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
    case "define-library":
      return compileDefineLibrary(x, block, ctx);
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

/** Compiles `(lambda formals body…)` as a procedure named `name`. */
export function compileLambda(x: Pair, block: Block, ctx: Ctx, name: string): Node {
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
    const lam = new Pair(SPECIAL_LAMBDA(), new Pair(listToPairs(bs.map((b) => b[0])), r2.cdr));
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

/** `(if test then [else])`, with the fast tests of scheme/nodes/fastops.ts. */
function compileIf(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
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

/** `let-syntax` / `letrec-syntax`: macros bound in a new block around the body. */
function compileLetSyntax(sp: Special, x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
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

/** `define-library`: its definitions go into the global environment; its name becomes importable. */
function compileDefineLibrary(x: Pair, block: Block, ctx: Ctx): Node {
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
