/**
 * OpenAI Chat Completions adapter (`protocol=openai`), also used for
 * OpenAI-compatible servers (OpenRouter, Groq, DeepSeek, llama.cpp, vLLM, Ollama).
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

/** Native finish_reason → canonical stop (unknown values use the fallback of `finalStop`). */
export const OPENAI_STOPS: Readonly<Record<string, StopReason>> = {
  stop: "end",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "length",
  content_filter: "end",
};

/** OpenAI chat tools from neutral schemas. */
export function openaiTools(tools: ToolSchema[]): unknown[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
}

/** OpenAI chat `messages` from the canonical conversation (system is added at send time). */
export function openaiMessages(conversation: ConversationMessage[]): unknown[] {
  const out: Record<string, unknown>[] = [];
  for (const m of conversation) {
    if (m.role === "user") {
      out.push({
        role: "user",
        content: m.images?.length
          ? [
            ...(m.text === "" ? [] : [{ type: "text", text: m.text }]),
            ...m.images.map((i) => ({
              type: "image_url",
              image_url: { url: `data:${i.mimeType};base64,${i.data}` },
            })),
          ]
          : m.text,
      });
    } else if (m.role === "tool_result") {
      out.push({ role: "tool", tool_call_id: m.callId, content: m.text });
    } else {
      const text = m.blocks.filter((b) => b.type === "text").map((b) => b.text).join("");
      const calls = m.blocks.filter((b) => b.type === "tool_call").map((b) => ({
        id: b.id,
        type: "function",
        function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
      }));
      if (calls.length > 0) {
        out.push(
          text ? { role: "assistant", content: text, tool_calls: calls } : {
            role: "assistant",
            content: null,
            tool_calls: calls,
          },
        );
      } else out.push({ role: "assistant", content: text });
    }
  }
  return out;
}

/**
 * Canonical usage of a chat-completions `usage`: `prompt_tokens` includes the cached
 * part (`prompt_tokens_details.cached_tokens`), which canonical usage counts apart.
 */
export function openaiUsage(u: unknown): Usage | undefined {
  const o = obj(u);
  if (!o) return undefined;
  const prompt = num(o.prompt_tokens ?? o.input_tokens);
  const details = obj(o.prompt_tokens_details) ?? obj(o.input_tokens_details);
  const usage: Usage = {
    input_tokens: prompt,
    output_tokens: num(o.completion_tokens ?? o.output_tokens),
  };
  if (details && num(details.cached_tokens) > 0) {
    const cached = Math.min(prompt, num(details.cached_tokens));
    usage.input_tokens = prompt - cached;
    usage.cache_read_input_tokens = cached;
  }
  return usage;
}

const usageOf = openaiUsage;

function contentText(c: unknown): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) {
    return c.map((p) => str(obj(p)?.text)).join("");
  }
  return "";
}

const responseSchema = firstUse(() =>
  z.looseObject({
    model: z.string().nullish(),
    choices: z.array(z.looseObject({
      message: z.looseObject({
        content: z.unknown().optional(),
        tool_calls: z.array(z.looseObject({
          id: z.string().nullish(),
          function: z.looseObject({
            name: z.string().nullish(),
            arguments: z.unknown().optional(),
          }),
        })).nullish(),
      }).nullish(),
      finish_reason: z.string().nullish(),
    })),
    usage: z.unknown().optional(),
  })
);

