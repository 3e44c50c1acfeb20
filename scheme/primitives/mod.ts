/**
 * The primitive procedures, installed into an interpreter's table by family:
 * lists, numbers, strings, vectors, control, I/O ports, dicts, hash tables,
 * and the process context the host grants.
 *
 * @module
 */
export { def, type PrimTable, str } from "./util.ts";
export { INLINE_LIST_ENTRIES, installLists } from "./lists.ts";
export { installNumbers } from "./numbers.ts";
export { installStrings } from "./strings.ts";
export { installVectors } from "./vectors.ts";
export { installControl } from "./control.ts";
export { installIO, type StdPorts } from "./io.ts";
export { dictRef, installDict } from "./dict.ts";
export { HASH_TABLE_NAMES, installHashTables } from "./hashtables.ts";
export { type Clock, installProcess, type ProcessContext } from "./process.ts";
