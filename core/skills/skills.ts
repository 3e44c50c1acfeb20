/**
 * Skill discovery (PROTOCOLS "Skills"): `<root>/<dir>/SKILL.md` with YAML
 * frontmatter (`name`, `description` required); most local wins per name.
 * Parsed files are cached by mtime.
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import {
  childKind,
  dirEntries,
  readTextOrUndefined,
  type SkillInfo,
  splitFrontmatter,
  statOrUndefined,
  yamlNow,
} from "../base/mod.ts";

/** A SKILL.md that was left out, and why. */
export interface SkillProblem {
  /** The SKILL.md. */
  path: string;
  /** Why it was left out. */
  reason: string;
}

const cache = new Map<string, { mtime: number; info?: SkillInfo; problem?: string }>();

/** Parses one SKILL.md (cached by mtime). */
export function readSkill(path: string, source: string): { info?: SkillInfo; problem?: string } {
  const st = statOrUndefined(path);
  const mtime = st?.mtime?.getTime() ?? -1;
  const hit = cache.get(path);
  if (hit && hit.mtime === mtime) return hit;
  const text = readTextOrUndefined(path);
  let entry: { mtime: number; info?: SkillInfo; problem?: string };
  if (text === undefined) entry = { mtime, problem: "unreadable" };
  else {
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
    const YAML = m ? yamlNow() : undefined;
    // the YAML reader loads on first need: this file is read again on its next use
    if (m && !YAML) return { problem: "its frontmatter is read once the YAML reader has loaded" };
    if (!m) entry = { mtime, problem: "no YAML frontmatter" };
    else {
      let fm: Record<string, unknown> = {};
      try {
        fm = (YAML!.parse(m[1]) ?? {}) as Record<string, unknown>;
      } catch {
        fm = {};
      }
      const name = typeof fm.name === "string" ? fm.name.trim() : "";
      const description = typeof fm.description === "string" ? fm.description.trim() : "";
      if (!name || !description) {
        entry = { mtime, problem: "frontmatter needs `name` and `description`" };
      } else {
        entry = {
          mtime,
          info: {
            name,
            description,
            path,
            directory: dirname(path),
            body: splitFrontmatter(text.replace(/\r\n/g, "\n")).body,
            source,
          },
        };
      }
    }
  }
  cache.set(path, entry);
  return entry;
}

/**
 * Skill roots, lowest priority first: pack sources' `skills/`, then walking
 * from `/` down to cwd (and the user's home): `<d>/.harness/skills`,
 * `<d>/.agents/skills`; plus `$HARNESS_HOME/skills`.
 */
export function skillRoots(opts: {
  packRoots: string[];
  cwd: string;
  userHome: string;
  harnessHome: string;
  excluded: (dir: string) => boolean;
}): string[] {
  const roots: string[] = [...opts.packRoots];
  if (dirEntries(opts.harnessHome)?.dirs.has("skills")) {
    roots.push(join(opts.harnessHome, "skills"));
  }
  const walk: string[] = [];
  let cur = opts.cwd;
  for (;;) {
    walk.push(cur);
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  if (!walk.includes(opts.userHome)) walk.push(opts.userHome);
  for (const d of walk.reverse()) {
    for (const sub of [".harness", ".agents"]) {
      if (childKind(d, sub) !== "dir") continue;
      if (sub === ".harness" && opts.excluded(join(d, sub))) continue;
      if (dirEntries(join(d, sub))?.dirs.has("skills")) roots.push(join(d, sub, "skills"));
    }
  }
  return [...new Set(roots)];
}

/** Finds skills under roots; later roots override earlier ones by name. */
export function findSkills(roots: string[]): { skills: SkillInfo[]; problems: SkillProblem[] } {
  const byName = new Map<string, SkillInfo>();
  const problems: SkillProblem[] = [];
  for (const root of roots) {
    const entries = dirEntries(root);
    if (!entries) continue;
    for (const dir of entries.names) {
      if (!entries.dirs.has(dir)) continue;
      if (!dirEntries(join(root, dir))?.files.has("SKILL.md")) continue;
      const path = join(root, dir, "SKILL.md");
      const r = readSkill(path, root);
      if (r.info) byName.set(r.info.name, r.info);
      else problems.push({ path, reason: r.problem ?? "invalid" });
    }
  }
  return { skills: [...byName.values()], problems };
}

/** The system-prompt catalog block (names sorted). */
export function skillCatalog(skills: SkillInfo[]): string {
  if (skills.length === 0) return "";
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = ["<available-skills>"];
  for (const s of sorted) {
    lines.push(`  <skill name="${s.name}" path="${s.path}">`, `    ${s.description}`, "  </skill>");
  }
  lines.push("</available-skills>");
  const intro = "Skills below are task-specific guides. Before working on a request, check their " +
    "descriptions; when one matches, call the `skill` tool with its name first and follow what it says.";
  return `${intro}\n\n${lines.join("\n")}`;
}
