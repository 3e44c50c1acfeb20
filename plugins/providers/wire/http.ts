/**
 * The HTTP exchange of a model request: POST with retries (exponential backoff
 * with jitter, honouring `retry-after`), three clocks — an idle timeout (any
 * data), a time-to-first-token (content, keep-alives do not count) and an
 * overall deadline (retries included) — a cap on the response's size, abort
 * via signal, and error bodies mapped to ProviderError. An HTML page or a body
 * that is no event stream is said to be so. API keys never appear in messages.
 *
 * @module
 */
import {
  type Endpoint,
  formatBytes,
  permissionDenied,
  type ProtocolAdapter,
  ProviderError,
  type SendOptions,
  type SendPayload,
} from "../../../core/mod.ts";
import { emitTurn, isJsonResponse, mergeHeaders } from "./common.ts";
import { SseDecoder, type SseEvent } from "./sse.ts";
import { eventText, foreignStream, notFoundHint, refusedConnection, scrub } from "./http_hints.ts";
import {
  type AdapterOptions,
  DEFAULT_DEADLINE_MS,
  DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRY,
  type RetryOptions,
} from "../setup/mod.ts";

// the adapters' factories take these options (setup/http_options.ts)
export { type AdapterOptions, scrub };

/** HTTP statuses retried: 408, 409, 429, 5xx (incl. 529 overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Delay before the next attempt. `retry-after` (seconds or an HTTP date) and
 * `retry-after-ms` win when present; otherwise exponential backoff with jitter.
 */
export function retryDelay(
  attempt: number,
  headers: Headers | undefined,
  retry: RetryOptions,
  now = Date.now(),
): number {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) {
    return Math.min(Math.max(0, Number(ms)), retry.maxRetryAfterMs);
  }
  const ra = headers?.get("retry-after")?.trim();
  if (ra) {
    let delay: number | undefined;
    if (/^\d+(\.\d+)?$/.test(ra)) delay = Number(ra) * 1000;
    else {
      const at = Date.parse(ra);
      if (!Number.isNaN(at)) delay = Math.max(0, at - now);
    }
    if (delay !== undefined) return Math.min(Math.round(delay), retry.maxRetryAfterMs);
  }
  const exp = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp * (0.75 + Math.random() * 0.25));
}

/** The server's error message out of an error body (`{error:{message}}` and variants). */
export function errorBodyMessage(text: string): string {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const e = j.error;
    if (e && typeof e === "object") {
      const o = e as Record<string, unknown>;
      const msg = typeof o.message === "string" ? o.message : "";
      const type = typeof o.type === "string" ? o.type : typeof o.code === "string" ? o.code : "";
      if (msg) return type && !msg.includes(type) ? `${type}: ${msg}` : msg;
      if (type) return type;
    }
    if (typeof e === "string") return e;
    if (typeof j.message === "string") return j.message;
    if (typeof j.detail === "string") return j.detail;
  } catch { /* not JSON */ }
  const t = text.trim().replace(/\s+/g, " ");
  return t.length > 300 ? `${t.slice(0, 300)}…` : t || "(empty body)";
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const TIMEOUT = Symbol("timeout");
const FIRST_TOKEN = Symbol("first-token");
const DEADLINE = Symbol("deadline");

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** A short, printable sample of a body's first bytes. */
function sample(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes).replace(/\s+/g, " ").trim();
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/**
 * True when a body is (or starts like) an HTML page: it starts with a tag, or it
 * is labelled HTML and does not start like server-sent events.
 */
function looksLikeHtml(contentType: string, head: Uint8Array): boolean {
  const text = new TextDecoder().decode(head.subarray(0, 256)).trimStart();
  if (text === "") return false;
  if (/^<(!doctype|html|head|body|\?xml|!--)/i.test(text)) return true;
  return /\bhtml\b/i.test(contentType) && !/^(data|event|id|retry)?:/.test(text);
}

