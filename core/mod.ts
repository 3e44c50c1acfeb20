/**
 * The kernel's public surface.
 *
 * @module
 */
export * from "./base/types.ts";
export * from "./base/errors.ts";
export { HarnessCore } from "./harness.ts";
export type { HarnessOptions, ProviderFactory, RunOptions, RunResult } from "./harness.ts";
export { Session } from "./session/session.ts";
export type { Snapshot, Source } from "./discovery/discovery.ts";
export * from "./plugins/types.ts";
export { PluginHost, Registries } from "./plugins/host.ts";
export { AuditBus } from "./plugins/audit.ts";
export { VERSION } from "./base/version.ts";
