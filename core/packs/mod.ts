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
export * from "./program.ts";
export { foregroundRefusal, type LoadLocation, locationOf, PackLoadError } from "./refusal.ts";
export { botPrincipal, packDirsIn } from "./loading.ts";
export { RESERVED_COMMANDS } from "./command_calls.ts";
export * from "./behavior.ts";
export * from "./commands.ts";
export * from "./state.ts";
export * from "./states.ts";
export { PackPublisher, type PackRegistries, type PublishedBot } from "./publish.ts";
export { type ConversationOf, perConversation } from "./instances.ts";
