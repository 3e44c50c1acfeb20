/**
 * The tree nodes: what the compiler builds a program from. Each node is a JS closure over a
 * frame; beside it a record says what it is (ir.ts), for the body compiler (scheme/jit/).
 * Calls with their fast paths and proper tail calls (calls.ts), the fast operations on two
 * simple operands (fastops.ts), fused calls (fused_calls.ts), and the heap frames sequences,
 * `let`, `if` and `set!` leave behind when a capture passes through them (resume.ts).
 *
 * @module
 */
export { type Desc, descOf, describe, type FastOperand, type SimpleOperand } from "./ir.ts";
export {
  fastIf,
  fastIf1,
  fastOp,
  isFastOp,
  isFastTest1,
  OPS,
  OPS1,
  type Shape,
} from "./fastops.ts";
export {
  callAt,
  callErr,
  callNode,
  gref,
  invoke0,
  invoke1,
  invoke2,
  invoke3,
  primCallNode,
  tailAt,
  tailInvoke0,
  tailInvoke1,
  tailInvoke2,
  tailInvoke3,
  unbound,
} from "./calls.ts";
export { ifErr, letErr, letFrom, seqErr, seqFrom, setErr } from "./resume.ts";
export { fusedCallNode, isFusableOp, type OperandShape, type SimpleShape } from "./fused_calls.ts";
