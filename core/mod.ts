/**
 * The kernel's public surface.
 *
 * @module
 */
export * from "./types.ts";
export * from "./errors.ts";
export { HarnessCore } from "./harness.ts";
export type { HarnessOptions, ProviderFactory, RunOptions, RunResult } from "./harness.ts";
export { Session } from "./session.ts";
export type { Snapshot, Source } from "./discovery.ts";
export * from "./plugins/types.ts";
export { PluginHost, Registries } from "./plugins/host.ts";
export { AuditBus } from "./audit.ts";
export { VERSION } from "./version.ts";
