/**
 * Specialised nodes for the hottest primitive calls (`+ - < > <= >= =` on two operands that
 * are local variables or constants). Each (operator, operand shapes) combination gets its own
 * generated function — built from fixed templates, never from program text — so V8 sees a
 * monomorphic operator inside and no closure calls for the operands.
 *
 * @module
 */
import type { Cell, Node } from "../base/mod.ts";
import { describe, type SimpleOperand } from "./ir.ts";

/** Where an operand comes from. */
export type Shape =
  | { k: "L0"; slot: number }
  | { k: "L1"; slot: number }
  | { k: "K"; value: number }
  | { k: "N"; node: Node };

/**
 * The operators inlined on two numbers: their JS expression, given the JS names of the two
 * operands, and whether the result must be checked to be a safe integer (else the slow path
 * makes it exact). Shared with the fused call nodes (fused_calls.ts).
 */
export const OPS: Record<string, { expr: (a: string, b: string) => string; check: boolean }> = {
  "+": { expr: (a, b) => `${a} + ${b}`, check: true },
  "-": { expr: (a, b) => `${a} - ${b}`, check: true },
  "<": { expr: (a, b) => `${a} < ${b}`, check: false },
  ">": { expr: (a, b) => `${a} > ${b}`, check: false },
  "<=": { expr: (a, b) => `${a} <= ${b}`, check: false },
  ">=": { expr: (a, b) => `${a} >= ${b}`, check: false },
  "=": { expr: (a, b) => `${a} === ${b}`, check: false },
};

/** True if `name` has a specialised template. */
export function isFastOp(name: string): boolean {
  return name in OPS;
}

type Factory = (
  cell: { value: unknown },
  prim: unknown,
  sa: unknown,
  sb: unknown,
  slow: (f: unknown[], a: unknown, b: unknown) => unknown,
  onErr: (e: unknown, f: unknown[], step: number, a: unknown, b: unknown) => unknown,
) => Node;

const cache = new Map<string, Factory>();

function operand(s: Shape, v: string, slotVar: string): string {
  switch (s.k) {
    case "N":
      return `${v} = ${slotVar}(f);`;
    case "L0":
      return `${v} = f[${slotVar}];`;
    case "L1":
      return `${v} = f[0][${slotVar}];`;
    case "K":
      return `${v} = ${slotVar};`;
  }
}

/** The value passed to a generated function for an operand. */
function arg(s: Shape): unknown {
  return s.k === "K" ? s.value : s.k === "N" ? s.node : s.slot;
}

/**
 * Builds a specialised node for `(op a b)`; `slow` handles every other case and `onErr` turns
 * an exception thrown while evaluating operand number `step` into what must be rethrown.
 */
export function fastOp(
  op: string,
  a: Shape,
  b: Shape,
  cell: Cell,
  prim: unknown,
  slow: (f: unknown[], a: unknown, b: unknown) => unknown,
  onErr: (e: unknown, f: unknown[], step: number, a: unknown, b: unknown) => unknown,
): Node {
  const key = `${op}|${a.k}|${b.k}`;
  let factory = cache.get(key);
  if (!factory) {
    const { expr, check } = OPS[op];
    const guarded = a.k === "N" || b.k === "N";
    const body = [
      "return (f) => {",
      "let a, b;",
      guarded ? "let step = 1; try {" : "",
      operand(a, "a", "sa"),
      guarded ? "step = 2;" : "",
      operand(b, "b", "sb"),
      guarded ? "} catch (e) { throw onErr(e, f, step, a, b); }" : "",
      'if (typeof a === "number" && typeof b === "number" && cell.value === prim) {',
      check
        ? `const r = ${
          expr("a", "b")
        }; if (r <= 9007199254740991 && r >= -9007199254740991) return r;`
        : `return ${expr("a", "b")};`,
      "}",
      "return slow(f, a, b);",
      "};",
    ].join("\n");
    factory = new Function("cell", "prim", "sa", "sb", "slow", "onErr", body) as Factory;
    cache.set(key, factory);
  }
  const node = factory(cell, prim, arg(a), arg(b), slow, onErr);
  return describe(node, { k: "fastOp", op, a, b, cell, prim, slow, onErr });
}

