/**
 * What every contract shares: JSON values and schemas, owners (who registered
 * something), and the floor's presets.
 *
 * @module
 */

/** Effect floor presets (`--floor`, `HARNESS_FLOOR`, `floor.json` `preset`). */
export const FLOOR_PRESETS = ["read-only", "workspace", "full"] as const;

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON Schema object (kept opaque: the model and the tool agree on it). */
export type JsonSchema = Record<string, unknown>;

/** Who registered something. Every registration has exactly one owner. */
export type Owner =
  | { kind: "builtin"; id: string }
  | { kind: "executable"; path: string }
  | { kind: "runtime-plugin"; id: string }
  | { kind: "behavior"; pack: string; bot: string };

/** Human-readable form of an owner, for listings and audit events. */
export function ownerLabel(owner: Owner): string {
  switch (owner.kind) {
    case "builtin":
      return `builtin:${owner.id}`;
    case "executable":
      return owner.path;
    case "runtime-plugin":
      return `plugin:${owner.id}`;
    case "behavior":
      return `behavior:${owner.pack}/${owner.bot}`;
  }
}
