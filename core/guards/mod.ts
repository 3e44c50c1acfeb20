/**
 * The effect seam: guards → floor → core. The dispatcher runs the guard
 * chain, asks the floor (policy + rules) and calls the core; hooks observe.
 * The chains (`chain.ts`) are shared with the turn and round boundaries.
 *
 * @module
 */
export * from "./effect.ts";
export * from "./chain.ts";
export * from "./dispatch.ts";
export * from "./floor.ts";
export * from "./policy.ts";
export * from "./rules.ts";
export * from "./consent.ts";
export { analyseShell, type ShellAnalysis } from "./shell_parse.ts";
export * from "./protect.ts";
export * from "./lineage.ts";
