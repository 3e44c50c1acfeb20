/**
 * The state follower: stage pipelines (in-process hooks merged with
 * executables), the built-in hooks, provider resolution, and the {@link Turn}
 * that follows `next_state` from `start` to the end.
 *
 * @module
 */
export * from "./stage.ts";
export * from "./chain.ts";
export * from "./stage_runner.ts";
export * from "./turn_host.ts";
export * from "./turn.ts";
export * from "./resolve.ts";
export * from "./continuation.ts";
export { resolveHooks } from "./resolve_hooks.ts";
export { loopHooks } from "./loop_hooks.ts";
export { COMPACT_INSTRUCTION, compactHooks, compactInstruction } from "./compact_hooks.ts";
export * from "./context_report.ts";
export { listedSources, sourcesHooks } from "./sources_hooks.ts";
export * from "./turn_services.ts";
export * from "./turn_observer.ts";
export { Compaction, type CompactionInit } from "./compaction.ts";
export { Rounds } from "./rounds.ts";
