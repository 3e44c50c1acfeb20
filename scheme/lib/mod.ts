/**
 * The libraries: which `(import …)` names exist and what they bind (libraries.ts), the library
 * procedures written in Scheme (prelude.ts), and the R7RS-large libraries written in Scheme
 * (`(scheme list)`, `(scheme sort)`, `(scheme hash-table)`), compiled on first import.
 *
 * @module
 */
export { LIST_LIBRARY } from "./list.ts";
export { SORT_LIBRARY } from "./sort.ts";
export { HASH_TABLE_LIBRARY } from "./hash_table.ts";
export { LOCAL_PRELUDE, PRELUDE, TEST_LIBRARY } from "./prelude.ts";
export {
  FEATURES,
  isKnownLibrary,
  LAZY,
  type LazyLibrary,
  libraryHooks,
  libraryState,
  TEST_LIBRARIES,
} from "./libraries.ts";
