/**
 * Server-sent events decoding: bytes → UTF-8 text (multi-byte characters may be
 * split across chunks) → SSE events via `eventsource-parser`. Events are handed
 * to the callback synchronously as soon as their terminating blank line
 * arrives, so the caller can emit deltas without buffering.
 *
 * @module
 */
import { createParser } from "eventsource-parser";
import { ProviderError } from "../../../core/mod.ts";

/** One SSE event: the `event:` name (if any) and the joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Feeds decoded SSE events to a handler; `push` accepts raw bytes as they arrive. */
export class SseDecoder {
  #decoder = new TextDecoder("utf-8");
  #parser;

  /** `onEvent` may throw: the error propagates out of `push` / `end`. */
  constructor(onEvent: (event: SseEvent) => void) {
    this.#parser = createParser({
      onEvent: (e) => onEvent({ event: e.event, data: e.data }),
    });
  }

  /** Decodes a chunk of bytes and dispatches every complete event in it. */
  push(bytes: Uint8Array): void {
    const text = this.#decoder.decode(bytes, { stream: true });
    if (text) this.#parser.feed(text);
  }

  /** Flushes the decoder; a trailing event without its blank line is dispatched too. */
  end(): void {
    const rest = this.#decoder.decode();
    if (rest) this.#parser.feed(rest);
    this.#parser.reset({ consume: true });
  }
}

/** Parses an event's data as JSON; malformed data → ProviderError naming the event. */
export function parseEventJson(event: SseEvent, provider: string): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    const name = event.event ?? "data";
    const snippet = event.data.length > 80 ? `${event.data.slice(0, 80)}…` : event.data;
    throw new ProviderError(
      `${provider}: malformed JSON in SSE event "${name}": ${snippet}`,
      { hint: "the server sent a broken stream; retry, or set stream=never in the .conf" },
    );
  }
}
