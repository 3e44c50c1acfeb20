/**
 * Errors at the CLI edge: one line `hs: <what failed>` and, when there is one,
 * `hint: <how to fix it>`. A permission the process was not given (a run
 * narrowed by the launcher) is said in hs's words with the hs flag that grants
 * it — never Deno's "run again with the --allow-* flag".
 *
 * @module
 */
import { HarnessError, permissionDenied } from "../../core/base/mod.ts";
import { sanitizeForTerminal as safe } from "./render.ts";

/**
 * A usage error commander found (an unknown option, a missing argument), in hs's style:
 * `hs: <what>` and `hint: <its suggestion, or where the usage is>` (the exit code is 2).
 */
export function usageErrorText(commanderText: string): string {
  const lines = commanderText.trim().split("\n");
  const what = (lines[0] ?? "").replace(/^error:\s*/, "");
  const suggestion = lines.map((l) => /^\(Did you mean (.+)\?\)$/.exec(l.trim())?.[1])
    .find(Boolean);
  const hint = suggestion
    ? `did you mean ${suggestion}?`
    : "`hs help` lists the commands, `hs <command> --help` a command's flags";
  return `hs: ${safe(what)}\nhint: ${safe(hint)}\n`;
}

/**
 * True for commander's own error (a usage error, or `--help` / `--version` done): told by its
 * shape, so that showing an error does not load commander (a run that never parsed has none).
 */
function isCommanderError(err: unknown): err is { exitCode: number } {
  const e = err as { code?: unknown; exitCode?: unknown } | null;
  return e instanceof Error && typeof e.code === "string" && e.code.startsWith("commander.") &&
    typeof e.exitCode === "number";
}

/** Prints an error; returns the exit code (2 for a usage error). */
export function reportError(err: unknown, stderr: (s: string) => void): number {
  if (isCommanderError(err)) return err.exitCode === 0 ? 0 : 2;
  if (err instanceof Deno.errors.BrokenPipe) return 0; // the reader went away (| head)
  const e = permissionDenied(err) ?? err;
  if (e instanceof HarnessError) {
    stderr(`hs: ${safe(e.message)}\n`);
    if (e.hint) stderr(`hint: ${safe(e.hint)}\n`);
    return e.exitCode || 1;
  }
  stderr(`hs: ${safe((e as Error)?.message ?? String(e))}\n`);
  return 1;
}
