/**
 * Fused call nodes: a procedure call with one to three operands whose simple operands — local
 * variables, number constants, and `+ - < > <= >= =` on those (the shapes of fastops.ts) — are
 * evaluated inside the call node itself instead of by a node of their own. `(ack (- m 1) 1)`
 * makes no JS call for its operands. Each combination of (tail or not, operand count, operator
 * kind, operand shapes) gets its own generated function, built from fixed templates (never from
 * program text), like the fastops.
 *
 * The semantics are those of the plain call node (calls.ts): operator first, then operands left
 * to right; an inlined operation whose operands are not both numbers, whose result leaves the
 * safe integers, or whose operator was redefined goes through the operation's own slow path; a
 * capture or error while any operand is evaluated goes through `callErr` with the index of that
 * operand, so the call resumes from there; the call phase is `invokeN` / `tailInvokeN`.
 *
 * @module
 */
import type { Cell, Node, Site } from "../base/mod.ts";
import { OPS } from "./fastops.ts";
import {
  callErr,
  gref,
  invoke1,
  invoke2,
  invoke3,
  tailInvoke1,
  tailInvoke2,
  tailInvoke3,
} from "./calls.ts";

/** A local variable (this frame or the parent's) or a number constant. */
export type SimpleShape =
  | { k: "L0"; slot: number }
  | { k: "L1"; slot: number }
  | { k: "K"; value: number };

/** How one operand of a fused call is evaluated. */
export type OperandShape =
  | SimpleShape
  | { k: "N"; node: Node }
  | {
    k: "F";
    op: string;
    a: SimpleShape;
    b: SimpleShape;
    cell: Cell;
    prim: unknown;
    slow: (f: unknown[], a: unknown, b: unknown) => unknown;
  };

/** True if `op` can be inlined as an operand of a fused call. */
export function isFusableOp(op: string): boolean {
  return op in OPS;
}

const INVOKE = [null, invoke1, invoke2, invoke3] as const;
const TAIL_INVOKE = [null, tailInvoke1, tailInvoke2, tailInvoke3] as const;

type Factory = (
  gcell: Cell | null,
  fnN: Node,
  nodes: Node[],
  site: Site,
  callErr: unknown,
  gref: unknown,
  invoke: unknown,
  params: unknown[],
) => Node;
const cache = new Map<string, Factory>();

function simpleKey(s: SimpleShape): string {
  return s.k;
}

function shapeKey(s: OperandShape): string {
  return s.k === "F" ? `F(${s.op},${simpleKey(s.a)},${simpleKey(s.b)})` : s.k;
}

/** JS reading simple operand `s`, whose slot or value is the generated function's `p`. */
function readSimple(s: SimpleShape, p: string): string {
  return s.k === "L0" ? `f[${p}]` : s.k === "L1" ? `f[0][${p}]` : p;
}

/** Generated code setting `a${i}` from operand `s`; its parameters are named after `i`. */
function operandCode(s: OperandShape, i: number): string {
  const v = `a${i}`;
  switch (s.k) {
    case "L0":
    case "L1":
    case "K":
      return `${v} = ${readSimple(s, `s${i}`)};`;
    case "N":
      return `${v} = s${i}(f);`;
    case "F": {
      const { expr, check } = OPS[s.op];
      return [
        `x = ${readSimple(s.a, `x${i}`)}; y = ${readSimple(s.b, `y${i}`)};`,
        `if (typeof x === "number" && typeof y === "number" && c${i}.value === p${i}) {`,
        check
          ? `r = ${
            expr("x", "y")
          }; ${v} = r <= 9007199254740991 && r >= -9007199254740991 ? r : w${i}(f, x, y);`
          : `${v} = ${expr("x", "y")};`,
        `} else ${v} = w${i}(f, x, y);`,
      ].join("\n");
    }
  }
}

/** The generated function's parameters for operand `s` number `i`, and their values. */
function operandParams(s: OperandShape, i: number): [string[], unknown[]] {
  switch (s.k) {
    case "L0":
    case "L1":
      return [[`s${i}`], [s.slot]];
    case "K":
      return [[`s${i}`], [s.value]];
    case "N":
      return [[`s${i}`], [s.node]];
    case "F":
      return [
        [`x${i}`, `y${i}`, `c${i}`, `p${i}`, `w${i}`],
        [
          s.a.k === "K" ? s.a.value : s.a.slot,
          s.b.k === "K" ? s.b.value : s.b.slot,
          s.cell,
          s.prim,
          s.slow,
        ],
      ];
  }
}

/**
 * Builds a fused call node for `(fn operands…)` (one to three operands); `nodes` are the plain
 * nodes of the operator and the operands (for resuming after a capture), `gcell` the operator's
 * global cell when it is a global variable (else `fnN` evaluates it).
 */
export function fusedCallNode(
  fnN: Node,
  shapes: OperandShape[],
  nodes: Node[],
  gcell: Cell | null,
  tail: boolean,
  site: Site,
): Node {
  const n = shapes.length;
  if (n < 1 || n > 3) throw new Error(`fusedCallNode: ${n} operands`);
  const key = `${tail ? "T" : "C"}|${gcell ? "G" : "N"}|${shapes.map(shapeKey).join("|")}`;
  const names: string[] = [];
  const values: unknown[] = [];
  shapes.forEach((s, i) => {
    const [ns, vs] = operandParams(s, i);
    names.push(...ns);
    values.push(...vs);
  });
  let factory = cache.get(key);
  if (!factory) {
    const args = shapes.map((_, i) => `a${i}`);
    const body = [
      `const [${names.join(", ")}] = params;`,
      "return (f) => {",
      `let step = 0, fn, ${args.join(", ")}, x, y, r;`,
      "try {",
      gcell ? "fn = gref(gcell);" : "fn = fnN(f);",
      ...shapes.map((s, i) => `step = ${i + 1};\n${operandCode(s, i)}`),
      "} catch (e) {",
      `throw callErr(e, f, step, [fn, ${args.join(", ")}], nodes, ${tail}, site);`,
      "}",
      `return invoke(fn, ${args.join(", ")}, site);`,
      "};",
    ].join("\n");
    factory = new Function(
      "gcell",
      "fnN",
      "nodes",
      "site",
      "callErr",
      "gref",
      "invoke",
      "params",
      body,
    ) as Factory;
    cache.set(key, factory);
  }
  return factory(
    gcell,
    fnN,
    nodes,
    site,
    callErr,
    gref,
    tail ? TAIL_INVOKE[n] : INVOKE[n],
    values,
  );
}
