/**
 * Runtime plugins (seed 002): the contract, the PluginHost with its owned
 * registries, the audit bus, and the user's `plugins.json`.
 *
 * @module
 */
export * from "./types.ts";
export * from "./host.ts";
export { type ModelEntry, type PrincipalProfile, Registries } from "./registries.ts";
export * from "./registry.ts";
export * from "./audit.ts";
export * from "./config.ts";
export * from "./lifecycle.ts";
export * from "./pages.ts";
export * from "./prompts.ts";
