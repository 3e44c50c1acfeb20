/**
 * Anthropic Messages API adapter (`protocol=anthropic`).
 *
 * @module
 */
import { z } from "zod";
import { firstUse } from "../../../core/early/mod.ts";
import {
  type AssistantBlock,
  type AssistantTurn,
  type ConversationMessage,
  type Endpoint,
  type ProtocolAdapter,
  ProviderError,
  type ProviderEvent,
  type SendPayload,
  type StopReason,
  type ToolSchema,
  type Usage,
} from "../../../core/mod.ts";
import {
  finalStop,
  isNeutralTool,
  num,
  obj,
  parseToolArgs,
  requestModel,
  str,
  streamCut,
  streamError,
  ToolCallTracker,
} from "./common.ts";
import { type AdapterOptions, defineAdapter } from "./http.ts";
import { parseEventJson, type SseEvent } from "./sse.ts";

/** Native stop_reason → canonical stop (unknown values use the fallback of `finalStop`). */
export const ANTHROPIC_STOPS: Readonly<Record<string, StopReason>> = {
  end_turn: "end",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  stop_sequence: "end",
  pause_turn: "end",
  refusal: "end",
};

/** The `anthropic-version` header sent with every request. */
export const ANTHROPIC_VERSION = "2023-06-01";

/** Anthropic tools from neutral schemas. */
export function anthropicTools(tools: ToolSchema[]): unknown[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.input_schema,
  }));
}

/** Anthropic `messages` from the canonical conversation. */
export function anthropicMessages(conversation: ConversationMessage[]): unknown[] {
  const out: Record<string, unknown>[] = [];
  let results: Record<string, unknown>[] | undefined;
  for (const m of conversation) {
    if (m.role === "tool_result") {
      const block: Record<string, unknown> = {
        type: "tool_result",
        tool_use_id: m.callId,
        content: m.text,
      };
      if (m.error) block.is_error = true;
      if (results) results.push(block);
      else {
        results = [block];
        out.push({ role: "user", content: results });
      }
      continue;
    }
    results = undefined;
    if (m.role === "user") {
      out.push({
        role: "user",
        content: m.images?.length
          ? [
            ...m.images.map((i) => ({
              type: "image",
              source: { type: "base64", media_type: i.mimeType, data: i.data },
            })),
            ...(m.text === "" ? [] : [{ type: "text", text: m.text }]),
          ]
          : m.text,
      });
      continue;
    }
    const blocks: Record<string, unknown>[] = [];
    for (const b of m.blocks) {
      if (b.type === "text") {
        if (b.text.trim() !== "") blocks.push({ type: "text", text: b.text });
      } else if (b.type === "thinking") {
        blocks.push({ type: "thinking", thinking: b.text, signature: b.signature });
      } else {
        blocks.push({ type: "tool_use", id: b.id, name: b.name, input: obj(b.input) ?? {} });
      }
    }
    if (blocks.length === 0) continue;
    out.push({
      role: "assistant",
      content: blocks.length === 1 && blocks[0].type === "text" ? blocks[0].text : blocks,
    });
  }
  return out;
}

const blockSchema = firstUse(() => z.looseObject({ type: z.string() }));
const messageSchema = firstUse(() =>
  z.looseObject({
    id: z.string().optional(),
    model: z.string().optional(),
    content: z.array(blockSchema()),
    stop_reason: z.string().nullish(),
    usage: z.looseObject({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
      cache_creation_input_tokens: z.number().nullish(),
    }).nullish(),
  })
);

/** Canonical usage of an Anthropic `usage` object (cache fields only when reported). */
export function anthropicUsage(u: Record<string, unknown> | null | undefined): Usage {
  const usage: Usage = {
    input_tokens: num(u?.input_tokens),
    output_tokens: num(u?.output_tokens),
  };
  if (num(u?.cache_read_input_tokens) > 0) {
    usage.cache_read_input_tokens = num(u?.cache_read_input_tokens);
  }
  if (num(u?.cache_creation_input_tokens) > 0) {
    usage.cache_creation_input_tokens = num(u?.cache_creation_input_tokens);
  }
  return usage;
}

