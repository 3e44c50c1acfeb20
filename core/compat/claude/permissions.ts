/**
 * `permissions.deny` / `permissions.ask` of Claude Code settings as hs floor rules:
 * they only narrow. An `allow` there never widens the floor past the user's own (it
 * is listed by `hs doctor` as not used).
 *
 * | Claude Code | hs |
 * | --- | --- |
 * | `Bash` / `Bash(npm run test:*)` / `Bash(git push)` | `bash` / `bash(npm run test *)` / `bash(git push)` |
 * | `Read(./.env)`, `Read(/src/**)` (from the project root), `Read(//abs/**)`, `Read(~/x)` | `read_file(<project>/.env)`, … |
 * | `Edit(…)` | `edit_file(…)` and `write_file(…)` |
 * | `Write(…)` | `write_file(…)` |
 * | `Task`, `Skill` | `agent`, `skill` |
 * | `mcp__server`, `mcp__server__tool` | `mcp__server__*`, `mcp__server__tool` |
 *
 * @module
 */
import { join } from "../../early/mod.ts";
import type { ClaudeLayout } from "./layout.ts";
import { readSettings } from "./settings.ts";
import { FROM_CLAUDE } from "./tool_names.ts";

/** An hs permission rule made from a Claude Code one. */
export interface NarrowingRule {
  /** `deny` or `ask` (never `allow`). */
  verdict: "deny" | "ask";
  /** The hs rule text, e.g. `bash(rm *)`. */
  text: string;
  /** Where it came from: `<settings file>: <the rule as written>`. */
  source: string;
}

/** The rules made, and the rules that could not be used (with why). */
export interface ClaudePermissions {
  /** hs rules (deny and ask). */
  rules: NarrowingRule[];
  /** Rules left out, with the reason. */
  unused: { file: string; rule: string; reason: string }[];
}

const PATH_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit"]);

/** One Claude Code rule as hs rule texts; a string is why it cannot be used. */
export function translateRule(rule: string, projectDir: string): string[] | string {
  const m = /^\s*([\w-]+)\s*(?:\((.*)\))?\s*$/s.exec(rule);
  if (!m) return "not a Tool or Tool(specifier) rule";
  const [, tool, rawSpec] = m;
  const spec = rawSpec?.trim();
  if (tool.startsWith("mcp__")) {
    if (spec) return "an MCP rule takes no specifier";
    return [tool.split("__").length === 2 ? `${tool}__*` : tool];
  }
  const names = FROM_CLAUDE[tool];
  if (!names) return `hs has no tool like ${tool}`;
  if (!spec || spec === "*") return names;
  if (tool === "Bash") {
    const pattern = spec.endsWith(":*") ? `${spec.slice(0, -2).trimEnd()} *` : spec;
    return names.map((n) => `${n}(${pattern})`);
  }
  if (PATH_TOOLS.has(tool)) {
    let p = spec;
    if (p.startsWith("//")) p = p.slice(1);
    else if (p.startsWith("/")) p = join(projectDir, p);
    else if (!p.startsWith("~")) p = join(projectDir, p.replace(/^\.\//, ""));
    return names.map((n) => `${n}(${p})`);
  }
  return `${tool}(…) specifiers are not read by hs (use ${tool} alone)`;
}

/** The deny and ask rules of every settings file the layout found. */
export function claudePermissions(layout: ClaudeLayout): ClaudePermissions {
  const out: ClaudePermissions = { rules: [], unused: [] };
  for (const file of layout.current().settingsFiles) {
    const s = readSettings(file);
    if (!s) continue;
    const projectDir = join(file, "..", "..");
    for (const verdict of ["deny", "ask"] as const) {
      for (const rule of s.permissions[verdict]) {
        const t = translateRule(rule, projectDir);
        if (typeof t === "string") out.unused.push({ file, rule, reason: t });
        else for (const text of t) out.rules.push({ verdict, text, source: `${file}: ${rule}` });
      }
    }
    for (const rule of s.permissions.allow) {
      out.unused.push({ file, rule, reason: "an allow rule never widens hs's floor" });
    }
  }
  return out;
}
