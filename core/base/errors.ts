/**
 * Errors as values: every error the CLI shows has a message (what failed,
 * where) and a hint (how to fix it).
 *
 * @module
 */

/** An error with a fix hint, safe to show to the user. */
export class HarnessError extends Error {
  /** How to fix it, one line. */
  readonly hint: string;
  /** Process exit code at the CLI edge. */
  readonly exitCode: number;

  /** Creates an error with its one-line fix `hint` and the CLI exit code. */
  constructor(message: string, hint = "", exitCode = 1) {
    super(message);
    this.name = "HarnessError";
    this.hint = hint;
    this.exitCode = exitCode;
  }
}

/** A provider request failed (HTTP, stream or protocol error). */
export class ProviderError extends HarnessError {
  /** HTTP status, when there was one. */
  readonly status?: number;
  /** Whether a retry may succeed. */
  readonly retryable: boolean;
  /** False when the request never reached a server (refused, no model, no key). */
  readonly reachedServer: boolean;

  /**
   * Creates a provider error; `status` is the HTTP status, `retryable` whether to retry,
   * `reachedServer: false` that nothing was sent anywhere.
   */
  constructor(
    message: string,
    opts: { hint?: string; status?: number; retryable?: boolean; reachedServer?: boolean } = {},
  ) {
    super(message, opts.hint ?? "");
    this.name = "ProviderError";
    this.status = opts.status;
    this.retryable = opts.retryable ?? false;
    this.reachedServer = opts.reachedServer ?? true;
  }
}

const DENO_PERMISSION = /Requires (\w+) access to "?([^",]+?)"?(?:,|$)/;
const HS_FLAG: Record<string, string> = {
  read: "--allow-read",
  write: "--allow-write",
  net: "--allow-net",
  run: "--allow-run",
};

/**
 * A permission this process was not given (a run narrowed by the launcher), in hs's
 * words with the hs flag that grants it — never Deno's "run again with the --allow-* flag".
 * Undefined when `err` is not a permission error.
 */
export function permissionDenied(err: unknown): HarnessError | undefined {
  if (!(err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied)) {
    return undefined;
  }
  const m = DENO_PERMISSION.exec((err as Error).message);
  if (!m) {
    return new HarnessError(
      "this run was not given a permission it needs",
      "run with --floor full, or see docs/security.md (the launcher's grant)",
    );
  }
  const [, kind, what] = m;
  const flag = HS_FLAG[kind];
  return new HarnessError(
    `this run may not ${kind === "net" ? "reach" : kind} ${what}`,
    flag
      ? `allow it: hs ${flag} ${what} …, or declare it in plugins.json "permissions" / floor.json`
      : "run with --floor full",
  );
}

/** Message of any thrown value, without stack (permission errors in hs's words). */
export function errorMessage(err: unknown): string {
  const denied = permissionDenied(err);
  if (denied) return `${denied.message} (${denied.hint})`;
  if (err instanceof Error) return err.message;
  return String(err);
}
