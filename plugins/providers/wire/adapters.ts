/**
 * The protocol adapter registry: `getAdapter("anthropic" | "openai" | "openai-responses")`.
 *
 * @module
 */
import { HarnessError, type ProtocolAdapter } from "../../../core/mod.ts";
import { createAnthropicAdapter } from "./anthropic.ts";
import type { AdapterOptions } from "./http.ts";
import { createOpenAIChatAdapter } from "./openai_chat.ts";
import { createOpenAIResponsesAdapter } from "./openai_responses.ts";
import { type ProtocolName, PROTOCOLS } from "../setup/mod.ts";

const FACTORIES: Record<ProtocolName, (o: AdapterOptions) => ProtocolAdapter> = {
  "anthropic": createAnthropicAdapter,
  "openai": createOpenAIChatAdapter,
  "openai-responses": createOpenAIResponsesAdapter,
};

const DEFAULTS = new Map<string, ProtocolAdapter>();

/**
 * The adapter of a protocol. Without options the shared default instance is
 * returned; with options (retry policy, fetch) a new one. Unknown protocol →
 * HarnessError listing the known ones.
 */
export function getAdapter(protocol: string, options?: AdapterOptions): ProtocolAdapter {
  const factory = (FACTORIES as Record<string, (o: AdapterOptions) => ProtocolAdapter>)[protocol];
  if (!factory) {
    throw new HarnessError(
      `unknown protocol "${protocol}"`,
      `use one of: ${PROTOCOLS.join(", ")}`,
    );
  }
  if (options) return factory(options);
  let a = DEFAULTS.get(protocol);
  if (!a) {
    a = factory({});
    DEFAULTS.set(protocol, a);
  }
  return a;
}
