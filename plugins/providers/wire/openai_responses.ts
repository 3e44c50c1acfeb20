/**
 * OpenAI Responses API adapter (`protocol=openai-responses`).
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
import { type AdapterOptions, bearerAuth, defineAdapter } from "./http.ts";
import { parseEventJson, type SseEvent } from "./sse.ts";

/**
 * `status` (and `incomplete_details.reason`) → canonical stop. `completed`
 * becomes `tool_calls` when the output has function calls.
 */
export const RESPONSES_STOPS: Readonly<Record<string, StopReason>> = {
  completed: "end",
  max_output_tokens: "length",
  content_filter: "end",
};

/** Responses tools from neutral schemas. */
export function responsesTools(tools: ToolSchema[]): unknown[] {
  return tools.map((t) => ({
    type: "function",
    name: t.name,
    description: t.description,
    parameters: t.input_schema,
  }));
}

/**
 * Responses `input` items from the canonical conversation. Thinking blocks are
 * not sent back (reasoning items cannot be replayed without their ids).
 */
export function responsesInput(conversation: ConversationMessage[]): unknown[] {
  const out: Record<string, unknown>[] = [];
  for (const m of conversation) {
    if (m.role === "user") {
      out.push({
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: m.text },
          ...(m.images ?? []).map((i) => ({
            type: "input_image",
            image_url: `data:${i.mimeType};base64,${i.data}`,
          })),
        ],
      });
    } else if (m.role === "tool_result") {
      out.push({ type: "function_call_output", call_id: m.callId, output: m.text });
    } else {
      for (const b of m.blocks) {
        if (b.type === "text") {
          if (b.text === "") continue;
          out.push({
            type: "message",
            role: "assistant",
            content: [{ type: "output_text", text: b.text }],
          });
        } else if (b.type === "tool_call") {
          out.push({
            type: "function_call",
            call_id: b.id,
            name: b.name,
            arguments: JSON.stringify(b.input ?? {}),
          });
        }
      }
    }
  }
  return out;
}

/** Canonical usage of a Responses `usage` (`input_tokens_details.cached_tokens` apart). */
function usageOf(u: unknown): Usage | undefined {
  const o = obj(u);
  if (!o) return undefined;
  const input = num(o.input_tokens ?? o.prompt_tokens);
  const usage: Usage = {
    input_tokens: input,
    output_tokens: num(o.output_tokens ?? o.completion_tokens),
  };
  const details = obj(o.input_tokens_details) ?? obj(o.prompt_tokens_details);
  if (details && num(details.cached_tokens) > 0) {
    const cached = Math.min(input, num(details.cached_tokens));
    usage.input_tokens = input - cached;
    usage.cache_read_input_tokens = cached;
  }
  return usage;
}

const responseSchema = firstUse(() =>
  z.looseObject({
    model: z.string().nullish(),
    status: z.string().nullish(),
    output: z.array(z.looseObject({ type: z.string() })),
    usage: z.unknown().optional(),
  })
);

/** Canonical turn of a native Responses object. */
export function parseResponsesResponse(native: unknown): AssistantTurn {
  const top = obj(native);
  const err = obj(top?.error);
  if (err && (top?.status === "failed" || !Array.isArray(top?.output))) {
    throw new ProviderError(
      `responses API error: ${str(err.message, str(err.code, "unknown error"))}`,
    );
  }
  const res = responseSchema().safeParse(native);
  if (!res.success) {
    const i = res.error.issues[0];
    throw new ProviderError(
      `unusable Responses object: ${i?.path.join(".") || "body"}: ${i?.message}`,
    );
  }
  const r = res.data;
  if (r.status === "failed") throw new ProviderError("responses API error: response failed");
  const blocks: AssistantBlock[] = [];
  for (const item of r.output) {
    if (item.type === "reasoning") {
      const parts = [
        ...(Array.isArray(item.summary) ? item.summary : []),
        ...(Array.isArray(item.content) ? item.content : []),
      ];
      const text = parts.map((p) => str(obj(p)?.text)).filter(Boolean).join("\n\n");
      if (text) blocks.push({ type: "thinking", text, signature: str(item.encrypted_content) });
    } else if (item.type === "message") {
      const parts = Array.isArray(item.content) ? item.content : [];
      const text = parts.map((p) => {
        const o = obj(p);
        return o?.type === "refusal" ? str(o.refusal) : str(o?.text);
      }).join("");
      if (text) blocks.push({ type: "text", text });
    } else if (item.type === "function_call") {
      const id = str(item.call_id) || str(item.id);
      const name = str(item.name);
      const args = item.arguments;
      const input = typeof args === "string" ? parseToolArgs(args, name, id) : args ?? {};
      blocks.push({ type: "tool_call", id, name, input });
    }
  }
  const reason = str(obj(top?.incomplete_details)?.reason);
  const mapped = r.status === "incomplete"
    ? RESPONSES_STOPS[reason] ?? "length"
    : r.status
    ? RESPONSES_STOPS[r.status]
    : undefined;
  return {
    blocks,
    stop: finalStop(mapped, blocks),
    usage: usageOf(r.usage) ?? { input_tokens: 0, output_tokens: 0 },
    model: r.model ?? "",
  };
}

