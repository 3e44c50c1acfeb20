/**
 * `hs --help` answered by the entry itself (launch.ts, release.ts), before the harness
 * worker starts: when the run can have no command beyond the built-ins, the help is the
 * table's alone — the same text the CLI prints (tests/cli/command_table_test.ts).
 *
 * @module
 */
import { commandsMayExist } from "../../core/early/mod.ts";
import { DOCS_LINE, topLevelHelp, USAGE } from "./command_table.ts";

/** The width help wraps to: the terminal's, or 80 (as the CLI's). */
function helpWidth(): number {
  if (!Deno.stdout.isTerminal()) return 80;
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

/**
 * The text of `hs --help` / `-h` / `help` when the entry may print it itself, else undefined:
 * other arguments, the `bin/harness` shim's request for a built-in, or a run that may have
 * commands of its own (a `commands/`, a pack's, a `plugins.json`), which only the CLI lists.
 */
export function builtinHelpAnswer(
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): string | undefined {
  if (args.length !== 1 || !["--help", "-h", "help"].includes(args[0])) return undefined;
  if (env.HS_RUN_BUILTIN || commandsMayExist(env, cwd)) return undefined;
  return topLevelHelp(helpWidth()) + USAGE + DOCS_LINE;
}

/** Writes all of `text` to standard output. */
export function writeStdout(text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let n = 0; n < bytes.length;) n += Deno.stdout.writeSync(bytes.subarray(n));
}
