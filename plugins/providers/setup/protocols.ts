/**
 * The built-in wire protocols' names (the adapters themselves: adapters.ts).
 *
 * @module
 */

/** Names of the built-in wire protocols. */
export const PROTOCOLS = ["anthropic", "openai", "openai-responses"] as const;

/** A built-in wire protocol name. */
export type ProtocolName = typeof PROTOCOLS[number];
