/**
 * Hostile model servers for the fault-injection suite: a loopback server that
 * answers each request with the next behaviour of a list — a valid answer in
 * the requested protocol (Anthropic Messages or OpenAI chat, streamed or not),
 * or a fault: statuses, HTML pages, wrong content types, keep-alive floods,
 * cut and malformed streams, garbage bytes, huge bodies.
 *
 * Valid answers reuse the scripted server's wire encoders.
 */
import { anthropicWire } from "../../plugins/scripted/wire_anthropic.ts";
import { openaiWire } from "../../plugins/scripted/wire_openai.ts";
import type { WireContext, WireEncoder } from "../../plugins/scripted/wire_common.ts";
import type { ScriptedTurn } from "../../plugins/scripted/types.ts";

/** The protocols the suite drives. */
export type Protocol = "anthropic" | "openai";

/** One request as the hostile server saw it. */
export interface HostileRequest {
  n: number;
  protocol: Protocol;
  body: Record<string, unknown>;
  stream: boolean;
  wire: WireEncoder;
}

/** What the server does with one request. */
export type Behaviour = (req: HostileRequest, stream: StreamKit) => Response;

/** Builds streaming bodies that end when the client leaves or the server closes. */
export interface StreamKit {
  /** An SSE response from a frame source called every `everyMs` until it returns null. */
  sse(
    next: (i: number) => string | Uint8Array | null,
    opts?: { everyMs?: number; contentType?: string; fail?: boolean },
  ): Response;
}

const encoder = new TextEncoder();

function ctxOf(req: HostileRequest, turn: ScriptedTurn): WireContext {
  return {
    n: req.n,
    model: typeof req.body.model === "string" ? req.body.model : "hostile-1",
    turn,
    toolCalls: (turn.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `${req.wire.callIdPrefix}${req.n}_${i}`,
      name: c.name,
      input: c.input,
    })),
    created: 1_700_000_000,
    usage: turn.usage ?? { input_tokens: 10, output_tokens: 5 },
  };
}

/** A valid answer, streamed or not as the request asked. */
export function answer(turn: ScriptedTurn): Behaviour {
  return (req, kit) => {
    const ctx = ctxOf(req, turn);
    if (!req.stream) {
      return new Response(JSON.stringify(req.wire.json(ctx)), {
        headers: { "content-type": "application/json" },
      });
    }
    const frames = req.wire.frames(ctx);
    return kit.sse((i) => frames[i] ?? null, { everyMs: 0 });
  };
}

/** An HTTP status with a body (JSON error shape by default). */
export function status(code: number, opts: { body?: string; retryAfter?: string } = {}): Behaviour {
  return (req) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.retryAfter !== undefined) headers["retry-after"] = opts.retryAfter;
    const body = opts.body ?? JSON.stringify(req.wire.errorBody(code, `hostile status ${code}`));
    return new Response(body, { status: code, headers });
  };
}

