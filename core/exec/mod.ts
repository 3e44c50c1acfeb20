/**
 * Running executables: JSON on stdin, stdout captured, stderr to the log, a
 * timeout and cancellation that end the whole process group.
 *
 * @module
 */
export * from "./exec.ts";
export { killBinary, killProcessGroup } from "./kill.ts";
