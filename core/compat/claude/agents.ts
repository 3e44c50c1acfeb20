/**
 * `.claude/agents/<name>.md`: named sub-agents. The frontmatter's `name` (default: the
 * file name), `description`, `tools` (a comma-separated list or a YAML list, in Claude
 * Code's tool names; absent: every tool the caller holds) and `model` (`inherit`, or a
 * model name) are read; the body is the sub-agent's system prompt. The `agent` tool
 * runs one by name (`agent {bot: "<name>", prompt}`, the name a pack bot would take) within the caller's ceiling.
 *
 * @module
 */
import type { ClaudeLayout } from "./layout.ts";
import { cachedFile, markdownFiles } from "./layout.ts";
import { pendingAsAbsent } from "./commands.ts";
import { frontmatter, nameList, text } from "./markdown.ts";
import { FROM_CLAUDE } from "./tool_names.ts";

/** One named sub-agent. */
export interface ClaudeAgent {
  /** Its name. */
  name: string;
  /** When to use it (shown to the model). */
  description: string;
  /** hs tool names it may use (undefined: what its caller holds). */
  tools?: string[];
  /** The model (undefined: the caller's). */
  model?: string;
  /** Its system prompt. */
  prompt: string;
  /** The file. */
  path: string;
  /** Why it could not be read fully, if so. */
  problem?: string;
}

/** `model:` values that keep the caller's model (`inherit`, and that vendor's aliases). */
const CALLER_MODEL = new Set(["inherit", "sonnet", "opus", "haiku"]);

/** hs names of Claude Code tool names (`Read, Grep` → `read_file`, …; unknown ones kept). */
export function hsToolNames(names: string[]): string[] {
  const out = new Set<string>();
  // a sub-agent's `Edit` is the edit tool only (a permission rule's `Edit` covers writes too)
  const map: Record<string, string[]> = { ...FROM_CLAUDE, Edit: ["edit_file"] };
  for (const n of names) for (const h of map[n] ?? [n]) out.add(h);
  return [...out];
}

function parse(file: string, path: string, t: string): ClaudeAgent {
  const fm = frontmatter(t);
  const tools = nameList(fm.meta.tools);
  const model = text(fm.meta.model);
  return {
    name: text(fm.meta.name) || file,
    description: text(fm.meta.description),
    tools: tools ? hsToolNames(tools) : undefined,
    model: model && !CALLER_MODEL.has(model) ? model : undefined,
    prompt: fm.body,
    path,
    problem: fm.problem ?? (text(fm.meta.description) ? undefined : "no description"),
  };
}

/** The agents the layout holds (a more local file wins per name), sorted by name. */
export function claudeAgents(layout: ClaudeLayout): ClaudeAgent[] {
  const byName = new Map<string, ClaudeAgent>();
  for (const [file, path] of markdownFiles(layout.current().agentDirs)) {
    const a = pendingAsAbsent(() => cachedFile(path, "claude-agent", (t) => parse(file, path, t)));
    if (a) byName.set(a.name, a);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
