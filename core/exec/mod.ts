/**
 * Running executables: JSON on stdin, stdout captured, stderr to the log, a
 * timeout and cancellation that end the whole process group; bounded capture
 * of tool output (head and tail kept, the whole output saved beside the
 * session).
 *
 * @module
 */
export * from "./exec.ts";
export { killBinary, killProcessGroup } from "./kill.ts";
export { SYSTEM_BIN_DIRS, systemBinary } from "./system_bin.ts";
export {
  capText,
  DEFAULT_RESULT_FILE_LIMIT,
  DEFAULT_RESULT_LIMIT,
  formatBytes,
  NOTE_ROOM,
  outputFileName,
  type OutputLimits,
  OutputSpool,
  type SpillOptions,
} from "./output.ts";
