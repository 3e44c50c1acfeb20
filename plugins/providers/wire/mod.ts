/**
 * The wire protocols' adapters: Anthropic Messages, OpenAI Chat Completions and OpenAI
 * Responses — their request and response shapes, the HTTP exchange (retries, clocks, the size
 * cap) and the event-stream decoder. A harness loads them on its first model request
 * (setup/lazy_adapter.ts).
 *
 * @module
 */
export { getAdapter } from "./adapters.ts";
export { retryDelay } from "./http.ts";
export {
  ANTHROPIC_STOPS,
  anthropicBody,
  anthropicMessages,
  AnthropicStream,
  cacheBreakpoints,
  createAnthropicAdapter,
  parseAnthropicResponse,
} from "./anthropic.ts";
export {
  createOpenAIChatAdapter,
  OPENAI_STOPS,
  OpenAIChatStream,
  parseOpenAIResponse,
} from "./openai_chat.ts";
export {
  createOpenAIResponsesAdapter,
  parseResponsesResponse,
  RESPONSES_STOPS,
  ResponsesStream,
} from "./openai_responses.ts";
