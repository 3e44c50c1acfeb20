/**
 * The `hs` command line: commands, the REPL, rendering and the launcher.
 *
 * @module
 */
export { type CliContext, writeAllSync } from "./base/mod.ts";
export { buildProgram, BUILTIN_COMMANDS } from "./program.ts";
export { runCli } from "./run_cli.ts";
