/**
 * The effect seam of a harness, wired: the dispatcher with the embedder's
 * guards and hooks and those registered (the packs' bots'), the principals'
 * tool ceilings, the floor and the audit bus; and the boundary seam of turns
 * and rounds, with the same guards and hooks run by the same chains (it
 * never enters the dispatcher).
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
  SeamChains,
} from "./guards/mod.ts";
import type { AuditBus, Registries } from "./plugins/mod.ts";
import { BoundarySeam } from "./boundaries.ts";
import type { SeamTrace } from "./packtest/mod.ts";

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
  audit: Pick<AuditBus, "emit" | "record" | "hasFailClosed">;
  /** HARNESS_LOG. */
  log(line: string): void;
  /** Who started whom: a sub-agent's ceiling is narrowed by its parent's. */
  lineage: Pick<AgentLineage, "ceilingOf">;
  /** Sees every guard and hook as the chains run them (`hs packs test`). */
  trace?: SeamTrace;
}

/** The effect seam of a harness: tool calls and turn and round boundaries. */
export interface EffectSeam {
  /** Tool calls: ceiling → guards → floor → core. */
  dispatcher: Dispatcher;
  /** Turn and round boundaries: their guards and hooks. */
  boundaries: BoundarySeam;
}

/** The dispatcher and the boundary seam of a harness, sharing their guards, hooks and chains. */
export function effectSeam(o: SeamInit): EffectSeam {
  const extraGuards = o.guards ?? [];
  const extraHooks = o.hooks ?? [];
  const { registries, audit } = o;
  const { guards, effectHooks, principals } = registries;
  const all = () => [...extraGuards, ...guards.values()];
  const allH = () => [...extraHooks, ...effectHooks.values()];
  const t = o.trace;
  const allGuards = t ? () => all().map((g) => t.guard(g)) : all;
  const allHooks = t ? () => allH().map((h) => t.hook(h)) : allH;
  const chains = new SeamChains((id, m) => o.log(`[seam] ${id}: ${m}`));
  const dispatcher = new Dispatcher({
    guards: allGuards,
    hooks: allHooks,
    chains,
    // a tool its principal's ceiling omits does not enter (checked before any guard)
    ceiling: (call) =>
      o.lineage.ceilingOf(call.session, principals.get(call.principal)?.ceiling)?.has(call.tool) ??
        true,
    floor: o.floor ?? allowAllFloor,
    audit: (e) => audit.emit(e),
    record: (e) => {
      if (audit.hasFailClosed) return audit.record(e);
      audit.emit(e);
      return Promise.resolve(true as const);
    },
  });
  return {
    dispatcher,
    boundaries: new BoundarySeam({ guards: allGuards, hooks: allHooks, chains }),
  };
}
