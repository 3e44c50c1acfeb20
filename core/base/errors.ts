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

  constructor(message: string, opts: { hint?: string; status?: number; retryable?: boolean } = {}) {
    super(message, opts.hint ?? "");
    this.name = "ProviderError";
    this.status = opts.status;
    this.retryable = opts.retryable ?? false;
  }
}

/** Message of any thrown value, without stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
