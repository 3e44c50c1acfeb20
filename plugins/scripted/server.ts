/**
 * The scripted loopback LLM server: `Deno.serve` on 127.0.0.1 answering
 * `/v1/messages` (Anthropic), `/v1/chat/completions` (OpenAI chat) and
 * `/v1/responses` (OpenAI Responses) from a script, in the real wire format.
 *
 * @module
 */
import type {
  RecordedRequest,
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedTurn,
} from "./types.ts";
import type { WireContext, WireEncoder } from "./wire_common.ts";
import { anthropicWire } from "./wire_anthropic.ts";
import { openaiWire } from "./wire_openai.ts";
import { responsesWire } from "./wire_responses.ts";
import { PromptCacheSim } from "./prompt_cache.ts";

const ROUTES: Record<string, WireEncoder> = {
  "/v1/messages": anthropicWire,
  "/v1/chat/completions": openaiWire,
  "/v1/responses": responsesWire,
};

const encoder = new TextEncoder();

/** An in-flight streamed answer that `close()` can stop. */
interface ActiveStream {
  stop(): void;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** The answer to a request of no known route (or not a POST). */
function noRoute(method: string, path: string): Response {
  return jsonResponse(404, {
    error: {
      type: "not_found_error",
      message: `scripted server: no route ${method} ${path}`,
    },
  }, { "x-should-retry": "false" });
}

function outputChars(turn: ScriptedTurn): number {
  let n = (turn.text ?? "").length + (turn.thinking?.text.length ?? 0);
  for (const c of turn.toolCalls ?? []) n += JSON.stringify(c.input ?? {}).length;
  return n;
}

/**
 * Starts a scripted server. Each POST to a known route consumes the next turn
 * (a fault turn with `repeat: n` answers n requests); past the end of the
 * script every request gets HTTP 500 with a JSON error and `x-should-retry: false`.
 */
export function startScriptedServer(
  script: ScriptedTurn[],
  opts: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  const active = new Set<ActiveStream>();
  let cursor = 0;
  let used = 0;
  let count = 0;
  const cache = opts.promptCache ? new PromptCacheSim() : undefined;
  const stream = (frames: string[], delayMs: number, drop: boolean) =>
    streamResponse(frames, delayMs, drop, active);

  const nextTurn = (): ScriptedTurn | undefined => {
    const turn = script[cursor];
    if (!turn) return undefined;
    const reps = turn.fault ? Math.max(1, turn.repeat ?? 1) : 1;
    used++;
    if (used >= reps) {
      cursor++;
      used = 0;
    }
    return turn;
  };

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const wire = ROUTES[url.pathname];
    if (!wire || req.method !== "POST") return noRoute(req.method, url.pathname);
    const raw = await req.text();
    let body: unknown = undefined;
    try {
      body = JSON.parse(raw);
    } catch { /* recorded as undefined */ }
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => headers[k] = v);
    const recorded: RecordedRequest = { method: req.method, path: url.pathname, headers, body };
    requests.push(recorded);
    count++;
    if (body === undefined || typeof body !== "object" || body === null) {
      return jsonResponse(
        400,
        wire.errorBody(400, "scripted server: request body is not a JSON object"),
        {
          "x-should-retry": "false",
        },
      );
    }
    const turn = nextTurn();
    if (!turn) {
      const msg =
        `scripted server: script exhausted (${script.length} turns) at request #${count} to ${url.pathname}`;
      failures.push(msg);
      return jsonResponse(500, wire.errorBody(500, msg), { "x-should-retry": "false" });
    }
    if (turn.expect) {
      const problem = turn.expect(recorded);
      if (problem !== undefined) {
        const msg = `scripted expectation failed at request #${count}: ${problem}`;
        failures.push(msg);
        return jsonResponse(400, wire.errorBody(400, msg), { "x-should-retry": "false" });
      }
    }
    const fault = turn.fault;
    if (fault?.kind === "status") {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
      const text = fault.body ??
        JSON.stringify(wire.errorBody(fault.status, `scripted status ${fault.status}`));
      return new Response(text, { status: fault.status, headers });
    }
    const b = body as Record<string, unknown>;
    const ctx = wireContext(
      wire,
      turn,
      count,
      raw,
      b,
      url.pathname === "/v1/messages" ? cache : undefined,
    );
    return answerTurn(wire, ctx, b.stream === true, stream);
  };

  const ac = new AbortController();
  const server = Deno.serve({
    hostname: opts.hostname ?? "127.0.0.1",
    port: opts.port ?? 0,
    signal: ac.signal,
    onListen() {},
    onError(err) {
      return jsonResponse(500, {
        error: { type: "api_error", message: `scripted server error: ${String(err)}` },
      });
    },
  }, handler);
  const addr = server.addr as Deno.NetAddr;
  let closed: Promise<void> | undefined;
  return Promise.resolve({
    url: `http://${addr.hostname}:${addr.port}`,
    requests,
    failures,
    remaining: () => script.length - cursor,
    close() {
      if (!closed) {
        closed = (async () => {
          for (const s of [...active]) s.stop();
          active.clear();
          ac.abort();
          await server.finished;
        })();
      }
      return closed;
    },
  });
}

