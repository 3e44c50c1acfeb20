/**
 * Behavior packs (seed 000): manifests, bots, guard consent, and the packs of
 * a harness with their attached behavior.
 *
 * @module
 */
export * from "./manifest.ts";
export * from "./bots.ts";
export * from "./consent.ts";
export * from "./packs.ts";