/** Canonical turn of a native chat completion. */
export function parseOpenAIResponse(native: unknown): AssistantTurn {
  const top = obj(native);
  if (top?.error !== undefined && top.error !== null) {
    const e = obj(top.error);
    throw new ProviderError(
      `openai API error: ${e ? str(e.message, "unknown error") : String(top.error)}`,
    );
  }
  const res = responseSchema().safeParse(native);
  if (!res.success) {
    const i = res.error.issues[0];
    throw new ProviderError(
      `unusable chat completion: ${i?.path.join(".") || "body"}: ${i?.message}`,
    );
  }
  const choice = res.data.choices[0];
  if (!choice) throw new ProviderError("unusable chat completion: no choices in response");
  const msg = (choice.message ?? {}) as Record<string, unknown>;
  const blocks: AssistantBlock[] = [];
  const reasoning = str(msg.reasoning_content) || str(msg.reasoning);
  if (reasoning) blocks.push({ type: "thinking", text: reasoning, signature: "" });
  const text = contentText(msg.content) || str(msg.refusal);
  if (text) blocks.push({ type: "text", text });
  const calls = choice.message?.tool_calls ?? [];
  calls.forEach((c, i) => {
    const id = c.id || `call_${i}`;
    const name = c.function.name ?? "";
    const args = c.function.arguments;
    const input = typeof args === "string" ? parseToolArgs(args, name, id) : args ?? {};
    blocks.push({ type: "tool_call", id, name, input });
  });
  const fc = obj(msg.function_call);
  if (calls.length === 0 && fc) {
    const name = str(fc.name);
    blocks.push({
      type: "tool_call",
      id: "call_0",
      name,
      input: parseToolArgs(str(fc.arguments), name, "call_0"),
    });
  }
  const mapped = choice.finish_reason ? OPENAI_STOPS[choice.finish_reason] : undefined;
  return {
    blocks,
    stop: finalStop(mapped, blocks),
    usage: usageOf(res.data.usage) ?? { input_tokens: 0, output_tokens: 0 },
    model: res.data.model ?? "",
  };
}

interface StreamCall {
  index: number;
  id: string;
  name: string;
}

/**
 * Reassembles a chat-completions SSE stream into the `chat.completion` shape
 * while emitting canonical events. Tool calls are keyed on `index`.
 */
export class OpenAIChatStream {
  #provider: string;
  #emit: (e: ProviderEvent) => void;
  #tools: ToolCallTracker;
  #calls = new Map<number, StreamCall>();
  #id = "";
  #model = "";
  #text = "";
  #reasoning = "";
  #finish: string | null = null;
  #usage?: Usage;
  #rawUsage?: Record<string, unknown>;
  #done = false;

  constructor(provider: string, emit: (e: ProviderEvent) => void) {
    this.#provider = provider;
    this.#emit = emit;
    this.#tools = new ToolCallTracker(emit);
  }