/**
 * A streamed answer of `frames`, one every `delayMs` after the first; `drop` ends it with a
 * connection error. It is in `active` while it runs (so `close()` can stop it).
 */
function streamResponse(
  frames: string[],
  delayMs: number,
  drop: boolean,
  active: Set<ActiveStream>,
): Response {
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  let stopped = false;
  let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;
  const entry: ActiveStream = {
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      wake?.();
      try {
        ctl?.close();
      } catch { /* already closed */ }
    },
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctl = c;
      active.add(entry);
    },
    async pull(c) {
      if (i > 0 && delayMs > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, delayMs);
        });
        timer = undefined;
        wake = undefined;
      }
      if (stopped) return;
      if (i < frames.length) {
        c.enqueue(encoder.encode(frames[i++]));
        return;
      }
      active.delete(entry);
      stopped = true;
      if (drop) c.error(new Error("scripted server: connection dropped mid-stream"));
      else c.close();
    },
    cancel() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      wake?.();
      active.delete(entry);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    },
  });
}

/**
 * The answer to one request for a turn: streamed frames or one JSON body in the route's wire
 * format, or the turn's fault (a connection dropped mid-stream, an error event, a malformed
 * frame or body).
 */
function answerTurn(
  wire: WireEncoder,
  ctx: WireContext,
  streamed: boolean,
  stream: (frames: string[], delayMs: number, drop: boolean) => Response,
): Response {
  const turn = ctx.turn;
  const fault = turn.fault;
  if (streamed) {
    const frames = wire.frames(ctx);
    const delay = turn.delayMs ?? 0;
    if (!fault) return stream(frames, delay, false);
    const cut = Math.max(1, Math.floor(frames.length / 2));
    const head = frames.slice(0, cut);
    if (fault.kind === "drop-mid-stream") return stream(head, delay, true);
    if (fault.kind === "error-event") {
      return stream([...head, wire.errorFrame(ctx)], delay, false);
    }
    const bad = frames[cut].includes("event: ")
      ? frames[cut].replace(
        /data: .*/,
        'data: {"type": "content_block_delta", "index": 0, "delta": {',
      )
      : 'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "x"\n\n';
    return stream([...head, bad, ...frames.slice(cut + 1)], delay, false);
  }
  const json = JSON.stringify(wire.json(ctx));
  if (!fault) return jsonResponse(200, JSON.parse(json));
  if (fault.kind === "error-event") return jsonResponse(200, wire.errorBody(500, "Overloaded"));
  const partial = json.slice(0, Math.max(1, Math.floor(json.length / 2)));
  if (fault.kind === "malformed-json") {
    return new Response(partial, {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }
  return stream([partial], 0, true);
}

/**
 * What a wire encoder answers a request with: its number, the model it named, the turn's
 * tool calls with their ids, and the usage (the turn's, else estimated from the sizes; with
 * a prompt cache simulation, the cached part of the input counted apart).
 */
function wireContext(
  wire: WireEncoder,
  turn: ScriptedTurn,
  count: number,
  raw: string,
  b: Record<string, unknown>,
  cache: PromptCacheSim | undefined,
): WireContext {
  const model = typeof b.model === "string" && b.model !== "" ? b.model : "scripted-model";
  let k = 0;
  const toolCalls = (turn.toolCalls ?? []).map((c) => ({
    id: c.id ?? `${wire.callIdPrefix}${count}_${k++}`,
    name: c.name,
    input: c.input,
  }));
  const usage: WireContext["usage"] = turn.usage ?? {
    input_tokens: Math.max(1, Math.ceil(raw.length / 4)),
    output_tokens: Math.max(1, Math.ceil(outputChars(turn) / 4)),
  };
  if (cache && !turn.usage) {
    const { read, written } = cache.account(b);
    usage.input_tokens = Math.max(1, usage.input_tokens - read - written);
    usage.cache_read_input_tokens = read;
    usage.cache_creation_input_tokens = written;
  }
  const ctx: WireContext = {
    n: count,
    model,
    turn,
    toolCalls,
    created: Math.floor(Date.now() / 1000),
    usage,
  };
  return ctx;
}
