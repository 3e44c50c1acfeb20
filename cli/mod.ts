/**
 * The `hs` command line: commands, the REPL, rendering and the launcher.
 *
 * @module
 */
import type { CliContext } from "./context.ts";
import { reportError } from "./errors.ts";
import { dispatch } from "./program.ts";

export { type CliContext, writeAllSync } from "./context.ts";
export { buildProgram, BUILTIN_COMMANDS } from "./program.ts";
export { reportError } from "./errors.ts";

/** Parses argv and runs; resolves to the exit code (errors are printed, never thrown). */
export async function runCli(argv: string[], cli: CliContext): Promise<number> {
  try {
    return await dispatch(argv, cli);
  } catch (err) {
    return reportError(err, cli.stderr);
  }
}