  #takeUsage(u: unknown): void {
    const o = obj(u);
    if (!o) return;
    this.#usage = usageOf(o);
    this.#rawUsage = o;
  }

  #call(index: number, id: unknown, name: unknown): StreamCall {
    let c = this.#calls.get(index);
    if (!c) {
      c = { index, id: "", name: "" };
      this.#calls.set(index, c);
    }
    if (typeof id === "string" && id && !c.id) c.id = id;
    if (typeof name === "string" && name && !c.name) c.name = name;
    this.#tools.start(`i${index}`, c.id, c.name);
    return c;
  }

  /** Handles one SSE event; returns true at `[DONE]`. */
  handle(ev: SseEvent): boolean {
    if (ev.data === "[DONE]") {
      this.#done = true;
      return true;
    }
    const d = parseEventJson(ev, this.#provider) as Record<string, unknown>;
    const top = obj(d);
    if (!top) return false;
    if (top.error !== undefined && top.error !== null || ev.event === "error") {
      const e = obj(top.error) ?? top;
      const message = str(e.message) || str(e.type) || "unknown error";
      this.#emit({ type: "error", message });
      throw streamError(this.#provider, message);
    }
    if (!this.#id && typeof top.id === "string") this.#id = top.id;
    if (!this.#model && typeof top.model === "string") this.#model = top.model;
    if (top.usage) this.#takeUsage(top.usage);
    else if (obj(top.x_groq)?.usage) this.#takeUsage(obj(top.x_groq)!.usage);
    const choices = Array.isArray(top.choices) ? top.choices : [];
    for (const ch of choices) {
      const choice = obj(ch);
      if (!choice || num(choice.index) !== 0) continue;
      if (choice.usage) this.#takeUsage(choice.usage);
      const delta = obj(choice.delta) ?? obj(choice.message) ?? {};
      const reasoning = str(delta.reasoning_content) || str(delta.reasoning);
      if (reasoning) {
        this.#reasoning += reasoning;
        this.#emit({ type: "thinking", text: reasoning });
      }
      const text = contentText(delta.content) || str(delta.refusal);
      if (text) {
        this.#text += text;
        this.#emit({ type: "text", text });
      }
      if (Array.isArray(delta.tool_calls)) {
        delta.tool_calls.forEach((t, pos) => {
          const tc = obj(t);
          if (!tc) return;
          const index = typeof tc.index === "number" ? tc.index : pos;
          const fn = obj(tc.function) ?? {};
          this.#call(index, tc.id, fn.name);
          if (typeof fn.arguments === "string") this.#tools.delta(`i${index}`, fn.arguments);
          else if (obj(fn.arguments)) this.#tools.delta(`i${index}`, JSON.stringify(fn.arguments));
        });
      }
      const fc = obj(delta.function_call);
      if (fc) {
        this.#call(0, "call_0", fc.name);
        this.#tools.delta("i0", str(fc.arguments));
      }
      if (typeof choice.finish_reason === "string" && choice.finish_reason) {
        this.#finish = choice.finish_reason;
      }
    }
    return false;
  }

  /**
   * The native completion. A stream that ends without `[DONE]` is accepted
   * only when a finish_reason arrived (some compatible servers omit `[DONE]`).
   */
  finish(): Record<string, unknown> {
    if (!this.#done && this.#finish === null) throw streamCut(this.#provider, "[DONE]");
    const indexes = [...this.#calls.keys()].sort((a, b) => a - b);
    const toolCalls = indexes.map((index) => {
      const c = this.#calls.get(index)!;
      const r = this.#tools.end(`i${index}`);
      return {
        id: r.id,
        type: "function",
        function: { name: r.name || c.name, arguments: r.json },
      };
    });
    const message: Record<string, unknown> = { role: "assistant" };
    if (this.#reasoning) message.reasoning_content = this.#reasoning;
    message.content = this.#text === "" && toolCalls.length > 0 ? null : this.#text;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    const u = this.#usage ?? { input_tokens: 0, output_tokens: 0 };
    const prompt = u.input_tokens + (u.cache_read_input_tokens ?? 0);
    const native = {
      id: this.#id,
      object: "chat.completion",
      model: this.#model,
      choices: [{ index: 0, message, finish_reason: this.#finish }],
      usage: {
        ...this.#rawUsage,
        prompt_tokens: prompt,
        completion_tokens: u.output_tokens,
        total_tokens: num(this.#rawUsage?.total_tokens) || prompt + u.output_tokens,
      },
    };
    const turn = parseOpenAIResponse(native);
    this.#emit({ type: "usage", usage: turn.usage });
    this.#emit({ type: "stop", reason: turn.stop });
    return native;
  }
}

/** The request body of a chat-completions request (system first in `messages`). */
export function openaiBody(payload: SendPayload, endpoint: Endpoint): Record<string, unknown> {
  const tools = (payload.tools ?? []).map((t) => isNeutralTool(t) ? openaiTools([t])[0] : t);
  const messages = payload.system
    ? [{ role: "system", content: payload.system }, ...payload.messages]
    : [...payload.messages];
  const body: Record<string, unknown> = {
    model: requestModel(payload.model, endpoint),
    max_tokens: endpoint.maxTokens,
    messages,
  };
  if (tools.length > 0) body.tools = tools;
  body.stream = endpoint.stream;
  if (endpoint.stream) body.stream_options = { include_usage: true };
  return body;
}

/** Creates the OpenAI chat adapter (retry policy and fetch are injectable). */
export function createOpenAIChatAdapter(options: AdapterOptions = {}): ProtocolAdapter {
  return defineAdapter({
    protocol: "openai",
    buildMessages: openaiMessages,
    buildTools: openaiTools,
    parseResponse: parseOpenAIResponse,
    headers: bearerAuth,
    body: openaiBody,
    stream: (name, emit) => new OpenAIChatStream(name, emit),
  }, options);
}
