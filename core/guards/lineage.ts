/**
 * Ceilings only narrow (issue 23): who started whom, so that a sub-agent never holds more
 * than its parent. Every run registers its session with the ceiling it holds — its own
 * (a bot's `tools` list) intersected with its parent's — and the behavior whose guards and
 * hooks apply to it: a plain worker runs under its parent's, a named child bot under its own.
 *
 * @module
 */

/** A tool ceiling: the tool names an agent may call (undefined: no ceiling). */
export type Ceiling = ReadonlySet<string> | undefined;

/** The intersection of ceilings (undefined ones do not narrow). */
export function narrowCeiling(...ceilings: Ceiling[]): Ceiling {
  let out: Set<string> | undefined;
  for (const c of ceilings) {
    if (!c) continue;
    out = out ? new Set([...out].filter((n) => c.has(n))) : new Set(c);
  }
  return out;
}

/** How a run entered the lineage. */
export interface LineEntry {
  /** The run's session id. */
  session: string;
  /** The run's principal ("main", "bot:<name>", "agent:<parent session>"). */
  principal: string;
  /** The run's own ceiling (its bot's `tools`), before its parent's narrows it. */
  own: Ceiling;
  /** The session of the run that started it through the `agent` tool, if any. */
  parent?: string;
  /** True for a plain worker (no bot of its own): it runs under its parent's behavior. */
  worker?: boolean;
  /** The tools the run asked for (the `agent` tool's `tools`), narrowing further. */
  asked?: readonly string[];
}

/** How a sub-agent run is linked to the run that started it. */
export interface SubAgentLink {
  /** The parent run's session id. */
  session: string;
  /** The tools the child asked for. */
  tools?: readonly string[];
}

interface Line {
  ceiling: Ceiling;
  /** The principal whose behavior (guards, hooks) applies to the run. */
  behavior: string;
  /** Worker principals this run's plain workers run as (dropped when the run leaves). */
  workers: Set<string>;
}

/** The runs in flight with the ceilings and behaviors they inherited. */
export class AgentLineage {
  #lines = new Map<string, Line>();
  /** Worker principal → the principal whose behavior it runs under. */
  #workers = new Map<string, string>();

  /**
   * Registers a run; returns the ceiling it holds. A child whose parent is not (or no longer)
   * registered holds nothing: a sub-agent never runs without its parent's ceiling known.
   */
  enter(e: LineEntry): Ceiling {
    let ceiling = narrowCeiling(e.own, e.asked ? new Set(e.asked) : undefined);
    let behavior = e.principal;
    if (e.parent !== undefined) {
      const p = this.#lines.get(e.parent);
      ceiling = p ? narrowCeiling(ceiling, p.ceiling) : new Set();
      if (p && e.worker) {
        behavior = p.behavior;
        this.#workers.set(e.principal, p.behavior);
        p.workers.add(e.principal);
      }
    }
    this.#lines.set(e.session, { ceiling, behavior, workers: new Set() });
    return ceiling;
  }

  /** Drops a run that ended (and the worker principals of its workers). */
  leave(session: string): void {
    const line = this.#lines.get(session);
    if (!line) return;
    for (const w of line.workers) this.#workers.delete(w);
    this.#lines.delete(session);
  }

  /** The ceiling a session's run holds, narrowed by `own` (its principal's current ceiling). */
  ceilingOf(session: string | undefined, own: Ceiling): Ceiling {
    const line = session === undefined ? undefined : this.#lines.get(session);
    return line ? narrowCeiling(own, line.ceiling) : own;
  }

  /** The principal whose behavior applies to `principal` (itself unless a plain worker). */
  behaviorOf(principal: string): string {
    return this.#workers.get(principal) ?? principal;
  }
}
