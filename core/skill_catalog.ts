/**
 * The skills catalog and its merge rule: file skills under the skill roots
 * (packs' `skills/` folders of the walk, the workspace, the user's and
 * `$HARNESS_HOME`'s), packs' manifest skills, and runtime skills of plugins.
 * A runtime skill never replaces a file skill of the same name (the file
 * skill is used, the conflict reported); a file skill replaces a pack's.
 *
 * @module
 */
import { join } from "./early/mod.ts";
import type { SkillInfo } from "./base/mod.ts";
import type { Snapshot } from "./discovery/mod.ts";
import type { Packs } from "./packs/mod.ts";
import { findSkills, readSkill, type SkillProblem, skillRoots } from "./skills/mod.ts";

/** Skills found, with the problems met. */
export interface SkillListing {
  /** The skills, runtime ones first. */
  skills: SkillInfo[];
  /** Files that could not be read, and conflicts. */
  problems: SkillProblem[];
}

/** What the catalog reads. */
export interface SkillCatalogInit {
  /** The current discovery snapshot. */
  snapshot(): Snapshot;
  /** Runtime skills registered by plugins. */
  runtime(): SkillInfo[];
  /** The behavior packs (their manifests' skills). */
  packs: Pick<Packs, "list">;
  /** The user's home directory. */
  userHome: string;
  /** `$HARNESS_HOME`. */
  harnessHome: string;
  /** More skill roots, after the walk's (another layout's: a trusted `.claude/skills`). */
  extraRoots?: () => string[];
}

/** Every skill an agent may see from a directory. */
export class SkillCatalog {
  #o: SkillCatalogInit;

  /** Creates the catalog. */
  constructor(init: SkillCatalogInit) {
    this.#o = init;
  }

  /** All skills seen from `cwd`: runtime ones, then packs' skills and files (the merge rule). */
  all(cwd: string): SkillListing {
    const found = this.files(cwd);
    const byName = new Map<string, SkillInfo>();
    const problems = [...found.problems];
    for (const s of found.skills) byName.set(s.name, s);
    const runtime: SkillInfo[] = [];
    for (const s of this.#o.runtime()) {
      const file = byName.get(s.name);
      if (file) {
        problems.push({
          path: file.path,
          reason: `runtime skill "${s.name}" of ${
            s.owner ?? s.source
          } conflicts with this file; ignored`,
        });
      } else runtime.push(s);
    }
    return { skills: [...runtime, ...found.skills], problems };
  }

  /** Skills of files under the skill roots, then packs' manifest skills not named there. */
  files(cwd: string): SkillListing {
    const snap = this.#o.snapshot();
    const packRoots = snap.sources.filter((s) => s.kind === "pack").map((s) =>
      join(s.dir, "skills")
    );
    const roots = skillRoots({
      packRoots,
      cwd,
      userHome: this.#o.userHome,
      harnessHome: this.#o.harnessHome,
      excluded: (dir) => snap.untrusted.includes(dir),
    });
    const found = findSkills([...roots, ...(this.#o.extraRoots?.() ?? [])]);
    const names = new Set(found.skills.map((s) => s.name));
    const skills = [...found.skills];
    const problems = [...found.problems];
    for (const p of this.#o.packs.list()) {
      for (const dir of p.manifest?.skills ?? []) {
        const r = readSkill(join(dir, "SKILL.md"), `pack:${p.manifest!.name}`);
        if (r.info && !names.has(r.info.name)) {
          names.add(r.info.name);
          skills.push(r.info);
        } else if (r.problem) problems.push({ path: join(dir, "SKILL.md"), reason: r.problem });
      }
    }
    return { skills, problems };
  }
}
