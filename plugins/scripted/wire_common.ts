/**
 * Helpers shared by the scripted server's wire encoders.
 *
 * @module
 */
import type { ScriptedToolCall, ScriptedTurn } from "./types.ts";

/** Everything an encoder needs to answer one request. */
export interface WireContext {
  /** 1-based request number (used in generated ids). */
  n: number;
  model: string;
  turn: ScriptedTurn;
  /** Usage to report; `input_tokens` excludes the cache fields (Anthropic's sense). */
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  /** Tool calls with ids filled in. */
  toolCalls: Required<ScriptedToolCall>[];
  /** Whole-second creation time. */
  created: number;
}

/** A protocol's scripted answers. */
export interface WireEncoder {
  /** Non-streaming response body. */
  json(ctx: WireContext): unknown;
  /** The complete SSE stream, one string per event (each ends with a blank line). */
  frames(ctx: WireContext): string[];
  /** The protocol's in-stream error event. */
  errorFrame(ctx: WireContext): string;
  /** A body for an HTTP error status. */
  errorBody(status: number, message: string): unknown;
  /** Prefix of generated tool call ids. */
  callIdPrefix: string;
}

/** Splits `text` into pieces of at most `size` code points (never splits a surrogate pair). */
export function chunks(text: string, size: number): string[] {
  if (text === "") return [];
  const cps = Array.from(text);
  if (size <= 0 || cps.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(""));
  return out;
}

/** One SSE frame with an `event:` line. */
export function namedFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** One SSE frame without an `event:` line. */
export function dataFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** Canonical stop of a turn, before protocol mapping. */
export function turnStop(turn: ScriptedTurn): string {
  if (turn.stop !== undefined) return turn.stop;
  return turn.toolCalls && turn.toolCalls.length > 0 ? "tool_calls" : "end";
}

/** Default chunk size of a turn. */
export function chunkSize(turn: ScriptedTurn): number {
  return turn.chunkSize ?? 16;
}

/** A generic error type name for an HTTP status. */
export function errorTypeFor(status: number): string {
  if (status === 400) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status === 529) return "overloaded_error";
  return "api_error";
}
