/**
 * What every part of the command line is handed: the CLI context (streams, terminal,
 * environment, how a harness is made), the interrupt (Ctrl-C) handling and the plain
 * flags a command answers without commander.
 *
 * @module
 */
export { type CliContext, writeAllSync } from "./context.ts";
export { cancelOnInterrupt } from "./interrupt.ts";
export { BUILTIN_COMMAND_NAMES } from "./command_names.ts";
export { plainFlags } from "./plain_flags.ts";
