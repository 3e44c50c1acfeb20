/**
 * What a compiled node is, for the body compiler (jit.ts). The tree compiler (compiler.ts,
 * calls.ts, fastops.ts) builds each node as a JS closure and records here, beside it, which kind
 * of node it built and from what parts. The body compiler reads these records to turn a hot
 * procedure body into one JS function; a node with no record is called as it is.
 *
 * A record holds the same parts the node's closure holds (its sub-nodes, cells, call sites and
 * helpers), never program text.
 *
 * @module
 */
import type { Cell, Lambda, Node, Site } from "../base/mod.ts";

/** A simple operand of a fast operation: a local variable of this frame or its parent's, or a number. */
export type SimpleOperand =
  | { k: "L0"; slot: number }
  | { k: "L1"; slot: number }
  | { k: "K"; value: number };

/** An operand of a fast operation: simple, or any node. */
export type FastOperand = SimpleOperand | { k: "N"; node: Node };

/** The slow path of a two-operand fast node: the whole node's work on evaluated operands. */
export type Slow2 = (f: unknown[], a: unknown, b: unknown) => unknown;

/** The record of one node. */
export type Desc =
  /** A constant. */
  | { k: "const"; value: unknown }
  /** A local variable `depth` frames up, slot `slot`. */
  | { k: "local"; depth: number; slot: number }
  /** A global variable. */
  | { k: "global"; cell: Cell }
  /** `(if test then else)`. */
  | { k: "if"; test: Node; then: Node; else: Node }
  /** `(if (op a b) then else)` on simple operands (fastops.ts `fastIf`). */
  | {
    k: "fastIf";
    op: string;
    a: SimpleOperand;
    b: SimpleOperand;
    cell: Cell;
    prim: unknown;
    slow: Slow2;
    then: Node;
    else: Node;
  }
  /** `(if (op a) then else)` for `null?`, `pair?`, `not` (fastops.ts `fastIf1`). */
  | {
    k: "fastIf1";
    op: string;
    a: SimpleOperand;
    cell: Cell;
    prim: unknown;
    slow: (f: unknown[], a: unknown) => unknown;
    then: Node;
    else: Node;
  }
  /** `(op a b)` with a fast operator (fastops.ts `fastOp`). */
  | {
    k: "fastOp";
    op: string;
    a: FastOperand;
    b: FastOperand;
    cell: Cell;
    prim: unknown;
    slow: Slow2;
    onErr: (e: unknown, f: unknown[], step: number, a: unknown, b: unknown) => unknown;
  }
  /**
   * A procedure call (calls.ts `callNode`, fused_calls.ts): `nodes` are the operator and the
   * operands, `gcell` the operator's cell when it is a global variable.
   */
  | { k: "call"; nodes: Node[]; gcell: Cell | null; tail: boolean; site: Site }
  /** An inlined call of a primitive with a fast entry (calls.ts `primCallNode`). */
  | {
    k: "primCall";
    nodes: Node[];
    cell: Cell;
    prim: unknown;
    entry: (...a: unknown[]) => unknown;
    tail: boolean;
    site: Site;
  }
  /** A non-tail call counting `w` more levels of depth (base/apply.ts `weighted`). */
  | { k: "weighted"; w: number; node: Node }
  /** `(begin …)` and bodies. */
  | { k: "seq"; nodes: Node[] }
  /** `let` (and the frames of bodies' definitions): `slots[i]` receives `inits[i]`. */
  | { k: "let"; slots: number[]; inits: Node[]; body: Node }
  /** A `lambda` expression. */
  | { k: "closure"; lambda: Lambda }
  /** `set!` or an internal definition: `set` stores the value. */
  | { k: "set"; value: Node; set: (f: unknown[], v: unknown) => void };

const records = new WeakMap<Node, Desc>();

/** Records what `node` is and returns it. */
export function describe<N extends Node>(node: N, d: Desc): N {
  records.set(node, d);
  return node;
}

/** What `node` is, if it was recorded. */
export function descOf(node: Node): Desc | undefined {
  return records.get(node);
}