/** A 200 HTML page (a captive portal, a proxy login, a wrong path). */
export function htmlPage(): Behaviour {
  return () =>
    new Response(
      "<!DOCTYPE html>\n<html><head><title>Sign in - Corporate Proxy</title></head>" +
        "<body><form>…</form></body></html>\n",
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
}

/** A 200 with a body and content type of the caller's choosing. */
export function raw(body: string | Uint8Array, contentType: string): Behaviour {
  return () =>
    new Response(typeof body === "string" ? body : body.slice(), {
      headers: { "content-type": contentType },
    });
}

/** The head of a stream a server sends before any content (message_start for Anthropic). */
function preamble(req: HostileRequest): string[] {
  if (req.protocol !== "anthropic") return [];
  const frames = req.wire.frames(ctxOf(req, { text: "x" }));
  return frames.filter((f) => f.startsWith("event: message_start"));
}

function keepaliveFrame(req: HostileRequest, kind: "ping" | "comment"): string {
  if (kind === "ping" && req.protocol === "anthropic") {
    return 'event: ping\ndata: {"type": "ping"}\n\n';
  }
  return ": keep-alive\n\n";
}

/**
 * Keep-alives forever (Anthropic `ping` events or `:` comments), optionally
 * after a first piece of text.
 */
export function keepalives(kind: "ping" | "comment", opts: { afterText?: string } = {}): Behaviour {
  return (req, kit) => {
    const head = preamble(req);
    if (opts.afterText !== undefined) {
      const frames = req.wire.frames(ctxOf(req, { text: opts.afterText, chunkSize: 10_000 }));
      const firstText = frames.findIndex((f) => f.includes(JSON.stringify(opts.afterText)));
      head.length = 0;
      head.push(...frames.slice(0, firstText + 1));
    }
    return kit.sse((i) => (i < head.length ? head[i] : keepaliveFrame(req, kind)), { everyMs: 20 });
  };
}

/** The first half of a valid stream, then the connection drops. */
export function cut(text: string): Behaviour {
  return (req, kit) => {
    const frames = req.wire.frames(ctxOf(req, { text, chunkSize: 4 }));
    const half = frames.slice(0, Math.floor(frames.length / 2));
    return kit.sse((i) => half[i] ?? null, { fail: true });
  };
}

/** A stream whose next event's data is not JSON. */
export function malformed(): Behaviour {
  return (req, kit) => {
    const bad = req.protocol === "anthropic"
      ? 'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {\n\n'
      : 'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "x"\n\n';
    const frames = [...preamble(req), bad];
    return kit.sse((i) => frames[i] ?? null);
  };
}

/** Bytes that are no event stream at all, labelled as one. */
export function garbage(size = 8192): Behaviour {
  return (_req, kit) => {
    const bytes = new Uint8Array(size);
    let seed = 7;
    for (let i = 0; i < size; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const b = seed % 256;
      bytes[i] = b === 0x0a || b === 0x0d ? 0x20 : b;
    }
    return kit.sse((i) => (i === 0 ? bytes : null));
  };
}

/** An answer of `bytes` bytes of text: streamed in 64 KiB deltas, or one JSON body. */
export function huge(bytes: number): Behaviour {
  return (req, kit) => {
    const piece = "x".repeat(64 * 1024);
    if (!req.stream) {
      const text = "x".repeat(bytes);
      return new Response(JSON.stringify(req.wire.json(ctxOf(req, { text }))), {
        headers: { "content-type": "application/json" },
      });
    }
    const frames = req.wire.frames(ctxOf(req, { text: piece, chunkSize: piece.length }));
    const deltaAt = frames.findIndex((f) => f.includes(piece));
    const head = frames.slice(0, deltaAt);
    const delta = frames[deltaAt];
    const tail = frames.slice(deltaAt + 1);
    const count = Math.ceil(bytes / piece.length);
    return kit.sse((i) =>
      i < head.length
        ? head[i]
        : i < head.length + count
        ? delta
        : tail[i - head.length - count] ?? null
    );
  };
}

/** A running hostile server. */
export interface HostileServer {
  url: string;
  requests: HostileRequest[];
  close(): Promise<void>;
}

/** Starts a server answering request n with `behaviours[n]` (past the end: HTTP 500, no retry). */
export function startHostile(behaviours: Behaviour[]): HostileServer {
  const requests: HostileRequest[] = [];
  const active = new Set<() => void>();
  const kit: StreamKit = {
    sse(next, opts = {}) {
      let i = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let wake: (() => void) | undefined;
      let stopped = false;
      let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearTimeout(timer);
        wake?.();
        try {
          ctl?.close();
        } catch { /* closed */ }
      };
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          ctl = c;
          active.add(stop);
        },
        async pull(c) {
          const every = opts.everyMs ?? 0;
          if (i > 0 && every > 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, every);
            });
          }
          if (stopped) return;
          const frame = next(i++);
          if (frame === null) {
            stopped = true;
            active.delete(stop);
            if (opts.fail) c.error(new Error("hostile server: connection dropped"));
            else c.close();
            return;
          }
          c.enqueue(typeof frame === "string" ? encoder.encode(frame) : frame);
        },
        cancel() {
          stopped = true;
          clearTimeout(timer);
          wake?.();
          active.delete(stop);
        },
      });
      return new Response(body, {
        headers: { "content-type": opts.contentType ?? "text/event-stream; charset=utf-8" },
      });
    },
  };
  const ac = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: ac.signal,
    onListen() {},
  }, async (req) => {
    const path = new URL(req.url).pathname;
    const protocol: Protocol = path === "/v1/messages" ? "anthropic" : "openai";
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(await req.text());
    } catch { /* recorded empty */ }
    const r: HostileRequest = {
      n: requests.length + 1,
      protocol,
      body,
      stream: body.stream === true,
      wire: protocol === "anthropic" ? anthropicWire : openaiWire,
    };
    requests.push(r);
    const b = behaviours[r.n - 1];
    if (!b) {
      return new Response(
        JSON.stringify(r.wire.errorBody(500, "hostile server: no more answers")),
        {
          status: 500,
          headers: { "content-type": "application/json", "x-should-retry": "false" },
        },
      );
    }
    return b(r, kit);
  });
  const addr = server.addr as Deno.NetAddr;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${addr.hostname}:${addr.port}`,
    requests,
    close() {
      closed ??= (async () => {
        for (const stop of [...active]) stop();
        ac.abort();
        await server.finished;
      })();
      return closed;
    },
  };
}
