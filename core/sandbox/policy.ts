/**
 * The shape of an effect policy: what tools may read, write, reach, run and
 * see. The sandbox enforces one; `core/guards` computes it from layers.
 *
 * @module
 */

/** The five effects the floor bounds. */
export const EFFECTS = ["read", "write", "net", "run", "env"] as const;
/** One effect. */
export type Effect = typeof EFFECTS[number];

/** What an effect grants: everything, or exactly the listed items (empty = none). */
export type Grant = "all" | string[];

/** Paths/hosts/names an effect may never touch, whatever the grant says. */
export type Denials = Record<Effect, string[]>;

/** A complete effect policy. */
export interface EffectPolicy {
  read: Grant;
  write: Grant;
  net: Grant;
  run: Grant;
  env: Grant;
  deny: Denials;
}
