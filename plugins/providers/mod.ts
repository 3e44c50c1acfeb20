/**
 * Built-in model providers: the Anthropic Messages, OpenAI Chat Completions
 * and OpenAI Responses protocol adapters, the `anthropic` / `openai`
 * environment providers, bundled `.conf` variants and the `.auth.json` store.
 *
 * @module
 */
import type { RuntimePlugin } from "../../core/mod.ts";
import { getAdapter, PROTOCOLS } from "./adapters.ts";
import { bundledConfs } from "./bundled/mod.ts";
import { confProvider, parseConf, type ProviderDeps } from "./conf.ts";
import { envProviders } from "./env_providers.ts";

export { getAdapter, type ProtocolName, PROTOCOLS } from "./adapters.ts";
export { bundledConfs } from "./bundled/mod.ts";
export {
  adapterOptionsFor,
  confProvider,
  type ConfVariant,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
  missingKeyMessage,
  parseConf,
  type ProviderDeps,
  storedKeyReason,
} from "./conf.ts";
export { ANTHROPIC_DEFAULT_MODEL, envProviders, OPENAI_DEFAULT_MODEL } from "./env_providers.ts";
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

/**
 * The `providers` runtime plugin: registers the three protocol adapters, the
 * `anthropic` / `openai` env providers and the bundled `.conf` providers.
 */
export function providersPlugin(deps: ProviderDeps): RuntimePlugin {
  return {
    id: "providers",
    version: "0.1.0",
    apiVersion: 1,
    setup(ctx) {
      for (const p of PROTOCOLS) {
        ctx.models.registerProtocol(
          deps.adapterOptions ? getAdapter(p, deps.adapterOptions) : getAdapter(p),
        );
      }
      for (const provider of envProviders(deps)) ctx.models.register(provider);
      for (const [name, text] of Object.entries(bundledConfs)) {
        ctx.models.register(confProvider(name, parseConf(text, `builtin:${name}.conf`), deps));
      }
    },
  };
}
