/**
 * Errors at the CLI edge: one line `hs: <what failed>` and, when there is one,
 * `hint: <how to fix it>`. A permission the process was not given (a run
 * narrowed by the launcher) is said in hs's words with the hs flag that grants
 * it — never Deno's "run again with the --allow-* flag".
 *
 * @module
 */
import { CommanderError } from "@commander-js/extra-typings";
import { HarnessError } from "../core/mod.ts";

const DENO_PERMISSION = /Requires (\w+) access to "?([^",]+?)"?(?:,|$)/;

/** Rewrites Deno's permission wording into a HarnessError with the hs flag to use. */
export function permissionError(err: unknown): HarnessError | undefined {
  if (!(err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied)) {
    return undefined;
  }
  const m = DENO_PERMISSION.exec((err as Error).message);
  if (!m) {
    return new HarnessError(
      "this run was not given a permission it needs",
      "run with --floor full, or see docs/security.md (the launcher)",
    );
  }
  const [, kind, what] = m;
  const flag: Record<string, string> = {
    read: "--allow-read",
    write: "--allow-write",
    net: "--allow-net",
    run: "--allow-run",
  };
  return new HarnessError(
    `this run may not ${kind === "net" ? "reach" : kind} ${what}`,
    flag[kind]
      ? `allow it for this run: hs ${
        flag[kind]
      } ${what} …  (or declare it in plugins.json / floor.json)`
      : "run with --floor full",
  );
}

/** Prints an error; returns the exit code. */
export function reportError(err: unknown, stderr: (s: string) => void): number {
  if (err instanceof CommanderError) return err.exitCode;
  const e = permissionError(err) ?? err;
  if (e instanceof HarnessError) {
    stderr(`hs: ${e.message}\n`);
    if (e.hint) stderr(`hint: ${e.hint}\n`);
    return e.exitCode || 1;
  }
  stderr(`hs: ${(e as Error)?.message ?? String(e)}\n`);
  return 1;
}
