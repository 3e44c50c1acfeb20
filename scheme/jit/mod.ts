/**
 * The body compiler: a procedure body that has run often enough becomes one generated JS
 * function, written from the records the tree nodes (scheme/nodes/) keep beside them.
 *
 * @module
 */
export { defaultJitAfter, warmUp } from "./jit.ts";
