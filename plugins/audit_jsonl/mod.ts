/**
 * `jsonlAuditPlugin` (id `audit-jsonl`, seed 002 "Plugin d'audit"): appends every
 * runtime audit event (`permission` decision and response records,
 * `tool_execution`) as one JSON line to a file. It creates the parent
 * directories, opens the file for appending (mode 0600 when it creates it; an
 * existing file's mode is left alone; no rotation), and the host drains its
 * ordered queue (at most 1,000 pending events) before the file is synced and
 * closed.
 *
 * `failClosed: true` (beyond the seed, for regulated users): a permission
 * decision waits until its record is written, and the call is refused when it
 * cannot be.
 *
 * @module
 */
export { type JsonlAuditConfig, jsonlAuditPlugin } from "./plugin.ts";
