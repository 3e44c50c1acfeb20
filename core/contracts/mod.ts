/**
 * The contracts of the plugin API, one file per contract: tools (and the skills a tool
 * context sees), providers, the canonical conversation, stream events, audit, and what the
 * kernel consumes of a stage (prompt sections, a child's environment). Plain TypeScript types
 * (zod schemas live at the boundaries that parse untrusted data); it imports nothing.
 *
 * @module
 */
export * from "./common.ts";
export * from "./tool.ts";
export * from "./skill.ts";
export * from "./conversation.ts";
export * from "./events.ts";
export * from "./provider.ts";
export * from "./audit.ts";
export * from "./stage.ts";