/** Canonical turn of a native Anthropic message. */
export function parseAnthropicResponse(native: unknown): AssistantTurn {
  const o = obj(native);
  if (o?.type === "error") {
    const e = obj(o.error);
    throw new ProviderError(`anthropic API error: ${str(e?.message, "unknown error")}`);
  }
  const res = messageSchema().safeParse(native);
  if (!res.success) {
    throw new ProviderError(
      `unusable Anthropic response: ${res.error.issues[0]?.path.join(".") || "body"}: ${
        res.error.issues[0]?.message
      }`,
    );
  }
  const msg = res.data;
  const blocks: AssistantBlock[] = [];
  for (const b of msg.content) {
    if (b.type === "text") blocks.push({ type: "text", text: str(b.text) });
    else if (b.type === "thinking") {
      blocks.push({ type: "thinking", text: str(b.thinking), signature: str(b.signature) });
    } else if (b.type === "tool_use") {
      const id = str(b.id);
      const name = str(b.name);
      const input = typeof b.input === "string" ? parseToolArgs(b.input, name, id) : b.input ?? {};
      blocks.push({ type: "tool_call", id, name, input });
    }
  }
  const mapped = msg.stop_reason ? ANTHROPIC_STOPS[msg.stop_reason] : undefined;
  return {
    blocks,
    stop: finalStop(mapped, blocks),
    usage: anthropicUsage(msg.usage),
    model: msg.model ?? "",
  };
}

const TEXT_PREFIX = '{"type":"content_block_delta","index":';
const TEXT_MID = ',"delta":{"type":"text_delta","text":';

interface OpenBlock {
  type: string;
  text: string;
  signature: string;
  id?: string;
  name?: string;
  input?: unknown;
  done: boolean;
}

/**
 * Reassembles an Anthropic SSE stream into the native message shape while
 * emitting canonical events. Blocks are keyed on `index`.
 */
export class AnthropicStream {
  #provider: string;
  #emit: (e: ProviderEvent) => void;
  #tools: ToolCallTracker;
  #blocks = new Map<number, OpenBlock>();
  #id?: string;
  #model = "";
  #stop: string | null = null;
  #usage: Usage = { input_tokens: 0, output_tokens: 0 };
  #done = false;

  constructor(provider: string, emit: (e: ProviderEvent) => void) {
    this.#provider = provider;
    this.#emit = emit;
    this.#tools = new ToolCallTracker(emit);
  }

