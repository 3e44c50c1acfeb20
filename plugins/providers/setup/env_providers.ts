/**
 * The built-in environment-configured providers `anthropic` and `openai`
 * (`ANTHROPIC_API_KEY|API_URL|MAX_TOKENS`, `OPENAI_API_KEY|API_URL|MAX_TOKENS`).
 *
 * @module
 */
import {
  type Endpoint,
  type ModelProvider,
  ProviderError,
  type SendOptions,
  type SendPayload,
} from "../../../core/mod.ts";
import { lazyAdapter } from "./lazy_adapter.ts";
import {
  adapterOptionsFor,
  DEFAULT_TIMEOUT_MS,
  missingKeyMessage,
  type ProviderDeps,
  storedKeyReason,
} from "./conf.ts";

/** Default model of the `anthropic` provider. */
export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5";
/** Default model of the `openai` provider. */
export const OPENAI_DEFAULT_MODEL = "gpt-4o";

/**
 * The model ids the built-in providers declare (issue 27 point 8): `-m <id>` selects the
 * provider that declares the id, and model ids are unique across providers, so a plugin that
 * claims one of these is refused at registration instead of capturing `-m` routing.
 */
export const BUILTIN_MODELS: Readonly<Record<string, readonly string[]>> = {
  anthropic: [
    "claude-opus-4-5",
    "claude-opus-4-1",
    "claude-opus-4-0",
    "claude-sonnet-4-5",
    "claude-sonnet-4-0",
    "claude-haiku-4-5",
    "claude-3-7-sonnet-latest",
    "claude-3-5-haiku-latest",
  ],
  openai: [
    "gpt-5",
    "gpt-5-mini",
    "gpt-5-nano",
    "gpt-4.1",
    "gpt-4.1-mini",
    "gpt-4.1-nano",
    "gpt-4o",
    "gpt-4o-mini",
    "o3",
    "o4-mini",
  ],
  openrouter: ["openrouter/auto"],
  groq: ["openai/gpt-oss-120b"],
  deepseek: ["deepseek-chat", "deepseek-reasoner"],
};

function positive(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : fallback;
}

function modelOf(model: string, payload: SendPayload, fallback: string): string {
  return model || (typeof payload.model === "string" && payload.model) || fallback;
}

/** The `anthropic` and `openai` providers, reading `deps.env` at call time. */
export function envProviders(deps: ProviderDeps): ModelProvider[] {
  const env = deps.env;
  const anthropicAdapter = lazyAdapter("anthropic", adapterOptionsFor(deps));
  const openaiAdapter = lazyAdapter("openai", adapterOptionsFor(deps));
  const anthropic: ModelProvider = {
    name: "anthropic",
    description: "Anthropic Messages API",
    protocol: "anthropic",
    async ready() {
      if (env.ANTHROPIC_API_KEY) return { ready: true, reason: "ANTHROPIC_API_KEY set" };
      if (await deps.lookupKey("anthropic")) {
        return { ready: true, reason: await storedKeyReason(deps, "anthropic") };
      }
      return { ready: false, reason: missingKeyMessage("ANTHROPIC_API_KEY", "anthropic") };
    },
    defaultModel: () => Promise.resolve(ANTHROPIC_DEFAULT_MODEL),
    limits: () => Promise.resolve({ maxOutput: positive(env.ANTHROPIC_MAX_TOKENS, 8192) }),
    async send(payload: SendPayload, model: string, options: SendOptions) {
      const apiKey = env.ANTHROPIC_API_KEY || await deps.lookupKey("anthropic");
      if (!apiKey) {
        throw new ProviderError(missingKeyMessage("ANTHROPIC_API_KEY", "anthropic"), {
          hint: "hs auth set anthropic",
        });
      }
      const headers: Record<string, string> = {};
      if (env.ANTHROPIC_API_VERSION) headers["anthropic-version"] = env.ANTHROPIC_API_VERSION;
      if (env.ANTHROPIC_BETA) headers["anthropic-beta"] = env.ANTHROPIC_BETA;
      const endpoint: Endpoint = {
        name: "anthropic",
        url: env.ANTHROPIC_API_URL || "https://api.anthropic.com/v1/messages",
        apiKey,
        model: modelOf(model, payload, ANTHROPIC_DEFAULT_MODEL),
        maxTokens: positive(env.ANTHROPIC_MAX_TOKENS, 8192),
        headers,
        timeoutMs: DEFAULT_TIMEOUT_MS,
        stream: payload.stream !== false,
      };
      return await anthropicAdapter.send({ ...payload, model: endpoint.model }, endpoint, options);
    },
  };
  const openai: ModelProvider = {
    name: "openai",
    description: "OpenAI-compatible chat completions API",
    protocol: "openai",
    async ready() {
      if (env.OPENAI_API_KEY) return { ready: true, reason: "OPENAI_API_KEY set" };
      if (env.OPENAI_API_URL) {
        return { ready: true, reason: "OPENAI_API_URL set (key-less local server)" };
      }
      if (await deps.lookupKey("openai")) {
        return { ready: true, reason: await storedKeyReason(deps, "openai") };
      }
      return {
        ready: false,
        reason: `${missingKeyMessage("OPENAI_API_KEY", "openai")} (or set OPENAI_API_URL)`,
      };
    },
    defaultModel: () => Promise.resolve(OPENAI_DEFAULT_MODEL),
    limits: () => Promise.resolve({ maxOutput: positive(env.OPENAI_MAX_TOKENS, 4096) }),
    async send(payload: SendPayload, model: string, options: SendOptions) {
      const apiKey = env.OPENAI_API_KEY || await deps.lookupKey("openai");
      if (!apiKey && !env.OPENAI_API_URL) {
        throw new ProviderError(missingKeyMessage("OPENAI_API_KEY", "openai"), {
          hint: "hs auth set openai (or set OPENAI_API_URL for a local server)",
        });
      }
      const endpoint: Endpoint = {
        name: "openai",
        url: env.OPENAI_API_URL || "https://api.openai.com/v1/chat/completions",
        apiKey: apiKey || undefined,
        model: modelOf(model, payload, OPENAI_DEFAULT_MODEL),
        maxTokens: positive(env.OPENAI_MAX_TOKENS, 4096),
        headers: {},
        timeoutMs: DEFAULT_TIMEOUT_MS,
        stream: payload.stream !== false,
      };
      return await openaiAdapter.send({ ...payload, model: endpoint.model }, endpoint, options);
    },
  };
  return [anthropic, openai];
}
