/**
 * Skills (PROTOCOLS "Skills"): roots, `SKILL.md` parsing and the catalog the
 * system prompt carries.
 *
 * @module
 */
export * from "./skills.ts";
