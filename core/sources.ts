/**
 * The sources of a harness: the generated directory of the built-ins (first
 * in `HARNESS_SOURCES`), the `sources` stage that may replace the walk's
 * list, and the directories behavior packs are found in.
 *
 * @module
 */
import { join } from "./early/mod.ts";
import { ownerLabel } from "./base/mod.ts";
import { type Discovery, type Snapshot, walkHarnessDirs } from "./discovery/mod.ts";
import { listedSources, type StageRunner } from "./loop/mod.ts";
import { packDirsIn } from "./packs/mod.ts";
import type { Registries } from "./plugins/mod.ts";

/** What the sources service reads. */
export interface SourcesInit {
  /** Discovery (its walk and the listed sources it is given). */
  discovery: Discovery;
  /** Runs the `sources` stage. */
  stages: StageRunner;
  /** The registries (pack directories registered by plugins). */
  registries: Pick<Registries, "packs">;
  /** The working directory. */
  cwd: string;
  /** `$HARNESS_HOME`. */
  home: string;
  /** Whether a project `.harness/` is trusted. */
  isTrusted(dir: string): boolean;
  /** HARNESS_LOG. */
  log(line: string): void;
}

/** The `sources` chain and the packs' directories. */
export class Sources {
  #o: SourcesInit;
  /** The walk the `sources` chain last ran on (it runs again when that changes). */
  #walk?: Snapshot;
  /** Makes the built-ins' directory (see {@link lazyBuiltin}); cleared once it ran. */
  #makeBuiltin?: () => string | undefined;
  #builtin?: string;

  /** Creates the service. */
  constructor(init: SourcesInit) {
    this.#o = init;
  }

  /**
   * The generated directory of the built-ins (first in HARNESS_SOURCES), if written: made
   * on first read (a run that starts no child never writes or checks it).
   */
  get builtin(): string | undefined {
    const make = this.#makeBuiltin;
    if (make) {
      this.#makeBuiltin = undefined;
      this.#builtin = make();
    }
    return this.#builtin;
  }

  /** Sets the built-ins' directory. */
  set builtin(dir: string | undefined) {
    this.#makeBuiltin = undefined;
    this.#builtin = dir;
  }

  /** Sets how the built-ins' directory is made: on the first read of {@link builtin}. */
  lazyBuiltin(make: () => string | undefined): void {
    this.#makeBuiltin = make;
    this.#builtin = undefined;
  }

  /**
   * Runs the `sources` stage when the walk changed since it last ran (and only when it has
   * executable hooks): their `{"sources": [...]}` replaces the walk's source list. A chain
   * that fails, or prints no list, leaves hs's own list (the failure goes to the log).
   */
  async refresh(signal: AbortSignal = new AbortController().signal): Promise<void> {
    const { discovery, stages } = this.#o;
    const walk = discovery.walk();
    if (walk === this.#walk) return;
    this.#walk = walk;
    if (!walk.hooks.get("sources")?.size) {
      discovery.setListed(undefined);
      return;
    }
    const own = [...(this.builtin ? [this.builtin] : []), ...walk.allSources.map((x) => x.dir)];
    const r = await stages.run("sources", {}, {
      kind: "sources",
      signal,
      walk: () => [...own],
    }, { snapshot: walk, cwd: this.#o.cwd, signal });
    const listed = r.ok ? listedSources(r.output) : undefined;
    if (!listed) {
      const why = r.ok ? 'printed no {"sources": [absolute paths]}' : String(r.output.error);
      this.#o.log(`[sources] ${r.ok ? "the sources chain" : r.hook} ${why}; using hs's own list`);
      discovery.setListed(undefined);
      return;
    }
    // the built-ins' directory stands for what is registered in-process: not a source to scan
    discovery.setListed(listed.filter((d) => d !== this.builtin));
  }

  /** Pack directories: registered ones, `$HARNESS_HOME/packs`, trusted `.harness/packs`. */
  packDirs(): { dir: string; source: string }[] {
    const { cwd, home } = this.#o;
    const out: { dir: string; source: string }[] = [];
    for (const e of this.#o.registries.packs.entries()) {
      out.push({ dir: e.value, source: ownerLabel(e.owner) });
    }
    for (const d of packDirsIn(home)) out.push({ dir: d, source: home });
    for (const { dir, kind } of walkHarnessDirs(cwd, home)) {
      if (kind !== "project" || !this.#o.isTrusted(dir)) continue;
      for (const d of packDirsIn(dir)) out.push({ dir: d, source: dir });
    }
    return out;
  }
}

/** The project root: the directory holding the most local project `.harness`, else `cwd`. */
export function projectRoot(cwd: string, home: string): string {
  const project = walkHarnessDirs(cwd, home).filter((d) => d.kind === "project").at(-1);
  return project ? join(project.dir, "..") : cwd;
}
