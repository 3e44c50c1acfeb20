/**
 * The built-in commands' table, in cli/table/ (the entries print `hs --help` from it before
 * the harness loads).
 *
 * @module
 */
export * from "./table/mod.ts";
