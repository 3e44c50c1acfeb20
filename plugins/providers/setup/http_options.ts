/**
 * What a provider's configuration sets of its HTTP exchange (plugins/providers/http.ts): the
 * retry policy, the clocks' defaults, the response cap. Apart from the exchange, so a provider
 * is configured without loading the adapters (they load on the first request, lazy_adapter.ts).
 *
 * @module
 */

/** Retry policy of a model request. */
export interface RetryOptions {
  /** Total attempts including the first (default 4). */
  maxAttempts: number;
  /** Backoff base in ms: attempt n waits about base·2^(n-1) (default 500). */
  baseDelayMs: number;
  /** Upper bound of one computed backoff in ms (default 8000). */
  maxDelayMs: number;
  /** Upper bound of a server's `retry-after` in ms (default 60000). */
  maxRetryAfterMs: number;
}

/** The default retry policy. */
export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Options shared by every protocol adapter factory. */
export interface AdapterOptions {
  retry?: Partial<RetryOptions>;
  /** fetch implementation (tests). */
  fetch?: typeof fetch;
}

/** Default longest wait for the first content of a streamed answer (ms). */
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 300_000;
/** Default longest time for a whole answer, retries included (ms). */
export const DEFAULT_DEADLINE_MS = 3_600_000;
/** Default cap of a response body (bytes). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
