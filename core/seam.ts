/**
 * The effect seam of a harness, wired: the dispatcher with the embedder's
 * guards and hooks and those registered (the packs' bots'), the principals'
 * tool ceilings (boundaries pass them unasked), the floor and the audit bus.
 *
 * @module
 */
import {
  type AgentLineage,
  allowAllFloor,
  Dispatcher,
  type Floor,
  type Guard,
  type Hook,
} from "./guards/mod.ts";
import type { AuditBus, Registries } from "./plugins/mod.ts";
import { isBoundary } from "./boundaries.ts";

/** What the seam is built from. */
export interface SeamInit {
  /** The embedder's extra guards and observer hooks. */
  guards?: Guard[];
  /** The embedder's extra observer hooks. */
  hooks?: Hook[];
  /** The registered guards, hooks and principals (their ceilings). */
  registries: Pick<Registries, "guards" | "effectHooks" | "principals">;
  /** The effect floor (default: allow all). */
  floor?: Floor;
  /** The audit bus. */
  audit: AuditBus;
  /** HARNESS_LOG. */
  log(line: string): void;
  /** Who started whom: a sub-agent's ceiling is narrowed by its parent's. */
  lineage: Pick<AgentLineage, "ceilingOf">;
}

/** The dispatcher of a harness. */
export function effectSeam(o: SeamInit): Dispatcher {
  const extraGuards = o.guards ?? [];
  const extraHooks = o.hooks ?? [];
  const { registries, audit } = o;
  const { guards, effectHooks, principals } = registries;
  return new Dispatcher({
    guards: () => [...extraGuards, ...guards.values()],
    hooks: () => [...extraHooks, ...effectHooks.values()],
    // a tool its principal's ceiling omits does not enter (checked before any guard)
    ceiling: (call) =>
      isBoundary(call) ||
      (o.lineage.ceilingOf(call.session, principals.get(call.principal)?.ceiling)?.has(call.tool) ??
        true),
    floor: o.floor ?? allowAllFloor,
    audit: (e) => audit.emit(e),
    record: (e) => {
      if (audit.hasFailClosed) return audit.record(e);
      audit.emit(e);
      return Promise.resolve(true);
    },
    onHookError: (id, m) => o.log(`[seam] ${id}: ${m}`),
  });
}
