/**
 * `skill {name}`: loads a skill's instructions (by frontmatter `name`) and
 * lists the files bundled in its `scripts/`, `references/` and `assets/`.
 *
 * @module
 */
import { dirname, firstUse, join } from "../../core/early/mod.ts";
import { z } from "zod";
import {
  loadYaml,
  type SkillInfo,
  textResult,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../../core/mod.ts";
import { errorMessage, errorResult, parseInput } from "./util.ts";

/** Sub-folders of a skill whose files are listed as resources. */
export const RESOURCE_DIRS = ["scripts", "references", "assets"] as const;

/** Most resource files listed per sub-folder. */
const MAX_RESOURCES = 200;

/** A SKILL.md split into its YAML frontmatter and its body. */
export interface SkillDocument {
  /** The parsed YAML mapping (empty when absent or invalid). */
  frontmatter: Record<string, unknown>;
  /** Everything after the closing `---`. */
  body: string;
}

/**
 * Splits a SKILL.md: the frontmatter is the YAML between a first line `---` and the
 * next `---` line; the body is everything after. Without frontmatter the whole text
 * is the body; unparsable YAML gives an empty frontmatter. CRLF line ends become LF. The YAML
 * reader is loaded only for a document with a frontmatter.
 */
export async function parseSkillDocument(text: string): Promise<SkillDocument> {
  text = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  const isFence = (line: string | undefined) => line !== undefined && line.trimEnd() === "---";
  if (!isFence(lines[0])) return { frontmatter: {}, body: text };
  const close = lines.findIndex((line, i) => i > 0 && isFence(line));
  if (close < 0) return { frontmatter: {}, body: text };
  let frontmatter: Record<string, unknown> = {};
  try {
    const data = (await loadYaml()).parse(lines.slice(1, close).join("\n"));
    if (data && typeof data === "object" && !Array.isArray(data)) {
      frontmatter = data as Record<string, unknown>;
    }
  } catch {
    // malformed frontmatter: keep the body usable
  }
  return { frontmatter, body: lines.slice(close + 1).join("\n") };
}

/** Files below `dir` (relative, `/`-separated, sorted; hidden entries skipped). */
async function listFiles(dir: string, prefix: string, out: string[]): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (out.length >= MAX_RESOURCES) return;
    if (entry.name.startsWith(".")) continue;
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory) await listFiles(join(dir, entry.name), rel, out);
    else out.push(rel);
  }
}

/** The resource files of a skill directory, e.g. `scripts/run.sh`, `references/api.md`. */
export async function listSkillResources(directory: string): Promise<string[]> {
  const all: string[] = [];
  for (const sub of RESOURCE_DIRS) {
    const files: string[] = [];
    await listFiles(join(directory, sub), sub, files);
    all.push(...files);
    if (files.length >= MAX_RESOURCES) all.push(`${sub}/... (more files not listed)`);
  }
  return all;
}

/** The body of a skill: given for runtime skills, read from SKILL.md for file skills. */
async function skillBody(skill: SkillInfo): Promise<string> {
  if (skill.body !== undefined) return skill.body;
  return (await parseSkillDocument(await Deno.readTextFile(skill.path))).body;
}

/** Finds a skill by name; file skills are also matched by their SKILL.md frontmatter. */
async function findSkill(skills: SkillInfo[], name: string): Promise<SkillInfo | undefined> {
  const direct = skills.find((s) => s.name === name);
  if (direct) return direct;
  for (const skill of skills) {
    if (!skill.path || skill.body !== undefined) continue;
    try {
      const doc = await parseSkillDocument(await Deno.readTextFile(skill.path));
      if (doc.frontmatter.name === name) return skill;
    } catch {
      // unreadable: not a match
    }
  }
  return undefined;
}

/** Renders the tool output in the reference's format. */
export function renderSkill(
  name: string,
  body: string,
  directory: string | undefined,
  resources: string[],
): string {
  const out = [`<skill name="${name}">`, body.replace(/\n+$/, ""), ""];
  if (directory) {
    out.push(
      `Skill directory: ${directory}`,
      "Relative paths in this skill resolve against the skill directory.",
    );
  }
  if (resources.length > 0) {
    out.push("", "<skill-resources>", ...resources.map((r) => `  ${r}`), "</skill-resources>");
  }
  out.push("</skill>");
  return out.join("\n");
}

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() => z.object({ name: z.string() }));

async function skill(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const name = parsed.data.name.trim();
  if (!name) return errorResult("name is required");
  if (!ctx.skills) return errorResult("skills are not available in this session");
  let skills: SkillInfo[];
  try {
    skills = await ctx.skills();
  } catch (err) {
    return errorResult(`cannot list skills: ${errorMessage(err)}`);
  }
  const found = await findSkill(skills, name);
  if (!found) {
    const names = [...new Set(skills.map((s) => s.name))].sort();
    const available = names.length > 0
      ? `available skills: ${names.join(", ")}`
      : "no skills are available";
    return errorResult(`skill '${name}' not found (${available})`);
  }
  let body: string;
  try {
    body = await skillBody(found);
  } catch (err) {
    return errorResult(`cannot read skill '${name}': ${errorMessage(err)}`);
  }
  const directory = found.directory ?? (found.path ? dirname(found.path) : undefined);
  const resources = directory ? await listSkillResources(directory) : [];
  return textResult(renderSkill(name, body, directory, resources));
}

/** The `skill` tool (read-only). */
export const skillTool: ToolDefinition = {
  name: "skill",
  description:
    "Load a skill's full instructions. Call this when a task matches an available skill's " +
    "description.",
  describe: "Load a skill's instructions by name",
  readOnly: true,
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The skill name from the available-skills catalog" },
    },
    required: ["name"],
  },
  execute: skill,
};
