/**
 * R7RS-large libraries written in Scheme (`(scheme list)`, `(scheme sort)`,
 * `(scheme hash-table)`), compiled on first import.
 *
 * @module
 */
export { LIST_LIBRARY } from "./list.ts";
export { SORT_LIBRARY } from "./sort.ts";
export { HASH_TABLE_LIBRARY } from "./hash_table.ts";
