/**
 * Procedure calls: the fast operations on simple operands (`(+ a 1)`, `(< i n)`, scheme/nodes/
 * fastops.ts), the one-operand fast tests `if` uses, fused calls (fused_calls.ts), inlined
 * primitive calls and the general call node with its call site.
 *
 * @module
 */
import {
  apply,
  callWeight,
  type Cell,
  type Frame,
  NIL,
  type Node,
  Pair,
  Prim,
  R,
  type Site,
  weighted,
} from "../base/mod.ts";
import { type Block, isIdent, rootSym } from "./syntax.ts";
import {
  callAt,
  callErr,
  callNode,
  describe,
  fastIf1,
  fastOp,
  fusedCallNode,
  ifErr,
  isFastOp,
  isFastTest1,
  isFusableOp,
  type OperandShape,
  primCallNode,
  type Shape,
  type SimpleShape,
  tailAt,
} from "../nodes/mod.ts";
import { compile, type Ctx, listItems, locOf, lookup } from "./compiler.ts";

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
export function fastParts(
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
export function fastTest1(
  test: unknown,
  block: Block,
  ctx: Ctx,
  thenN: Node,
  elseN: Node,
): Node | null {
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

/** Compiles the procedure call `x`. */
export function compileCall(x: Pair, block: Block, tail: boolean, ctx: Ctx): Node {
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
