/**
 * Plain-text formats shared by the `.harness/` files: `key=value` lines
 * (`session.conf`, `settings.conf`, `.conf` variants, `--defaults`) and a
 * `---` frontmatter block (message files, SKILL.md, bot prompts).
 *
 * @module
 */

/** Parses `key=value` lines; the first occurrence of a key wins. */
export function parseKeyValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!(key in out)) out[key] = line.slice(eq + 1);
  }
  return out;
}

/** Splits a message file into frontmatter fields and body (only the first block is frontmatter). */
export function splitFrontmatter(text: string): { meta: Record<string, string>; body: string } {
  const meta: Record<string, string> = {};
  if (!text.startsWith("---\n") && !text.startsWith("---\r\n")) return { meta, body: text };
  const start = text.indexOf("\n") + 1;
  let pos = start;
  for (;;) {
    const nl = text.indexOf("\n", pos);
    const line = (nl < 0 ? text.slice(pos) : text.slice(pos, nl)).replace(/\r$/, "");
    if (line === "---") {
      let body = nl < 0 ? "" : text.slice(nl + 1);
      if (body.endsWith("\n")) body = body.slice(0, -1);
      return { meta, body };
    }
    const colon = line.indexOf(":");
    if (colon > 0) meta[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    if (nl < 0) return { meta, body: "" };
    pos = nl + 1;
  }
}
