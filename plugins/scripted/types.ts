/**
 * Types of the scripted loopback LLM server: a script is a list of turns, one
 * per model request, answered in the real wire format of the requested
 * protocol.
 *
 * @module
 */

/** A tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Call id; generated (`toolu_…` / `call_…`) when absent. */
  id?: string;
  name: string;
  /** The call's input object (serialized as JSON arguments on the wire). */
  input: unknown;
}

/** A failure the scripted server injects instead of (or in the middle of) an answer. */
export type ScriptedFault =
  | {
    kind: "status";
    /** HTTP status, e.g. 429, 500, 529, 401. */
    status: number;
    /** Raw response body; defaults to the protocol's JSON error shape. */
    body?: string;
    /** `retry-after` header value (seconds or an HTTP date). */
    retryAfter?: string;
  }
  /** Sends the first part of the answer, then drops the connection. */
  | { kind: "drop-mid-stream" }
  /** Sends the first part of the answer, then the protocol's SSE error event. */
  | { kind: "error-event" }
  /** Sends the first part of the answer, then a data line that is not JSON. */
  | { kind: "malformed-json" };

/** A request as the scripted server received it. */
export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/v1/messages`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (`undefined` when the body was not JSON). */
  body: unknown;
}

/** One scripted answer; each model request consumes the next turn. */
export interface ScriptedTurn {
  text?: string;
  thinking?: { text: string; signature: string };
  toolCalls?: ScriptedToolCall[];
  /**
   * Stop reason. A canonical value (`end`, `tool_calls`, `length`) is mapped to the
   * protocol's native value; any other string is sent as is. Default: `tool_calls`
   * when there are tool calls, else `end`.
   */
  stop?: string;
  /**
   * Usage to report. `input_tokens` excludes the cache fields (Anthropic's sense; OpenAI
   * wires report their sum as `prompt_tokens` with `cached_tokens` in the details).
   */
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
  /** Splits text, thinking and arguments into deltas of this many characters (default 16). */
  chunkSize?: number;
  /** Delay between SSE events, in ms (default 0). */
  delayMs?: number;
  fault?: ScriptedFault;
  /** How many requests a fault turn answers (default 1). */
  repeat?: number;
  /**
   * Checks the request; a returned string fails it with HTTP 400 and that message
   * (recorded in `ScriptedServer.failures`).
   */
  expect?: (req: RecordedRequest) => string | undefined;
}

/** A running scripted server. */
export interface ScriptedServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Messages of failed `expect` checks and of requests past the end of the script. */
  failures: string[];
  /** Number of script turns not consumed yet. */
  remaining(): number;
  /** Stops the server (cancels streams in flight). */
  close(): Promise<void>;
}

/** Options of `startScriptedServer`. */
export interface ScriptedServerOptions {
  /** Port to listen on (default 0: any free port). */
  port?: number;
  /** Hostname (default 127.0.0.1). */
  hostname?: string;
  /**
   * Simulate Anthropic prompt caching: a request's `cache_control` breakpoints write their
   * prefix to a cache, and a later request whose prefix matches one (at a breakpoint or up
   * to 20 blocks before it) reports it as `cache_read_input_tokens` in its default usage.
   */
  promptCache?: boolean;
}
