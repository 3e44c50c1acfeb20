/**
 * What the providers plugin sets up without the wire code: the plugin itself, the `anthropic` /
 * `openai` environment providers, `.conf` variants, the `.auth.json` store, the protocols' names,
 * the HTTP exchange's options and the adapters that load on the first request (the adapters
 * themselves: the parent folder, plugins/providers/).
 *
 * @module
 */
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
export {
  type AdapterOptions,
  DEFAULT_DEADLINE_MS,
  DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRY,
  type RetryOptions,
} from "./http_options.ts";
export { type ProtocolName, PROTOCOLS } from "./protocols.ts";
export { lazyAdapter } from "./lazy_adapter.ts";
export { providersPlugin } from "./plugin.ts";