type IfFactory = (
  cell: { value: unknown },
  prim: unknown,
  sa: unknown,
  sb: unknown,
  slow: (f: unknown[], a: unknown, b: unknown) => unknown,
  thenN: Node,
  elseN: Node,
) => Node;

const ifCache = new Map<string, IfFactory>();

/** Builds `(if (op a b) then else)` as one node; `slow` evaluates the whole `if` otherwise. */
export function fastIf(
  op: string,
  a: SimpleOperand,
  b: SimpleOperand,
  cell: Cell,
  prim: unknown,
  slow: (f: unknown[], a: unknown, b: unknown) => unknown,
  thenN: Node,
  elseN: Node,
): Node {
  const key = `${op}|${a.k}|${b.k}`;
  let factory = ifCache.get(key);
  if (!factory) {
    const body = [
      "return (f) => {",
      "let a, b;",
      operand(a, "a", "sa"),
      operand(b, "b", "sb"),
      'if (typeof a === "number" && typeof b === "number" && cell.value === prim) {',
      `return (${OPS[op].expr("a", "b")}) ? thenN(f) : elseN(f);`,
      "}",
      "return slow(f, a, b);",
      "};",
    ].join("\n");
    factory = new Function("cell", "prim", "sa", "sb", "slow", "thenN", "elseN", body) as IfFactory;
    ifCache.set(key, factory);
  }
  const node = factory(cell, prim, arg(a), arg(b), slow, thenN, elseN);
  return describe(node, { k: "fastIf", op, a, b, cell, prim, slow, then: thenN, else: elseN });
}

/** The one-operand tests inlined by `fastIf1` and the body compiler, as JS on the operand's name (`NIL`, `Pair` in scope). */
export const OPS1: Record<string, (a: string) => string> = {
  "null?": (a) => `${a} === NIL`,
  "pair?": (a) => `${a} instanceof Pair`,
  "not": (a) => `${a} === false`,
};

/** True if `name` has a specialised one-operand test template. */
export function isFastTest1(name: string): boolean {
  return name in OPS1;
}

type If1Factory = (
  cell: { value: unknown },
  prim: unknown,
  sa: unknown,
  slow: (f: unknown[], a: unknown) => unknown,
  thenN: Node,
  elseN: Node,
  NIL: unknown,
  Pair: unknown,
) => Node;

const if1Cache = new Map<string, If1Factory>();

/** Builds `(if (op a) then else)` for `null?`, `pair?` and `not` on a simple operand. */
export function fastIf1(
  op: string,
  a: SimpleOperand,
  cell: Cell,
  prim: unknown,
  slow: (f: unknown[], a: unknown) => unknown,
  thenN: Node,
  elseN: Node,
  nil: unknown,
  pair: unknown,
): Node {
  const key = `${op}|${a.k}`;
  let factory = if1Cache.get(key);
  if (!factory) {
    const body = [
      "return (f) => {",
      "let a;",
      operand(a, "a", "sa"),
      `if (cell.value === prim) return (${OPS1[op]("a")}) ? thenN(f) : elseN(f);`,
      "return slow(f, a);",
      "};",
    ].join("\n");
    factory = new Function(
      "cell",
      "prim",
      "sa",
      "slow",
      "thenN",
      "elseN",
      "NIL",
      "Pair",
      body,
    ) as If1Factory;
    if1Cache.set(key, factory);
  }
  const node = factory(cell, prim, arg(a), slow, thenN, elseN, nil, pair);
  return describe(node, { k: "fastIf1", op, a, cell, prim, slow, then: thenN, else: elseN });
}
