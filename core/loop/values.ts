/**
 * Reading fields of the JSON a hook chain passes along (any hook may have
 * written it, so nothing is assumed about types).
 *
 * @module
 */

/** The string, or "" for anything else. */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** True for a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
