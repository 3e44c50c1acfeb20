/**
 * The Markdown-with-frontmatter files of `.claude/commands/` and `.claude/agents/`:
 * YAML frontmatter (optional for commands) and a body.
 *
 * @module
 */
import { yamlNow } from "../../base/mod.ts";

/**
 * Thrown by {@link frontmatter} while the YAML reader is still loading (it loads on first
 * need): the file is left out of its listing until then — a command or agent whose
 * frontmatter was not read is never run without it (its `allowed-tools` would be lost).
 */
export class YamlPending extends Error {
  constructor() {
    super("the YAML reader is still loading");
  }
}

/** A file's frontmatter (an object, empty when there is none) and body. */
export function frontmatter(
  text: string,
): { meta: Record<string, unknown>; body: string; problem?: string } {
  const t = text.replace(/\r\n/g, "\n");
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(t);
  if (!m) return { meta: {}, body: t.trim() };
  const YAML = yamlNow();
  if (!YAML) throw new YamlPending(); // the claude-code plugin's setup awaits it
  try {
    const v = YAML.parse(m[1]) ?? {};
    if (typeof v !== "object" || Array.isArray(v)) {
      return {
        meta: {},
        body: t.slice(m[0].length).trim(),
        problem: "frontmatter is not a mapping",
      };
    }
    return { meta: v as Record<string, unknown>, body: t.slice(m[0].length).trim() };
  } catch (err) {
    return {
      meta: {},
      body: t.slice(m[0].length).trim(),
      problem: `frontmatter: ${(err as Error).message.split("\n")[0]}`,
    };
  }
}

/** A frontmatter value as a list of names: `"Read, Grep"` or `[Read, Grep]`. */
export function nameList(v: unknown): string[] | undefined {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === "string") return v.split(",").map((x) => x.trim()).filter(Boolean);
  return undefined;
}

/** A frontmatter value as text ("" when absent). */
export function text(v: unknown): string {
  return typeof v === "string" ? v.trim() : v === undefined || v === null ? "" : String(v);
}
