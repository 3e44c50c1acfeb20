/**
 * Sessions as files (PROTOCOLS "Sessions"): `session.conf`, one markdown
 * file per message, `.stream` events; exclusive message writes, a per-turn
 * session lock, the body encoding that keeps text text, and an in-memory index;
 * compaction marks and the context view; token accounting; a session as one portable
 * archive (export, verified import).
 *
 * @module
 */
export * from "./session.ts";
export { checkedImages, MAX_IMAGE_BYTES } from "./attachments.ts";
export {
  contextView,
  parseMessageFile,
  type SessionEntry,
  summaryBody,
  type SummaryRecord,
} from "./entries.ts";
export { isoSeconds, listSessions, newSessionId, type SessionConf } from "./session_dir.ts";
export { decodeAttr, decodeValue, encodeAttr, encodeValue, renderFrontmatter } from "./codec.ts";
export {
  lockHolder,
  type LockOptions,
  SESSION_BUSY_EXIT,
  sessionBusy,
  type SessionLock,
} from "./lock.ts";
export * from "./tokens.ts";
export * from "./budget.ts";
export * from "./state_log.ts";
export * from "./turns.ts";
export * from "./groups.ts";
// the session archives (archive.ts, archive_import.ts) are loaded by Sessions on first use
export { type NewSession, Sessions } from "./sessions_view.ts";
export { archiveFileName } from "./archive_name.ts";
