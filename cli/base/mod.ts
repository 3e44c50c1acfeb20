/**
 * What every part of the command line is handed: the CLI context (streams, terminal,
 * environment, how a harness is made) and the interrupt (Ctrl-C) handling.
 *
 * @module
 */
export { type CliContext, writeAllSync } from "./context.ts";
export { cancelOnInterrupt } from "./interrupt.ts";
export { BUILTIN_COMMAND_NAMES } from "./command_names.ts";
