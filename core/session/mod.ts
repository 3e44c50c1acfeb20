/**
 * Sessions as files (PROTOCOLS "Sessions"): `session.conf`, one markdown
 * file per message, `.stream` events; atomic writes and an in-memory index;
 * compaction marks and the context view; token accounting.
 *
 * @module
 */
export * from "./session.ts";
export * from "./tokens.ts";
export * from "./budget.ts";
