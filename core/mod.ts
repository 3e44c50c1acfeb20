/**
 * The kernel's public surface: the {@link HarnessCore} composition root and
 * the public modules of every core folder — for embedders, plugin authors and
 * the CLI. Nothing outside `core/` reaches inside a core folder.
 *
 * @module
 */
export { HarnessCore, type HarnessOptions, type RunOptions } from "./harness.ts";
export { type LoopEndAddendum, loopEndOf, Runs, type RunsInit } from "./runs.ts";
export { Admin, type AdminInit, Catalog, type CatalogInit } from "./facade.ts";
export { FloorView, TrustAdmin, type TrustAdminInit } from "./admin_views.ts";
export {
  type FrontEnd,
  frontEndOf,
  type FrontEndParts,
  type FrontEndSettings,
  type RunsView,
  type Where,
} from "./front_end.ts";
export { PacksView } from "./packs_view.ts";
export { SkillCatalog, type SkillCatalogInit, type SkillListing } from "./skill_catalog.ts";
export { Sources, type SourcesInit } from "./sources.ts";
export { buildChildEnv, ChildEnvironment } from "./child_env.ts";
export { type ExecutableSchemas, ToolCatalog } from "./tool_catalog.ts";
export { corePlugin } from "./core_plugin.ts";
export * from "./base/mod.ts";
export * from "./session/mod.ts";
export * from "./config/mod.ts";
export * from "./discovery/mod.ts";
export * from "./trust/mod.ts";
export * from "./skills/mod.ts";
export * from "./exec/mod.ts";
export * from "./tools/mod.ts";
export * from "./providers/mod.ts";
export * from "./plugins/mod.ts";
export * from "./loop/mod.ts";
export * from "./guards/mod.ts";
export * from "./sandbox/mod.ts";
export * from "./packs/mod.ts";
export {
  type PackTestReport,
  type PackTestRequest,
  readExpectations,
  readSessionCassette,
  readTestScript,
} from "./pack_test.ts";
export {
  type Checked,
  type Expectation,
  type GuardDecision,
  type HookFire,
  labelOf,
  outcomeOf,
  reachedInput,
  type TraceStep,
} from "./packtest/mod.ts";
