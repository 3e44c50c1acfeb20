/**
 * Compares the built CLI reference page (HTML) with the help the CLI prints now.
 *
 * @module
 */
import { decodeEntities } from "./links.ts";
import { commandAnchor, commandTitle, type HelpPage } from "./cli_reference.ts";

/** The text of the first code block after each command heading, by heading id. */
export function pageSections(html: string): Map<string, string> {
  const out = new Map<string, string>();
  const heads = [...html.matchAll(/<h[2-4][^>]*\sid="(hs(?:-[^"]*)?)"[^>]*>/g)];
  heads.forEach((h, i) => {
    const end = i + 1 < heads.length ? heads[i + 1].index : html.length;
    const chunk = html.slice(h.index, end);
    const code = /<pre[^>]*>\s*<code[^>]*>([\s\S]*?)<\/code>\s*<\/pre>/.exec(chunk);
    if (code) {
      const text = decodeEntities(code[1].replace(/<[^>]+>/g, ""));
      out.set(h[1], text.split("\n").map((l) => l.trimEnd()).join("\n").trimEnd());
    }
  });
  return out;
}

/**
 * Differences between the page and the live help: a command whose section is missing
 * or whose help text differs, and sections of commands the CLI no longer lists.
 */
export function compareCliPage(html: string, live: HelpPage[]): string[] {
  const sections = pageSections(html);
  const problems: string[] = [];
  const expected = new Set<string>();
  for (const p of live) {
    const id = commandAnchor(p.path);
    expected.add(id);
    const shown = sections.get(id);
    if (shown === undefined) problems.push(`${commandTitle(p.path)}: no section #${id}`);
    else if (shown !== p.text) {
      problems.push(
        `${commandTitle(p.path)}: the page differs from \`--help\`:\n${diff(shown, p.text)}`,
      );
    }
  }
  for (const id of sections.keys()) {
    if (!expected.has(id)) problems.push(`#${id}: not a command of hs --help any more`);
  }
  return problems;
}

/** The first differing line of two texts, for the report. */
function diff(page: string, live: string): string {
  const a = page.split("\n");
  const b = live.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `  line ${i + 1}\n  page: ${a[i] ?? "(none)"}\n  live: ${b[i] ?? "(none)"}`;
    }
  }
  return "";
}
