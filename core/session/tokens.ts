/**
 * Token accounting without a tokenizer: a message's size is estimated from its
 * length in characters (constant time per string, cached per message), and the
 * estimate is calibrated by the usage the provider reported for an earlier
 * request (see {@link estimateBudget}).
 *
 * @module
 */
import type { ConversationMessage, Usage } from "../base/mod.ts";

/**
 * Characters per token of the raw estimate, before calibration. A little below the
 * usual 4 for English prose: code, JSON and tool output take more tokens per character,
 * and an estimate that errs high compacts early rather than too late.
 */
export const CHARS_PER_TOKEN = 3.5;

/** Characters of framing each message costs on the wire (role, block markers). */
const MESSAGE_OVERHEAD_CHARS = 16;

/** Raw token estimate of a number of characters. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

const sizes = new WeakMap<ConversationMessage, number>();

/**
 * Characters a message contributes to a request (its text, tool-call names and JSON
 * inputs, thinking), computed once per message object.
 */
export function messageChars(m: ConversationMessage): number {
  const hit = sizes.get(m);
  if (hit !== undefined) return hit;
  let n = MESSAGE_OVERHEAD_CHARS;
  if (m.role === "assistant") {
    for (const b of m.blocks) {
      if (b.type === "text") n += b.text.length;
      else if (b.type === "thinking") n += b.text.length + b.signature.length;
      else n += b.name.length + b.id.length + JSON.stringify(b.input ?? {}).length + 8;
    }
  } else if (m.role === "tool_result") n += m.text.length + m.callId.length;
  else n += m.text.length;
  sizes.set(m, n);
  return n;
}

/** The whole prompt of a request as usage reports it: uncached input plus both cache fields. */
export function promptTokens(u: Usage): number {
  return u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
}

/** Adds `u` to `into` (cache fields appear only once some were reported). */
export function addUsage(into: Usage, u: Usage): Usage {
  into.input_tokens += u.input_tokens;
  into.output_tokens += u.output_tokens;
  if (u.cache_read_input_tokens) {
    into.cache_read_input_tokens = (into.cache_read_input_tokens ?? 0) + u.cache_read_input_tokens;
  }
  if (u.cache_creation_input_tokens) {
    into.cache_creation_input_tokens = (into.cache_creation_input_tokens ?? 0) +
      u.cache_creation_input_tokens;
  }
  return into;
}

/** Usage from message frontmatter (`tokens_in`, `tokens_out`, `tokens_cache_read|write`). */
export function usageOfMeta(meta: Record<string, string>): Usage | undefined {
  if (meta.tokens_in === undefined && meta.tokens_out === undefined) return undefined;
  const n = (v: string | undefined) => {
    const x = Number(v);
    return Number.isFinite(x) && x > 0 ? Math.floor(x) : 0;
  };
  const u: Usage = { input_tokens: n(meta.tokens_in), output_tokens: n(meta.tokens_out) };
  if (n(meta.tokens_cache_read)) u.cache_read_input_tokens = n(meta.tokens_cache_read);
  if (n(meta.tokens_cache_write)) u.cache_creation_input_tokens = n(meta.tokens_cache_write);
  return u;
}

/** A compact human figure: 950, 12.3k, 1.2M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}
