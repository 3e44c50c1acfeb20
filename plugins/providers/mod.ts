/**
 * Built-in model providers: the Anthropic Messages, OpenAI Chat Completions
 * and OpenAI Responses protocol adapters, the `anthropic` / `openai`
 * environment providers, bundled `.conf` variants and the `.auth.json` store.
 *
 * @module
 */
export { getAdapter, type ProtocolName, PROTOCOLS } from "./adapters.ts";
export { bundledConfs } from "./bundled/mod.ts";
export {
  adapterOptionsFor,
  CONF_KEYS,
  confProvider,
  type ConfVariant,
  confWarnings,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
  missingKeyMessage,
  parseConf,
  type ProviderDeps,
  storedKeyReason,
} from "./conf.ts";
export {
  ANTHROPIC_DEFAULT_MODEL,
  BUILTIN_MODELS,
  envProviders,
  OPENAI_DEFAULT_MODEL,
} from "./env_providers.ts";
export {
  type AuthEntry,
  type AuthFile,
  type AuthListing,
  listAuth,
  maskKey,
  readAuth,
  removeKey,
  setKey,
  storedKey,
  writeAuth,
} from "./auth_store.ts";
export { type AdapterOptions, DEFAULT_RETRY, retryDelay, type RetryOptions } from "./http.ts";
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
export { providersPlugin } from "./plugin.ts";
