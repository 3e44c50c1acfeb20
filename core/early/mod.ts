/**
 * What an entry answers before it loads anything else (no `node:` module, nothing of the
 * harness): the version and its line, whether the run may have commands of its own, the POSIX
 * path operations, and `firstUse` (a value — a schema — built when first asked for).
 *
 * @module
 */
export { VERSION } from "./version.ts";
export { gitRevision, REVISION, versionLine } from "./build_info.ts";
export { builtinVersionAnswer, commandMayBeReplaced, commandsMayExist } from "./version_answer.ts";
export {
  basename,
  dirname,
  filePathOf,
  fileUrlOf,
  isAbsolute,
  join,
  normalize,
  relative,
  resolve,
  resolveFrom,
  sep,
} from "./path.ts";
export { firstUse } from "./first_use.ts";
export { lateImport } from "./late_import.ts";
