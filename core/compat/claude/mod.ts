/**
 * Claude Code compatibility (issue 28): a project laid out for Claude Code —
 * `CLAUDE.md`, `.claude/skills`, `.claude/commands`, `.claude/agents`,
 * `.claude/settings.json` hooks and permissions — works in hs as it is, in a trusted
 * workspace. See docs/compat.md.
 *
 * @module
 */
export * from "./compat.ts";
export * from "./layout.ts";
export * from "./settings.ts";
export * from "./permissions.ts";
export * from "./commands.ts";
export * from "./agents.ts";
export * from "./hook_run.ts";
export * from "./hooks.ts";
export * from "./tool_names.ts";
export * from "./shell.ts";
