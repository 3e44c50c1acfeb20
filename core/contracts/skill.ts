/**
 * What the kernel knows of a skill (a folder with a SKILL.md).
 *
 * @module
 */

/** A skill as seen by the catalog and the `skill` tool. */
export interface SkillInfo {
  /** The skill's name (how the `skill` tool loads it). */
  name: string;
  /** When to use the skill (from its frontmatter), shown in the catalog. */
  description: string;
  /** Absolute path of SKILL.md, or "" for runtime skills. */
  path: string;
  /** Absolute directory of the skill, if any (resources are listed from it). */
  directory?: string;
  /** The body (after frontmatter). Loaded lazily for file skills. */
  body?: string;
  /** Where it comes from: a skills directory, `pack:<name>`, or `runtime` (a plugin's). */
  source: string;
  /** The plugin that registered a runtime skill (`plugin:<id>`). */
  owner?: string;
}
