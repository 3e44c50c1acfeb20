/**
 * Discovery of `.harness/` sources and what they hold, cached by directory
 * mtimes.
 *
 * @module
 */
export * from "./discovery.ts";
