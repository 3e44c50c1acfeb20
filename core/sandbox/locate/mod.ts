/**
 * Finding the sandbox's programs without loading the sandbox (see bwrap_binary.ts).
 *
 * @module
 */
export { bwrapBinary } from "./bwrap_binary.ts";
