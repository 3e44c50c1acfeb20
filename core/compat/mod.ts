/**
 * Other agents' project layouts read as hs sources. One room per ecosystem.
 *
 * @module
 */
export * from "./claude/mod.ts";
