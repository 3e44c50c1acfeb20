/**
 * Shared helpers of the provider tests: endpoints, event capture and raw
 * loopback servers that replay fixture bytes in tiny chunks.
 *
 * @module
 */
import type { Endpoint, ProviderEvent, SendOptions } from "../../../core/mod.ts";
import type { AdapterOptions } from "../../../plugins/providers/wire/http.ts";

/** Retry policy with tiny delays for tests. */
export const FAST: AdapterOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20 } };

/** An endpoint for tests. */
export function endpoint(url: string, over: Partial<Endpoint> = {}): Endpoint {
  return {
    name: "test",
    url,
    apiKey: "sk-test-SECRET-key-0123456789",
    model: "test-model",
    maxTokens: 256,
    headers: {},
    timeoutMs: 5000,
    stream: true,
    ...over,
  };
}

/** Send options collecting events. */
export function capture(signal?: AbortSignal): { events: ProviderEvent[]; options: SendOptions } {
  const events: ProviderEvent[] = [];
  return {
    events,
    options: { emit: (e) => events.push(e), signal: signal ?? new AbortController().signal },
  };
}

/** Path of a stream fixture. */
export function fixturePath(name: string): string {
  return new URL(`../../fixtures/streams/${name}`, import.meta.url).pathname;
}

/** A raw loopback server. */
export interface RawServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `bytes` as an SSE body, `chunkSize` bytes per write (splitting
 * multi-byte characters), to every request.
 */
export function serveBytes(bytes: Uint8Array, chunkSize: number): RawServer {
  const ac = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen() {},
  }, async (req) => {
    await req.body?.cancel();
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (i >= bytes.length) return c.close();
        c.enqueue(bytes.slice(i, i + chunkSize));
        i += chunkSize;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

/** A fetch that answers with `bytes` split into `chunkSize`-byte reads (deterministic splits). */
export function chunkedFetch(bytes: Uint8Array, chunkSize: number): typeof fetch {
  return (_input, init) => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (init?.signal?.aborted) return c.error(init.signal.reason);
        if (i >= bytes.length) return c.close();
        c.enqueue(bytes.slice(i, i + chunkSize));
        i += chunkSize;
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { "content-type": "text/event-stream" } }),
    );
  };
}

/** Serves a fixed status/body (and headers) for each request in turn; the last repeats. */
export function serveSequence(
  answers: { status: number; body: string; headers?: Record<string, string> }[],
): RawServer & { count(): number } {
  const ac = new AbortController();
  let n = 0;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen() {},
  }, async (req) => {
    await req.body?.cancel();
    const a = answers[Math.min(n++, answers.length - 1)];
    return new Response(a.body, {
      status: a.status,
      headers: { "content-type": "application/json", ...a.headers },
    });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    count: () => n,
    async close() {
      ac.abort();
      await server.finished;
    },
  };
}

/** Joins text events. */
export function textOf(events: ProviderEvent[]): string {
  return events.flatMap((e) => e.type === "text" ? [e.text] : []).join("");
}