/** The `<title>` of an HTML page, if any. */
function htmlTitle(head: Uint8Array): string {
  const m = /<title[^>]*>([^<]{1,120})/i.exec(new TextDecoder().decode(head));
  return m ? m[1].replace(/\s+/g, " ").trim() : "";
}

/**
 * One model request over HTTP. `open` returns a 2xx response (after retries);
 * `readJson` / `readSse` consume its body under the idle timeout. Always call
 * `dispose` (in `finally`).
 */
export class Exchange {
  readonly #endpoint: Endpoint;
  readonly #options: SendOptions;
  readonly #retry: RetryOptions;
  readonly #fetch: typeof fetch;
  #ac = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firstToken: ReturnType<typeof setTimeout> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #gotContent = false;
  #onAbort = () => this.#ac.abort(this.#options.signal.reason);

  constructor(endpoint: Endpoint, options: SendOptions, adapter: AdapterOptions = {}) {
    this.#endpoint = endpoint;
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...adapter.retry };
    this.#fetch = adapter.fetch ?? fetch;
    options.signal.addEventListener("abort", this.#onAbort, { once: true });
    const deadline = endpoint.deadlineMs ?? DEFAULT_DEADLINE_MS;
    if (deadline > 0) this.#deadline = setTimeout(() => this.#ac.abort(DEADLINE), deadline);
  }