  #usageFrom(u: unknown): void {
    const o = obj(u);
    if (!o) return;
    if (typeof o.input_tokens === "number") this.#usage.input_tokens = o.input_tokens;
    if (typeof o.output_tokens === "number") this.#usage.output_tokens = o.output_tokens;
    if (num(o.cache_read_input_tokens) > 0) {
      this.#usage.cache_read_input_tokens = num(o.cache_read_input_tokens);
    }
    if (num(o.cache_creation_input_tokens) > 0) {
      this.#usage.cache_creation_input_tokens = num(o.cache_creation_input_tokens);
    }
  }

  #block(index: number, type: string): OpenBlock {
    let b = this.#blocks.get(index);
    if (!b) {
      b = { type, text: "", signature: "", done: false };
      this.#blocks.set(index, b);
    }
    return b;
  }

  #close(index: number, b: OpenBlock): void {
    if (b.done) return;
    b.done = true;
    if (b.type === "tool_use") b.input = this.#tools.end(`b${index}`).input;
  }

  /**
   * Fast path for the dominant event, a compact `text_delta` exactly as the API
   * writes it: only the text literal is parsed. Anything else (extra fields,
   * other spacing) returns false and takes the general path.
   */
  #fastText(data: string): boolean {
    if (!data.startsWith(TEXT_PREFIX) || !data.endsWith('"}}')) return false;
    const mid = data.indexOf(TEXT_MID, TEXT_PREFIX.length);
    if (mid < 0 || mid - TEXT_PREFIX.length > 6) return false;
    const index = Number(data.slice(TEXT_PREFIX.length, mid));
    if (!Number.isInteger(index)) return false;
    let text: unknown;
    try {
      text = JSON.parse(data.slice(mid + TEXT_MID.length, data.length - 2));
    } catch {
      return false;
    }
    if (typeof text !== "string") return false;
    this.#block(index, "text").text += text;
    if (text) this.#emit({ type: "text", text });
    return true;
  }

  /** Handles one SSE event; returns true after `message_stop`. */
  handle(ev: SseEvent): boolean {
    if (this.#fastText(ev.data)) return false;
    const d = parseEventJson(ev, this.#provider) as Record<string, unknown>;
    const type = str(obj(d)?.type, ev.event ?? "");
    switch (type) {
      case "content_block_delta": {
        const index = num(d.index);
        const delta = obj(d.delta) ?? {};
        const dt = str(delta.type);
        if (dt === "text_delta") {
          const text = str(delta.text);
          this.#block(index, "text").text += text;
          if (text) this.#emit({ type: "text", text });
        } else if (dt === "thinking_delta") {
          const text = str(delta.thinking);
          this.#block(index, "thinking").text += text;
          if (text) this.#emit({ type: "thinking", text });
        } else if (dt === "signature_delta") {
          this.#block(index, "thinking").signature += str(delta.signature);
        } else if (dt === "input_json_delta") {
          this.#block(index, "tool_use");
          this.#tools.delta(`b${index}`, str(delta.partial_json));
        }
        return false;
      }
      case "content_block_start": {
        const index = num(d.index);
        const cb = obj(d.content_block) ?? {};
        const b = this.#block(index, str(cb.type, "text"));
        if (b.type === "text") {
          const text = str(cb.text);
          b.text += text;
          if (text) this.#emit({ type: "text", text });
        } else if (b.type === "thinking") {
          const text = str(cb.thinking);
          b.text += text;
          b.signature += str(cb.signature);
          if (text) this.#emit({ type: "thinking", text });
        } else if (b.type === "tool_use") {
          b.id = str(cb.id);
          b.name = str(cb.name);
          const input = obj(cb.input);
          const preset = input && Object.keys(input).length > 0 ? input : undefined;
          this.#tools.start(`b${index}`, b.id, b.name, preset);
        } else {
          b.input = cb;
        }
        return false;
      }
      case "content_block_stop": {
        const index = num(d.index);
        const b = this.#blocks.get(index);
        if (b) this.#close(index, b);
        return false;
      }
      case "message_start": {
        const m = obj(d.message) ?? {};
        if (typeof m.id === "string") this.#id = m.id;
        this.#model = str(m.model, this.#model);
        this.#usageFrom(m.usage);
        return false;
      }
      case "message_delta": {
        const delta = obj(d.delta) ?? {};
        if (typeof delta.stop_reason === "string") this.#stop = delta.stop_reason;
        this.#usageFrom(d.usage);
        this.#usageFrom(delta.usage);
        return false;
      }
      case "message_stop":
        this.#usageFrom(d.usage);
        this.#done = true;
        return true;
      case "error": {
        const e = obj(d.error) ?? {};
        const message = [str(e.type), str(e.message)].filter(Boolean).join(": ") || "unknown error";
        this.#emit({ type: "error", message });
        throw streamError(this.#provider, message);
      }
      default:
        return false; // ping and unknown events
    }
  }

  /**
   * The native message; throws when the stream stopped before it was complete. Complete
   * means `message_stop`, or — when the stream ended without it being dispatched (some
   * servers close right after `message_stop` with no blank line) — a `message_delta` that
   * brought the `stop_reason`: every content block is closed before it.
   */
  finish(): Record<string, unknown> {
    if (!this.#done && this.#stop === null) throw streamCut(this.#provider, "message_stop");
    const content: Record<string, unknown>[] = [];
    for (const index of [...this.#blocks.keys()].sort((a, b) => a - b)) {
      const b = this.#blocks.get(index)!;
      this.#close(index, b);
      if (b.type === "text") content.push({ type: "text", text: b.text });
      else if (b.type === "thinking") {
        content.push({ type: "thinking", thinking: b.text, signature: b.signature });
      } else if (b.type === "tool_use") {
        content.push({ type: "tool_use", id: b.id, name: b.name, input: b.input ?? {} });
      } else if (b.input) content.push(b.input as Record<string, unknown>);
    }
    const native: Record<string, unknown> = {};
    if (this.#id !== undefined) native.id = this.#id;
    Object.assign(native, {
      type: "message",
      role: "assistant",
      model: this.#model,
      content,
      stop_reason: this.#stop,
      usage: { ...this.#usage },
    });
    const turn = parseAnthropicResponse(native);
    this.#emit({ type: "usage", usage: turn.usage });
    this.#emit({ type: "stop", reason: turn.stop });
    return native;
  }
}

/** The `cache_control` of a prompt-cache breakpoint. */
export const EPHEMERAL: Readonly<Record<string, string>> = { type: "ephemeral" };

/** Whether a value holds a `cache_control` anywhere (a hook placed its own breakpoints). */
function hasCacheControl(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasCacheControl);
  const o = obj(v);
  if (!o) return false;
  if ("cache_control" in o) return true;
  return hasCacheControl(o.content);
}

/** A copy of a message whose last cacheable block carries a breakpoint (undefined: none). */
function markMessage(message: unknown): Record<string, unknown> | undefined {
  const m = obj(message);
  if (!m) return undefined;
  const content = typeof m.content === "string"
    ? (m.content === "" ? [] : [{ type: "text", text: m.content }])
    : Array.isArray(m.content)
    ? [...m.content]
    : [];
  for (let i = content.length - 1; i >= 0; i--) {
    const b = obj(content[i]);
    if (!b) continue;
    // thinking blocks and empty text cannot carry a breakpoint
    if (b.type === "thinking" || b.type === "redacted_thinking") continue;
    if (b.type === "text" && !str(b.text)) continue;
    content[i] = { ...b, cache_control: EPHEMERAL };
    return { ...m, content };
  }
  return undefined;
}

/**
 * Prompt-cache breakpoints (at most four): the last tool, the system prompt, the last
 * message (the moving end of the history) and the previous request's end (the user-role
 * message before the last assistant one), so each request reads what the one before it
 * wrote. A payload that already has a `cache_control` (an executable hook's) is left alone.
 */
export function cacheBreakpoints(
  body: Record<string, unknown>,
): Record<string, unknown> {
  if (hasCacheControl(body.system) || hasCacheControl(body.tools)) return body;
  if (hasCacheControl(body.messages)) return body;
  const out = { ...body };
  const tools = Array.isArray(body.tools) ? [...body.tools] : [];
  const lastTool = obj(tools.at(-1));
  if (lastTool) {
    tools[tools.length - 1] = { ...lastTool, cache_control: EPHEMERAL };
    out.tools = tools;
  }
  if (typeof body.system === "string" && body.system !== "") {
    out.system = [{ type: "text", text: body.system, cache_control: EPHEMERAL }];
  }
  const messages = Array.isArray(body.messages) ? [...body.messages] : [];
  const marks: number[] = [];
  if (messages.length > 0) marks.push(messages.length - 1);
  let sawAssistant = false;
  for (let i = messages.length - 2; i >= 0; i--) {
    const role = str(obj(messages[i])?.role);
    if (role === "assistant") sawAssistant = true;
    else if (role === "user" && sawAssistant) {
      marks.push(i);
      break;
    }
  }
  for (const i of marks) {
    const marked = markMessage(messages[i]);
    if (marked) messages[i] = marked;
  }
  out.messages = messages;
  return out;
}

/** The request body of an Anthropic request (with cache breakpoints unless `cache: false`). */
export function anthropicBody(payload: SendPayload, endpoint: Endpoint): Record<string, unknown> {
  const tools = (payload.tools ?? []).map((t) => isNeutralTool(t) ? anthropicTools([t])[0] : t);
  const body: Record<string, unknown> = {
    model: requestModel(payload.model, endpoint),
    max_tokens: endpoint.maxTokens,
  };
  if (payload.system) body.system = payload.system;
  body.messages = payload.messages;
  if (tools.length > 0) body.tools = tools;
  body.stream = endpoint.stream;
  return endpoint.cache === false ? body : cacheBreakpoints(body);
}

/** Creates the Anthropic adapter (retry policy and fetch are injectable). */
export function createAnthropicAdapter(options: AdapterOptions = {}): ProtocolAdapter {
  return defineAdapter({
    protocol: "anthropic",
    buildMessages: anthropicMessages,
    buildTools: anthropicTools,
    parseResponse: parseAnthropicResponse,
    headers: (endpoint) => ({
      "anthropic-version": ANTHROPIC_VERSION,
      ...(endpoint.apiKey ? { "x-api-key": endpoint.apiKey } : {}),
    }),
    body: anthropicBody,
    stream: (name, emit) => new AnthropicStream(name, emit),
  }, options);
}
