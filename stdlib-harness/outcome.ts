/**
 * What a guard's middleware may return besides a result: `(refuse "why")` —
 * the call does not happen — and `(guard/retry "why")` — the chain starts
 * again from the raw value, under a finite budget.
 *
 * @module
 */
import { MString } from "../scheme/mod.ts";

/** `(refuse "…")`. */
export class RefusalValue {
  /** A refusal with its reason. */
  constructor(readonly reason: string) {}
}

/** `(guard/retry "…")`. */
export class RetryValue {
  /** A retry request with its reason. */
  constructor(readonly reason: string) {}
}

function text(v: unknown): string {
  return typeof v === "string" ? v : v instanceof MString ? v.s : v === undefined ? "" : String(v);
}

/** Builds a refusal (the reason is required: a guard that does not invoke must say why). */
export function refusal(why: unknown): RefusalValue {
  const reason = text(why).trim();
  if (!reason) throw new TypeError("refuse: give the reason (a non-empty string)");
  return new RefusalValue(reason);
}

/** Builds a retry request. */
export function retry(why: unknown): RetryValue {
  return new RetryValue(text(why).trim() || "retry");
}
