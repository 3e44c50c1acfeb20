/**
 * The canonical conversation (parsed from a session's markdown messages): messages,
 * assistant turns, stop reasons, token usage, model limits and prices.
 *
 * @module
 */

/** A block of an assistant message. */
export type AssistantBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; signature: string }
  | { type: "tool_call"; id: string; name: string; input: unknown };

/** The image types a user message may carry (those the model protocols take). */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** An image of a user message: its type and its bytes in base64. */
export interface MessageImage {
  /** One of {@link IMAGE_TYPES}. */
  mimeType: typeof IMAGE_TYPES[number];
  /** The image's bytes, base64. */
  data: string;
}

/** One message of a session, provider-neutral. */
export type ConversationMessage =
  | {
    role: "user";
    seq: number;
    text: string;
    /** Images sent with the text (kept in the session's `attachments/`). */
    images?: MessageImage[];
    /** True for the summary a compaction wrote in place of older messages (see docs/sessions.md). */
    summary?: boolean;
    /** The first and last seq a summary stands for (its `summary: NNNN-MMMM`). */
    summarizes?: [number, number];
  }
  | {
    role: "assistant";
    seq: number;
    blocks: AssistantBlock[];
    model?: string;
    provider?: string;
    stop?: StopReason;
  }
  | {
    role: "tool_result";
    seq: number;
    callId: string;
    tool: string;
    error: boolean;
    text: string;
  };

/** Canonical stop reasons (PROTOCOLS `.stream` `stop.reason`). */
export type StopReason = "end" | "tool_calls" | "length" | "error" | string;

/**
 * Token usage of one model request. `input_tokens` counts the input not read from or written
 * to a prompt cache; the whole prompt is the sum of the three input fields.
 */
export interface Usage {
  /** Input tokens not read from or written to the prompt cache. */
  input_tokens: number;
  /** Tokens of the answer. */
  output_tokens: number;
  /** Input tokens read from the provider's prompt cache (absent: none reported). */
  cache_read_input_tokens?: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cache_creation_input_tokens?: number;
}

/** A model's context window and the output a request asks for (in tokens). */
export interface ModelLimits {
  /** The context window: prompt and answer together. */
  context: number;
  /** The `max_tokens` a request asks for. */
  maxOutput: number;
  /** The most tool calls one response may ask for (a provider's `.conf` `max_tool_calls=`). */
  maxToolCalls?: number;
  /** Where `maxToolCalls` is set, for the message of a response over it (e.g. a file). */
  maxToolCallsFrom?: string;
}

/** Prices of a model in US dollars per million tokens (`.conf` `price_*=`). */
export interface Pricing {
  /** Price of uncached input tokens. */
  input: number;
  /** Price of output tokens. */
  output: number;
  /** Input read from the prompt cache (default: the input price). */
  cacheRead?: number;
  /** Input written to the prompt cache (default: the input price). */
  cacheWrite?: number;
}

/** A model request's answer in canonical form (what `receive` saves). */
export interface AssistantTurn {
  /** The answer's text, thinking and tool call blocks, in order. */
  blocks: AssistantBlock[];
  /** Why the model stopped. */
  stop: StopReason;
  /** Tokens used by the request. */
  usage: Usage;
  /** The model that answered (as the provider reports it). */
  model: string;
}
