/**
 * A server-sent events response: named events with JSON data, an optional
 * `id:` (the browser sends the last one back as `Last-Event-ID` when it
 * reconnects), and a comment line now and then so that idle connections stay
 * open through proxies.
 *
 * @module
 */

/** Options of {@link SseStream}. */
export interface SseOptions {
  /** Extra response headers (the security headers). */
  headers: Record<string, string>;
  /** A keep-alive comment this often (default 15 s). */
  heartbeatMs?: number;
  /** Called once when the stream ends (client gone, or {@link SseStream.close}). */
  onClose(): void;
}

/** One SSE connection. */
export class SseStream {
  readonly response: Response;
  #controller?: ReadableStreamDefaultController<Uint8Array>;
  #encoder = new TextEncoder();
  #timer?: ReturnType<typeof setInterval>;
  #closed = false;
  #onClose: () => void;

  constructor(opts: SseOptions) {
    this.#onClose = opts.onClose;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.#controller = c;
      },
      cancel: () => this.#end(),
    });
    this.response = new Response(body, {
      headers: {
        ...opts.headers,
        "content-type": "text/event-stream; charset=utf-8",
        "x-accel-buffering": "no",
      },
    });
    this.#timer = setInterval(() => this.#write(": keep-alive\n\n"), opts.heartbeatMs ?? 15_000);
    // tell the browser how long to wait before it reconnects
    this.#write("retry: 1000\n\n");
  }

  /** True once the connection ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one event; `data` is sent as JSON on one line. */
  send(event: string, data: unknown, id?: string): void {
    const json = JSON.stringify(data);
    this.#write(`${id !== undefined ? `id: ${id}\n` : ""}event: ${event}\ndata: ${json}\n\n`);
  }

  #write(text: string): void {
    if (this.#closed || !this.#controller) return;
    try {
      this.#controller.enqueue(this.#encoder.encode(text));
    } catch {
      this.#end();
    }
  }

  /** Ends the stream. */
  close(): void {
    if (this.#closed) return;
    try {
      this.#controller?.close();
    } catch { /* already closed */ }
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#onClose();
  }
}