  /** Stops timers and listeners; aborts anything still in flight. */
  dispose(): void {
    this.#disarm();
    this.noteContent();
    clearTimeout(this.#deadline);
    this.#options.signal.removeEventListener("abort", this.#onAbort);
    if (!this.#ac.signal.aborted) this.#ac.abort();
  }

  /** The first content of the answer arrived: the time-to-first-token clock stops. */
  noteContent(): void {
    this.#gotContent = true;
    clearTimeout(this.#firstToken);
    this.#firstToken = undefined;
  }

  /** Streamed answers only: a plain JSON answer's first token comes with all the others. */
  #armFirstToken(): void {
    clearTimeout(this.#firstToken);
    const ms = this.#endpoint.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS;
    if (ms > 0 && !this.#gotContent && this.#endpoint.stream) {
      this.#firstToken = setTimeout(() => this.#ac.abort(FIRST_TOKEN), ms);
    }
  }

  /** The endpoint's URL for messages (a key in it is masked). */
  get #safeUrl(): string {
    return scrub(this.#endpoint.url, this.#endpoint.apiKey);
  }

  get #maxBytes(): number {
    return this.#endpoint.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  #tooLarge(): ProviderError {
    return new ProviderError(
      `${this.#endpoint.name}: the response is larger than ${formatBytes(this.#maxBytes)} ` +
        "(reading stopped)",
      { hint: "raise max_response_bytes= in the provider's .conf if this answer is expected" },
    );
  }

  #arm(): void {
    this.#disarm();
    const ms = this.#endpoint.timeoutMs;
    if (ms > 0) this.#timer = setTimeout(() => this.#ac.abort(TIMEOUT), ms);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A ProviderError for a failure while the request or its body was in flight. */
  failure(err: unknown, phase: string): ProviderError {
    if (err instanceof ProviderError) return err;
    const name = this.#endpoint.name;
    if (this.#options.signal.aborted) {
      return new ProviderError(`${name}: request cancelled`, { retryable: false });
    }
    if (this.#ac.signal.aborted && this.#ac.signal.reason === TIMEOUT) {
      return new ProviderError(
        `${name}: request timed out after ${this.#endpoint.timeoutMs} ms without data (${phase})`,
        { hint: "raise timeout= in the provider's .conf", retryable: true },
      );
    }
    if (this.#ac.signal.aborted && this.#ac.signal.reason === FIRST_TOKEN) {
      const ms = this.#endpoint.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS;
      return new ProviderError(
        `${name}: no answer from the model within ${seconds(ms)} ` +
          "(the server sent no content, only keep-alives or nothing)",
        { hint: "raise first_token_timeout= in the provider's .conf for slow models" },
      );
    }
    if (this.#ac.signal.aborted && this.#ac.signal.reason === DEADLINE) {
      const ms = this.#endpoint.deadlineMs ?? DEFAULT_DEADLINE_MS;
      return new ProviderError(
        `${name}: the answer was not complete within the deadline of ${seconds(ms)} (${phase})`,
        { hint: "raise deadline= in the provider's .conf for longer answers" },
      );
    }
    const denied = permissionDenied(err);
    if (denied) {
      // not a network failure: retrying cannot help
      return new ProviderError(`${name}: ${denied.message}`, {
        hint: denied.hint,
        retryable: false,
      });
    }
    const msg = scrub(err instanceof Error ? err.message : String(err), this.#endpoint.apiKey);
    if (phase === "reading the stream") {
      return new ProviderError(
        `${name}: stream ended before completion (connection lost: ${msg})`,
        {
          hint: "the connection was closed mid-response; retry",
          retryable: true,
        },
      );
    }
    return new ProviderError(`${name}: ${phase} failed: ${msg}`, { retryable: true });
  }

  /** POSTs the body; retries retryable statuses and connection errors. */
  async open(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
    const ep = this.#endpoint;
    const text = JSON.stringify(body);
    const origin = (() => {
      try {
        return new URL(url).origin;
      } catch {
        throw new ProviderError(`${ep.name}: invalid url "${url}"`, {
          hint: "check url= / *_API_URL",
        });
      }
    })();
    for (let attempt = 1;; attempt++) {
      if (this.#options.signal.aborted) throw this.failure(this.#options.signal.reason, "request");
      if (this.#ac.signal.aborted) throw this.failure(this.#ac.signal.reason, "request");
      let res: Response;
      this.#arm();
      this.#armFirstToken();
      try {
        res = await this.#fetch(url, {
          method: "POST",
          headers,
          body: text,
          signal: this.#ac.signal,
        });
      } catch (err) {
        this.#disarm();
        const e = this.failure(err, `connection to ${origin}`);
        const timedOut = this.#ac.signal.aborted;
        if (
          !e.retryable || timedOut || this.#options.signal.aborted ||
          attempt >= this.#retry.maxAttempts
        ) throw refusedConnection(err, e, ep, this.#safeUrl);
        await this.#backoff(attempt, undefined, e.message);
        continue;
      }
      if (res.ok) return res;
      this.#disarm();
      let errText = "";
      try {
        this.#arm();
        errText = new TextDecoder().decode(await this.#readBody(res, 64 * 1024));
      } catch {
        /* body unreadable */
      } finally {
        this.#disarm();
      }
      const msg = scrub(errorBodyMessage(errText), ep.apiKey);
      const should = res.headers.get("x-should-retry");
      const retryable = should === "true" || (should !== "false" && isRetryableStatus(res.status));
      if (retryable && attempt < this.#retry.maxAttempts) {
        await this.#backoff(attempt, res.headers, `HTTP ${res.status}: ${msg}`);
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        throw new ProviderError(
          `${ep.name}: authentication failed (HTTP ${res.status}): ${msg} — run: hs auth set ${ep.name}`,
          { status: res.status, hint: `hs auth set ${ep.name}` },
        );
      }
      const tail = retryable ? ` (gave up after ${attempt} attempts)` : "";
      const check = res.status === 404 ? notFoundHint(ep, this.#safeUrl) : undefined;
      throw new ProviderError(
        `${ep.name}: HTTP ${res.status}: ${msg}${tail}${check ? ` — ${check}` : ""}`,
        { status: res.status, retryable, hint: check },
      );
    }
  }

  async #backoff(attempt: number, headers: Headers | undefined, reason: string): Promise<void> {
    const delayMs = retryDelay(attempt, headers, this.#retry);
    // Waiting between attempts is not the server failing to answer: the time-to-first-token
    // clock starts again with the next attempt (the overall deadline keeps running).
    clearTimeout(this.#firstToken);
    this.#firstToken = undefined;
    this.#options.emit({ type: "retry", attempt: attempt + 1, delayMs, reason });
    try {
      await sleep(delayMs, AbortSignal.any([this.#options.signal, this.#ac.signal]));
    } catch (err) {
      throw this.failure(err, "retry wait");
    }
  }

  /** A body's bytes, at most `max` of them (more: the cap error, or `max` bytes when `keep`). */
  async #readBody(res: Response, max: number, tooLarge?: () => Error): Promise<Uint8Array> {
    if (!res.body) return new Uint8Array();
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          break;
        }
        this.#arm();
        if (size + value.length > max) {
          if (tooLarge) throw tooLarge();
          chunks.push(value.subarray(0, max - size));
          size = max;
          break;
        }
        chunks.push(value);
        size += value.length;
      }
    } finally {
      if (!finished) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    const out = new Uint8Array(size);
    let off = 0;
    for (const c of chunks) {
      out.set(c, off);
      off += c.length;
    }
    return out;
  }

  /** An error for a 2xx body that is an HTML page (a login page, a proxy, a wrong URL). */
  #htmlPage(res: Response, head: Uint8Array, wanted: string): ProviderError {
    const title = htmlTitle(head);
    const hint = `check url= (${this.#safeUrl}): a proxy, a login page or a wrong path ` +
      "answers HTML";
    return new ProviderError(
      `${this.#endpoint.name}: the server answered with an HTML page (HTTP ${res.status}, ` +
        `content-type ${res.headers.get("content-type") || "none"}${
          title ? `, "${title}"` : ""
        }), ` +
        `not ${wanted} — ${hint}`,
      { hint },
    );
  }

  /** Reads the whole body as JSON (under the idle timeout and the size cap). */
  async readJson(res: Response): Promise<unknown> {
    let bytes: Uint8Array;
    this.#arm();
    this.noteContent();
    try {
      bytes = await this.#readBody(res, this.#maxBytes, () => this.#tooLarge());
    } catch (err) {
      throw this.failure(err, "reading the response");
    } finally {
      this.#disarm();
    }
    const text = new TextDecoder().decode(bytes);
    try {
      return JSON.parse(text);
    } catch {
      const ct = res.headers.get("content-type") ?? "";
      if (looksLikeHtml(ct, bytes)) throw this.#htmlPage(res, bytes, "a JSON response");
      throw new ProviderError(
        `${this.#endpoint.name}: response is not valid JSON (${bytes.length} bytes, ` +
          `content-type ${ct || "none"}: ${scrub(sample(bytes), this.#endpoint.apiKey)})`,
        { retryable: true },
      );
    }
  }

  /**
   * Reads an SSE body, calling `onEvent` for each event as soon as it is
   * complete. `onEvent` returns true to stop reading (terminal event).
   */
  async readSse(res: Response, onEvent: (event: SseEvent) => boolean | void): Promise<void> {
    if (!res.body) return;
    const reader = res.body.getReader();
    let stop = false;
    let finished = false;
    let events = 0;
    let size = 0;
    const head = new Uint8Array(4096);
    let headSize = 0;
    const contentType = res.headers.get("content-type") ?? "";
    const decoder = new SseDecoder((e) => {
      events++;
      if (!stop && onEvent(e) === true) stop = true;
    });
    try {
      while (!stop) {
        this.#arm();
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw this.failure(err, "reading the stream");
        }
        if (chunk.done) {
          finished = true;
          break;
        }
        size += chunk.value.length;
        if (size > this.#maxBytes) throw this.#tooLarge();
        if (headSize < head.length) {
          const part = chunk.value.subarray(0, head.length - headSize);
          head.set(part, headSize);
          headSize += part.length;
        }
        // An HTML page is not an event stream: say so rather than wait for events.
        if (events === 0 && looksLikeHtml(contentType, head.subarray(0, headSize))) {
          throw this.#htmlPage(res, head.subarray(0, headSize), "an event stream");
        }
        decoder.push(chunk.value);
      }
      if (!stop) decoder.end();
    } finally {
      this.#disarm();
      if (!finished) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (events === 0 && size > 0) {
      const bytes = head.subarray(0, headSize);
      if (looksLikeHtml(contentType, bytes)) throw this.#htmlPage(res, bytes, "an event stream");
      const hint = `check url= (${this.#safeUrl}), or set stream=never in the provider's ` +
        ".conf for a server that cannot stream";
      throw new ProviderError(
        `${this.#endpoint.name}: the server answered HTTP ${res.status} with content-type ` +
          `${contentType || "none"} and no server-sent events (first bytes: ${
            scrub(sample(bytes), this.#endpoint.apiKey)
          }) — ${hint}`,
        { hint },
      );
    }
  }
}

/** A stream accumulator: reassembles SSE events into the native response. */
export interface StreamAccumulator {
  /** Handles one event; `true` means the stream is complete. */
  handle(event: SseEvent): boolean;
  finish(): Record<string, unknown>;
}

/** Canonical events that count as the model's answer (keep-alives and usage do not). */
const CONTENT_EVENTS = new Set([
  "text",
  "thinking",
  "tool_call_start",
  "tool_call_delta",
  "tool_call_end",
  "stop",
]);

/** What differs between the protocols; {@link defineAdapter} does the exchange. */
export interface AdapterSpec {
  protocol: string;
  buildMessages: ProtocolAdapter["buildMessages"];
  buildTools: ProtocolAdapter["buildTools"];
  parseResponse: ProtocolAdapter["parseResponse"];
  /** Protocol headers (auth, version); `endpoint.headers` are merged over them. */
  headers(endpoint: Endpoint): Record<string, string>;
  /** The request body. */
  body(payload: SendPayload, endpoint: Endpoint): unknown;
  /** A fresh stream accumulator for one request. */
  stream(name: string, emit: SendOptions["emit"]): StreamAccumulator;
}

/**
 * Builds a ProtocolAdapter: one request with retries, a JSON answer (when not
 * streaming, or when the server ignored `stream`) or an SSE stream reassembled
 * into the native shape, canonical events emitted as they arrive.
 */
export function defineAdapter(spec: AdapterSpec, options: AdapterOptions = {}): ProtocolAdapter {
  return {
    protocol: spec.protocol,
    buildMessages: spec.buildMessages,
    buildTools: spec.buildTools,
    parseResponse: spec.parseResponse,
    async send(payload: SendPayload, endpoint: Endpoint, opts: SendOptions): Promise<unknown> {
      const headers = mergeHeaders(
        { "content-type": "application/json", ...spec.headers(endpoint) },
        endpoint.headers,
      );
      const ex = new Exchange(endpoint, opts, options);
      // events the server sent, and how many this protocol understood (none: it is another's)
      const seen = { sse: 0, understood: 0, first: "" };
      const emit: SendOptions["emit"] = (e) => {
        seen.understood++;
        if (CONTENT_EVENTS.has(e.type)) ex.noteContent();
        opts.emit(e);
      };
      try {
        const res = await ex.open(endpoint.url, headers, spec.body(payload, endpoint));
        if (!endpoint.stream || isJsonResponse(res)) {
          const native = await ex.readJson(res);
          emitTurn(spec.parseResponse(native), opts.emit);
          return native;
        }
        const acc = spec.stream(endpoint.name, emit);
        await ex.readSse(res, (e) => {
          if (seen.sse++ === 0) seen.first = eventText(e, endpoint.apiKey);
          return acc.handle(e);
        });
        try {
          return acc.finish();
        } catch (err) {
          throw seen.sse > 0 && seen.understood === 0 ? foreignStream(endpoint, seen, err) : err;
        }
      } catch (err) {
        throw ex.failure(err, "request");
      } finally {
        ex.dispose();
      }
    },
  };
}

/** `Authorization: Bearer <key>` when there is a key (OpenAI-style servers). */
export function bearerAuth(endpoint: Endpoint): Record<string, string> {
  return endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {};
}
