/**
 * `runCli`: parses argv and runs the command; every error is printed, never thrown.
 *
 * @module
 */
import type { CliContext } from "./base/mod.ts";
import type * as View from "./view/mod.ts";
import { dispatch } from "./program.ts";
import { loadLate } from "./lazy.ts";

/** Parses argv and runs; resolves to the exit code (errors are printed, never thrown). */
export async function runCli(argv: string[], cli: CliContext): Promise<number> {
  try {
    return await dispatch(argv, cli);
  } catch (err) {
    // the views load only when there is an error to show
    const { reportError } = await loadLate<typeof View>("./view/mod.ts");
    return reportError(err, cli.stderr);
  }
}
