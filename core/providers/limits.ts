/**
 * Model limits: the context window and the output a request asks for, from
 * what the provider says (`.conf` `context=` / `max_tokens=`, an executable's
 * `--defaults`), what a runtime plugin declared for the model, then the
 * defaults of known models. A model none of these know has no window: its
 * budget is shown without a percentage and it is never compacted by size.
 *
 * @module
 */
import type { ModelDefinition, ModelLimits, ModelProvider, Pricing } from "../base/mod.ts";

/** A known model family: a pattern over the normalized model name and its limits. */
interface KnownModel {
  match: RegExp;
  context: number;
  maxOutput: number;
}

/**
 * Defaults of known models (vendor documentation, first match wins). Names are matched
 * lower-cased without a router prefix (`anthropic/claude-sonnet-4.5` → `claude-sonnet-4.5`).
 */
const KNOWN: readonly KnownModel[] = [
  { match: /^claude-(opus-4-[15]|opus-4\.[15])/, context: 200_000, maxOutput: 64_000 },
  { match: /^claude-opus-4/, context: 200_000, maxOutput: 32_000 },
  { match: /^claude-(sonnet|haiku)-4/, context: 200_000, maxOutput: 64_000 },
  { match: /^claude-3[.-]7/, context: 200_000, maxOutput: 64_000 },
  { match: /^claude-3[.-]5/, context: 200_000, maxOutput: 8_192 },
  { match: /^claude/, context: 200_000, maxOutput: 4_096 },
  { match: /^gpt-5/, context: 400_000, maxOutput: 128_000 },
  { match: /^gpt-4[.-]1/, context: 1_047_576, maxOutput: 32_768 },
  { match: /^gpt-4o/, context: 128_000, maxOutput: 16_384 },
  { match: /^gpt-4-turbo/, context: 128_000, maxOutput: 4_096 },
  { match: /^gpt-oss/, context: 131_072, maxOutput: 32_768 },
  { match: /^gpt-3[.-]5-turbo/, context: 16_385, maxOutput: 4_096 },
  { match: /^o[134](-|$)/, context: 200_000, maxOutput: 100_000 },
  { match: /^deepseek-(chat|reasoner|v3)/, context: 131_072, maxOutput: 8_192 },
  { match: /^gemini-(2|3)/, context: 1_048_576, maxOutput: 65_536 },
  { match: /^llama-?3[.-]?[123]/, context: 131_072, maxOutput: 8_192 },
  { match: /^(mistral-large|codestral)/, context: 131_072, maxOutput: 8_192 },
];

/** The limits of a known model, by name; undefined for a model the table does not know. */
export function knownModelLimits(model: string): ModelLimits | undefined {
  const name = model.toLowerCase().split("/").pop() ?? "";
  const hit = KNOWN.find((k) => k.match.test(name));
  return hit ? { context: hit.context, maxOutput: hit.maxOutput } : undefined;
}

/** Resolved limits of a model, with where the window came from. */
export interface ResolvedLimits {
  /** The context window; undefined when nothing knows it. */
  context?: number;
  /** The `max_tokens` a request asks for; undefined when nothing says. */
  maxOutput?: number;
  /** Where the window came from: "conf", "plugin", "known model", or "unknown". */
  source: "conf" | "plugin" | "known model" | "unknown";
  /** The most tool calls one model response may ask for (issue 23: caps). */
  maxToolCalls?: number;
  /** Where `maxToolCalls` came from (named in the message of a response over it). */
  maxToolCallsFrom?: string;
}

/** The cap on tool calls per model response when nothing sets one. */
export const DEFAULT_MAX_TOOL_CALLS = 128;

/**
 * The tool-call cap of a response: `HARNESS_MAX_TOOL_CALLS` (`setting`, for every provider)
 * wins, then the provider's own word (`.conf` `max_tool_calls=`), then the default.
 */
export function toolCallCap(
  own: Partial<ModelLimits>,
  setting: number | undefined,
): { maxToolCalls: number; maxToolCallsFrom: string } {
  if (setting !== undefined) {
    return { maxToolCalls: setting, maxToolCallsFrom: "HARNESS_MAX_TOOL_CALLS" };
  }
  if (own.maxToolCalls !== undefined) {
    return {
      maxToolCalls: own.maxToolCalls,
      maxToolCallsFrom: own.maxToolCallsFrom ?? "the provider",
    };
  }
  return { maxToolCalls: DEFAULT_MAX_TOOL_CALLS, maxToolCallsFrom: "the default" };
}

/**
 * The limits of `model` at `provider`: the provider's own word (`.conf`), then the
 * definition a runtime plugin registered, then the known-model defaults.
 */
export async function resolveLimits(
  provider: ModelProvider,
  model: string,
  declared: readonly ModelDefinition[] = [],
  maxToolCalls?: number,
): Promise<ResolvedLimits> {
  const own = (await provider.limits?.(model).catch(() => undefined)) ?? {};
  const def = declared.find((d) => d.id === model);
  const known = knownModelLimits(model);
  const maxOutput = own.maxOutput ?? def?.maxOutputTokens ?? known?.maxOutput;
  const cap = toolCallCap(own, maxToolCalls);
  if (own.context) return { context: own.context, maxOutput, source: "conf", ...cap };
  if (def?.contextWindow) {
    return { context: def.contextWindow, maxOutput, source: "plugin", ...cap };
  }
  if (known) return { context: known.context, maxOutput, source: "known model", ...cap };
  return { maxOutput, source: "unknown", ...cap };
}

/** The prices of a model at a provider (none unless the provider's `.conf` gives them). */
export async function resolvePricing(
  provider: ModelProvider,
  model: string,
): Promise<Pricing | undefined> {
  return await provider.pricing?.(model).catch(() => undefined);
}
