/**
 * Workspace trust: which project `.harness/` directories may run code, and
 * the fingerprints of their control files.
 *
 * @module
 */
export * from "./trust.ts";
export * from "./control.ts";
export * from "./control_paths.ts";
export * from "./run_changes.ts";
export * from "./project_mcp.ts";
