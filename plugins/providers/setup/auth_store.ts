/**
 * `.auth.json` credential store: `{"<provider>": [{"type":"api_key","key"} |
 * {"type":"oauth", access_token, refresh_token, expires_at}]}`. Writes are
 * atomic (temp file + rename) with mode 0600. Keys are never printed: listings
 * are masked and errors never echo file contents. The implementation lives in
 * `core/auth.ts` (the `hs auth` command uses it too); this module re-exports it.
 *
 * @module
 */
export {
  type AuthEntry,
  type AuthFile,
  type AuthListing,
  listAuth,
  maskKey,
  parseAuthEntry,
  readAuth,
  removeKey,
  setEntry,
  setKey,
  storedKey,
  writeAuth,
} from "../../../core/mod.ts";
