/**
 * The effect seam: guards → floor → core.
 *
 * @module
 */
export * from "./dispatch.ts";
