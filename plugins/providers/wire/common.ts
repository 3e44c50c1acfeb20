/**
 * Pieces shared by the protocol adapters: tool-call tracking keyed on the
 * protocol's own key (index / item id), argument parsing, stop-reason
 * fallback, request headers and canonical events of a finished turn.
 *
 * @module
 */
import {
  type AssistantBlock,
  type AssistantTurn,
  type Endpoint,
  ProviderError,
  type ProviderEvent,
  type StopReason,
  type ToolSchema,
  type Usage,
} from "../../../core/mod.ts";

/** Input of a tool call from its JSON arguments: "" → {}, invalid → ProviderError. */
export function parseToolArgs(json: string, name: string, id: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json);
  } catch (err) {
    throw new ProviderError(
      `invalid JSON in the arguments of tool call "${name}" (${id}): ${(err as Error).message}`,
      { hint: "the model produced malformed tool arguments; retry the turn" },
    );
  }
}

/**
 * Stop-reason fallback: a reason the mapping does not know becomes
 * `tool_calls` when the turn has tool calls, else `end`. A turn with tool calls
 * always reports `tool_calls` unless it was cut by `length`.
 */
export function finalStop(mapped: StopReason | undefined, blocks: AssistantBlock[]): StopReason {
  const hasCalls = blocks.some((b) => b.type === "tool_call");
  if (mapped === "length") return "length";
  if (hasCalls) return "tool_calls";
  if (mapped === undefined || mapped === "tool_calls") return "end";
  return mapped;
}

/** A number or 0. */
export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** A plain object or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? v as Record<string, unknown>
    : undefined;
}

/** A string or a fallback. */
export function str(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : fallback;
}

interface TrackedCall {
  ordinal: number;
  id: string;
  name: string;
  json: string;
  started: boolean;
  ended: boolean;
  input?: unknown;
  /** Input known without deltas (e.g. a non-empty `input` in content_block_start). */
  preset?: unknown;
}

/**
 * Tracks streamed tool calls by the protocol's key, not by arrival order.
 * Emits `tool_call_start` once the name is known, `tool_call_delta` per
 * argument piece and `tool_call_end` with the parsed input. The canonical
 * `index` is the call's ordinal in order of first appearance.
 */
export class ToolCallTracker {
  #calls = new Map<string, TrackedCall>();
  #emit: (e: ProviderEvent) => void;

  constructor(emit: (e: ProviderEvent) => void) {
    this.#emit = emit;
  }

  #get(key: string): TrackedCall {
    let c = this.#calls.get(key);
    if (!c) {
      c = { ordinal: this.#calls.size, id: "", name: "", json: "", started: false, ended: false };
      this.#calls.set(key, c);
    }
    return c;
  }

  #maybeStart(c: TrackedCall): void {
    if (c.started || c.name === "") return;
    c.started = true;
    this.#emit({ type: "tool_call_start", index: c.ordinal, id: c.id, name: c.name });
    if (c.json !== "") {
      this.#emit({ type: "tool_call_delta", index: c.ordinal, id: c.id, json: c.json });
    }
  }

  /** Whether a key was seen. */
  has(key: string): boolean {
    return this.#calls.has(key);
  }

  /** Records id / name (either may arrive later); `preset` is an input known up front. */
  start(key: string, id: string | undefined, name: string | undefined, preset?: unknown): void {
    const c = this.#get(key);
    if (id && !c.id) c.id = id;
    if (name && !c.name) c.name = name;
    if (preset !== undefined) c.preset = preset;
    this.#maybeStart(c);
  }

  /** Appends an argument piece. */
  delta(key: string, piece: string): void {
    if (piece === "") return;
    const c = this.#get(key);
    if (c.ended) return;
    c.json += piece;
    if (c.started) this.#emit({ type: "tool_call_delta", index: c.ordinal, id: c.id, json: piece });
    else this.#maybeStart(c);
  }

  /** The accumulated arguments of a key. */
  json(key: string): string {
    return this.#calls.get(key)?.json ?? "";
  }

  /**
   * Finishes a call: `fullArgs` (when the server repeats the complete
   * arguments) wins over an empty accumulation. Returns the parsed input.
   */
  end(key: string, fullArgs?: string): { id: string; name: string; input: unknown; json: string } {
    const c = this.#get(key);
    if (!c.ended) {
      if (fullArgs !== undefined && fullArgs !== "" && c.json === "") c.json = fullArgs;
      if (!c.id) c.id = `call_${c.ordinal}`;
      if (!c.started) {
        if (!c.name) c.name = "unknown";
        this.#maybeStart(c);
      }
      c.input = c.json === "" && c.preset !== undefined
        ? c.preset
        : parseToolArgs(c.json, c.name, c.id);
      c.ended = true;
      this.#emit({
        type: "tool_call_end",
        index: c.ordinal,
        id: c.id,
        name: c.name,
        input: c.input,
      });
    }
    return { id: c.id, name: c.name, input: c.input, json: c.json };
  }

  /** Keys not ended yet, in order of first appearance. */
  openKeys(): string[] {
    return [...this.#calls].filter(([, c]) => !c.ended).map(([k]) => k);
  }
}

/** Canonical events of a complete turn (non-streaming responses). */
export function emitTurn(turn: AssistantTurn, emit: (e: ProviderEvent) => void): void {
  let ordinal = 0;
  for (const b of turn.blocks) {
    if (b.type === "text") {
      if (b.text) emit({ type: "text", text: b.text });
    } else if (b.type === "thinking") {
      if (b.text) emit({ type: "thinking", text: b.text });
    } else {
      const index = ordinal++;
      emit({ type: "tool_call_start", index, id: b.id, name: b.name });
      emit({ type: "tool_call_delta", index, id: b.id, json: JSON.stringify(b.input ?? {}) });
      emit({ type: "tool_call_end", index, id: b.id, name: b.name, input: b.input });
    }
  }
  emit({ type: "usage", usage: turn.usage });
  emit({ type: "stop", reason: turn.stop });
}

/** `endpoint.headers` merged over base headers (case-insensitively). */
export function mergeHeaders(
  base: Record<string, string>,
  extra: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) out[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(extra)) out[k.toLowerCase()] = v;
  return out;
}

/** The model of a request: payload.model, then the endpoint's. */
export function requestModel(payloadModel: unknown, endpoint: Endpoint): string {
  return typeof payloadModel === "string" && payloadModel !== "" ? payloadModel : endpoint.model;
}

/** Whether a payload tool is in the neutral `{name, description, input_schema}` shape. */
export function isNeutralTool(t: unknown): t is ToolSchema {
  const o = obj(t);
  return !!o && typeof o.name === "string" && "input_schema" in o && !("type" in o);
}

/** A zero usage. */
export function zeroUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0 };
}

/** Whether a response is JSON rather than SSE (a server that ignored `stream`). */
export function isJsonResponse(res: Response): boolean {
  const ct = res.headers.get("content-type") ?? "";
  return ct.includes("application/json");
}

/** The error an in-stream error event maps to. */
export function streamError(provider: string, message: string): ProviderError {
  return new ProviderError(
    `${provider}: stream ended before completion: server error: ${message}`,
    {
      retryable: true,
    },
  );
}

/** The error a stream that stopped early maps to. */
export function streamCut(provider: string, expected: string): ProviderError {
  return new ProviderError(
    `${provider}: stream ended before completion (no ${expected} received)`,
    { hint: "the connection was closed mid-response; retry", retryable: true },
  );
}
