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
  /** Paths that may be read. */
  read: Grant;
  /** Paths that may be written. */
  write: Grant;
  /** Hosts that may be reached. */
  net: Grant;
  /** Programs that may be run. */
  run: Grant;
  /** Environment variables that may be read. */
  env: Grant;
  /** What each effect may never touch, whatever the grant. */
  deny: Denials;
}
