/**
 * Sessions as files (PROTOCOLS "Sessions"): `session.conf`, one markdown
 * file per message, `.stream` events; atomic writes and an in-memory index.
 *
 * @module
 */
export * from "./session.ts";
export * from "./state_log.ts";
export * from "./turns.ts";
