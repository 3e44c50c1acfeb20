/**
 * The provider contract: protocol adapters (a wire format) and model providers (an
 * endpoint, models and credentials), what a request carries, and auth providers.
 *
 * @module
 */
import type { AssistantTurn, ConversationMessage, ModelLimits, Pricing } from "./conversation.ts";
import type { ProviderEvent } from "./events.ts";
import type { ToolSchema } from "./tool.ts";

/** Where and how to reach a model endpoint. Credentials never leave this object. */
export interface Endpoint {
  /** Provider name (e.g. "anthropic", a `.conf` variant name). */
  name: string;
  /** The endpoint's URL. */
  url: string;
  /** API key, if any. Never logged, never exported to tools. */
  apiKey?: string;
  /** The model to request. */
  model: string;
  /** The `max_tokens` of a request. */
  maxTokens: number;
  /** Extra HTTP headers (`header.<Name>=` in `.conf`). */
  headers: Record<string, string>;
  /** Idle timeout in ms: the longest wait for any data (headers, then between chunks). */
  timeoutMs: number;
  /** Longest wait in ms for the first content of a streamed answer (keep-alives do not count). */
  firstTokenTimeoutMs?: number;
  /** Longest time in ms for the whole answer, retries included. */
  deadlineMs?: number;
  /** Most bytes of response body accepted. */
  maxResponseBytes?: number;
  /** Whether to stream (SSE). */
  stream: boolean;
  /**
   * Mark prompt-cache breakpoints (Anthropic `cache_control`; default true). `.conf`
   * `cache=never` turns it off for servers that reject the field.
   */
  cache?: boolean;
  /** Where `url=` was configured (`file:line`), for messages that say what to check. */
  urlFrom?: string;
  /** The wire protocol the endpoint is spoken to in (for messages). */
  protocol?: string;
}

/** The `send` stage payload: native messages and tools plus the system prompt. */
export interface SendPayload {
  /** The conversation in the protocol's native message shape. */
  messages: unknown[];
  /** The tools in the protocol's native shape. */
  tools: unknown[];
  /** The system prompt. */
  system: string;
  /** The model to request, when the stage chose one. */
  model?: string;
  /** Further fields a `send` hook may set (e.g. `stream`), read by the providers that know them. */
  [key: string]: unknown;
}

/** Options of one model request. */
export interface SendOptions {
  /** Receives the stream events of the request as they arrive. */
  emit(event: ProviderEvent): void;
  /** Aborts the request. */
  signal: AbortSignal;
  /** The session of the request (executable providers get it as HARNESS_SESSION / HARNESS_CWD). */
  session?: { dir: string; cwd: string };
}

/**
 * A wire protocol adapter (Anthropic Messages, OpenAI Chat, OpenAI Responses).
 * Pure request/response mapping plus the HTTP exchange.
 */
export interface ProtocolAdapter {
  /** "anthropic" | "openai" | "openai-responses" */
  readonly protocol: string;
  /**
   * Loads the adapter's code, when it loads on first use: the loop awaits it once it knows a
   * turn's protocol, before the synchronous methods below (`send` needs no call before it).
   */
  load?(): Promise<void>;
  /** Native message list from the canonical conversation. */
  buildMessages(conversation: ConversationMessage[]): unknown[];
  /** Native tool list from tool schemas (stable order is the caller's). */
  buildTools(tools: ToolSchema[]): unknown[];
  /** Performs the request; resolves to the native response JSON (reassembled when streamed). */
  send(payload: SendPayload, endpoint: Endpoint, options: SendOptions): Promise<unknown>;
  /** Canonical form of a native response. Throws a ProviderError on an unusable response. */
  parseResponse(native: unknown): AssistantTurn;
}

/** Readiness of a provider, with the reason shown by `hs providers`. */
export interface Readiness {
  /** True when the provider can take requests. */
  ready: boolean;
  /** Why (e.g. the missing key and how to set it). */
  reason: string;
}

/** A model provider registered in the models registry. */
export interface ModelProvider {
  /** The provider's name (`--provider`). */
  name: string;
  /** One line for `hs providers`. */
  description: string;
  /** Protocol whose message/tool shapes this provider uses. */
  protocol: string;
  /** Whether requests can be sent now (e.g. a key is set), and why not. */
  ready(): Promise<Readiness>;
  /** Default model (`--defaults` / `.conf` `model=`). */
  defaultModel(): Promise<string>;
  /** Sends one request and returns the native response JSON. */
  send(payload: SendPayload, model: string, options: SendOptions): Promise<unknown>;
  /**
   * What this provider knows of a model's limits (`.conf` `context=` / `max_tokens=`,
   * `--defaults` of an executable); the rest comes from the defaults of known models.
   */
  limits?(model: string): Promise<Partial<ModelLimits>>;
  /** Prices of a model, when configured (`.conf` `price_input=` …). */
  pricing?(model: string): Promise<Pricing | undefined>;
}

/** A model offered by a provider (seed 002 `ctx.models.register(provider, models)`). */
export interface ModelDefinition {
  /** The model id sent to the provider. */
  id: string;
  /** A display name. */
  name?: string;
  /** The context window in tokens (used when no `.conf` sets one). */
  contextWindow?: number;
  /** The most output tokens a request may ask for. */
  maxOutputTokens?: number;
}

/** An auth provider (seed 002 `ctx.auth.register`). */
export interface AuthProvider {
  /** Identifies the auth provider (unique among them). */
  id: string;
  /** Returns the credential for a provider name, or undefined. */
  resolve(provider: string): Promise<string | undefined>;
}