interface StreamItem {
  outputIndex: number;
  item: Record<string, unknown>;
  text: string;
  key: string;
}

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.done"]);

/**
 * Reassembles a Responses SSE stream into the `response` object while
 * emitting canonical events. Items are keyed on `item_id` / `output_index`.
 */
export class ResponsesStream {
  #provider: string;
  #emit: (e: ProviderEvent) => void;
  #tools: ToolCallTracker;
  #items = new Map<number, StreamItem>();
  #byId = new Map<string, StreamItem>();
  #response: Record<string, unknown> = {};
  #endedCalls = new Set<string>();
  #done = false;

  constructor(provider: string, emit: (e: ProviderEvent) => void) {
    this.#provider = provider;
    this.#emit = emit;
    this.#tools = new ToolCallTracker(emit);
  }

  #find(d: Record<string, unknown>, type: string): StreamItem {
    const id = str(d.item_id);
    let it = id ? this.#byId.get(id) : undefined;
    if (!it && typeof d.output_index === "number") it = this.#items.get(d.output_index);
    if (!it) {
      const outputIndex = typeof d.output_index === "number" ? d.output_index : this.#items.size;
      it = {
        outputIndex,
        item: { type, ...(id ? { id } : {}) },
        text: "",
        key: id || `o${outputIndex}`,
      };
      this.#items.set(outputIndex, it);
      if (id) this.#byId.set(id, it);
    }
    return it;
  }

  #added(d: Record<string, unknown>): void {
    const item = obj(d.item) ?? {};
    const it = this.#find({ ...d, item_id: item.id }, str(item.type));
    it.item = { ...it.item, ...item };
    if (it.item.type === "function_call") {
      this.#tools.start(it.key, str(item.call_id) || str(item.id), str(item.name));
    }
  }

  #itemDone(d: Record<string, unknown>): void {
    const item = obj(d.item) ?? {};
    const it = this.#find({ ...d, item_id: item.id }, str(item.type));
    it.item = { ...it.item, ...item };
    if (it.item.type === "function_call") this.#endCall(it, str(item.arguments));
  }

  #endCall(it: StreamItem, full?: string): void {
    this.#tools.start(it.key, str(it.item.call_id) || str(it.item.id), str(it.item.name));
    const r = this.#tools.end(it.key, full);
    this.#endedCalls.add(r.id);
    it.item.arguments = r.json;
    if (!it.item.call_id) it.item.call_id = r.id;
  }

  /** Handles one SSE event; returns true at `response.completed` / `response.incomplete`. */
  handle(ev: SseEvent): boolean {
    const d = parseEventJson(ev, this.#provider) as Record<string, unknown>;
    const type = str(obj(d)?.type, ev.event ?? "");
    switch (type) {
      case "response.output_text.delta": {
        const text = str(d.delta);
        this.#find(d, "message").text += text;
        if (text) this.#emit({ type: "text", text });
        return false;
      }
      case "response.function_call_arguments.delta": {
        const it = this.#find(d, "function_call");
        this.#tools.delta(it.key, str(d.delta));
        return false;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const text = str(d.delta);
        const it = this.#find(d, "reasoning");
        it.text += text;
        if (text) this.#emit({ type: "thinking", text });
        return false;
      }
      case "response.output_item.added":
        this.#added(d);
        return false;
      case "response.function_call_arguments.done": {
        const it = this.#find(d, "function_call");
        this.#endCall(it, str(d.arguments));
        return false;
      }
      case "response.output_item.done":
        this.#itemDone(d);
        return false;
      case "response.created":
      case "response.in_progress":
        this.#response = { ...this.#response, ...obj(d.response) };
        return false;
      case "response.failed": {
        const r = obj(d.response) ?? {};
        const message = str(obj(r.error)?.message, "response failed");
        this.#emit({ type: "error", message });
        throw streamError(this.#provider, message);
      }
      case "error": {
        const e = obj(d.error) ?? d;
        const message = [str(e.code), str(e.message)].filter(Boolean).join(": ") || "unknown error";
        this.#emit({ type: "error", message });
        throw streamError(this.#provider, message);
      }
      default:
        if (TERMINAL.has(type)) {
          this.#response = { ...this.#response, ...obj(d.response) };
          if (!this.#response.usage && d.usage) this.#response.usage = d.usage;
          this.#done = true;
          return true;
        }
        return false;
    }
  }

  /** The native response; throws when the stream stopped before completion. */
  finish(): Record<string, unknown> {
    if (!this.#done) throw streamCut(this.#provider, "response.completed");
    const streamed: Record<string, unknown>[] = [];
    for (const idx of [...this.#items.keys()].sort((a, b) => a - b)) {
      const it = this.#items.get(idx)!;
      const item = { ...it.item };
      const content = item.content;
      if (item.type === "message" && !(Array.isArray(content) && content.length > 0)) {
        item.content = [{ type: "output_text", text: it.text, annotations: [] }];
      }
      if (
        item.type === "reasoning" && it.text &&
        !(Array.isArray(item.summary) && item.summary.length)
      ) {
        item.summary = [{ type: "summary_text", text: it.text }];
      }
      if (item.type === "function_call") this.#endCall(it, str(item.arguments));
      if (item.type === "function_call") item.arguments = it.item.arguments;
      streamed.push(item);
    }
    const final = Array.isArray(this.#response.output) ? this.#response.output as unknown[] : [];
    const output = final.length >= streamed.length ? final : streamed;
    for (const o of output) {
      const item = obj(o);
      if (item?.type !== "function_call") continue;
      const callId = str(item.call_id) || str(item.id);
      if (!this.#endedCalls.has(callId)) {
        const it: StreamItem = { outputIndex: -1, item, text: "", key: `final:${callId}` };
        this.#endCall(it, str(item.arguments));
      }
    }
    const native: Record<string, unknown> = {
      id: str(this.#response.id),
      object: "response",
      model: str(this.#response.model),
      status: str(this.#response.status, "completed"),
      output,
      usage: this.#response.usage ?? null,
    };
    if (this.#response.incomplete_details) {
      native.incomplete_details = this.#response.incomplete_details;
    }
    const turn = parseResponsesResponse(native);
    this.#emit({ type: "usage", usage: turn.usage });
    this.#emit({ type: "stop", reason: turn.stop });
    return native;
  }
}

/** The request body of a Responses request. */
export function responsesBody(payload: SendPayload, endpoint: Endpoint): Record<string, unknown> {
  const tools = (payload.tools ?? []).map((t) => isNeutralTool(t) ? responsesTools([t])[0] : t);
  const body: Record<string, unknown> = { model: requestModel(payload.model, endpoint) };
  if (payload.system) body.instructions = payload.system;
  body.input = payload.messages;
  if (tools.length > 0) body.tools = tools;
  body.max_output_tokens = endpoint.maxTokens;
  body.stream = endpoint.stream;
  return body;
}

/** Creates the Responses adapter (retry policy and fetch are injectable). */
export function createOpenAIResponsesAdapter(options: AdapterOptions = {}): ProtocolAdapter {
  return defineAdapter({
    protocol: "openai-responses",
    buildMessages: responsesInput,
    buildTools: responsesTools,
    parseResponse: parseResponsesResponse,
    headers: bearerAuth,
    body: responsesBody,
    stream: (name, emit) => new ResponsesStream(name, emit),
  }, options);
}
