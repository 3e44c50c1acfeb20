/**
 * Small markdown helpers for the build: sections of a file by heading, and
 * rewriting the targets of inline links outside fenced code.
 *
 * @module
 */

/** Splits markdown into lines, marking those inside fenced code blocks. */
export function fencedLines(md: string): { line: string; code: boolean }[] {
  return scanFences(md).lines;
}

/** The 1-based line of a code fence that is never closed (the rest renders as code), if any. */
export function unclosedFence(md: string): number | undefined {
  return scanFences(md).unclosedAt;
}

function scanFences(md: string) {
  const lines: { line: string; code: boolean }[] = [];
  let fence: string | undefined;
  let openedAt = 0;
  md.split("\n").forEach((line, i) => {
    const m = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    // A backtick fence's info string has no backtick (else it is inline code).
    if (fence === undefined && m && !(m[1][0] === "`" && m[2].includes("`"))) {
      fence = m[1];
      openedAt = i + 1;
      lines.push({ line, code: true });
    } else if (fence !== undefined) {
      lines.push({ line, code: true });
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) {
        fence = undefined;
      }
    } else lines.push({ line, code: false });
  });
  return { lines, unclosedAt: fence === undefined ? undefined : openedAt };
}

/**
 * The section of `md` under the `## heading` (heading line included), up to the next
 * heading of level 1 or 2; `"intro"` is the text between the title and the first
 * `##`. Throws when the heading is missing, so a renamed README section fails the build.
 */
export function section(md: string, heading: string): string {
  const lines = fencedLines(md);
  const isHead = (i: number) => !lines[i].code && /^#{1,2} /.test(lines[i].line);
  let start: number;
  if (heading === "intro") {
    start = lines.findIndex((l) => !l.code && /^# /.test(l.line)) + 1;
  } else {
    start = lines.findIndex((l) => !l.code && l.line.trim() === `## ${heading}`);
    if (start < 0) throw new Error(`no section "## ${heading}"`);
  }
  let end = start + 1;
  while (end < lines.length && !isHead(end)) end++;
  return lines.slice(start, end).map((l) => l.line).join("\n").trim();
}

/**
 * Rewrites the target of every inline link and image outside fenced code.
 * `map` returns the new target, or `null` to drop the link and keep its text.
 */
export function rewriteLinks(md: string, map: (target: string) => string | null): string {
  return fencedLines(md).map(({ line, code }) => {
    if (code) return line;
    // Leave inline code spans alone: split on them and rewrite the rest.
    return line.split(/(`+[^`]*`+)/).map((part, i) =>
      i % 2 === 1 ? part : part.replace(
        /(!?)\[([^\]]*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g,
        (all, bang: string, text: string, target: string, title = "") => {
          const next = map(target);
          if (next === null) return bang ? all : text;
          return `${bang}[${text}](${next}${title})`;
        },
      )
    ).join("");
  }).join("\n");
}

/**
 * Joins a paragraph's continuation line that starts with `<` onto the line before.
 * VitePress reads a line starting with a tag-like `<word>` as an HTML block (for Vue
 * components), even inside a paragraph, which breaks a code span such as
 * `` `--allow-read\n<list>` ``. A line break inside a paragraph renders as a space,
 * so joining changes nothing else.
 */
export function joinTagLines(md: string): string {
  const out: string[] = [];
  let prevText = false;
  for (const { line, code } of fencedLines(md)) {
    if (!code && prevText && /^\s*<[A-Za-z]/.test(line)) {
      out[out.length - 1] += " " + line.trim();
      continue;
    }
    out.push(line);
    prevText = !code && line.trim() !== "" && !/^\s*(#|\||<)/.test(line);
  }
  return out.join("\n");
}

/**
 * Keeps Vue from reading `{{ … }}` outside fenced code as an interpolation: VitePress
 * compiles each page as a Vue template, and fenced blocks are already `v-pre` but inline
 * code and plain text are not, so a docs line such as `` `{{name}}` `` would fail the
 * build. Each line holding `{{` outside fences is wrapped in `<span v-pre>`.
 */
export function escapeMustaches(md: string): string {
  return fencedLines(md).map(({ line, code }) => {
    if (code || !line.includes("{{")) return line;
    // Wrap only the spans that hold the braces, keeping list markers and headings intact.
    return line.split(/(`+[^`]*`+)/).map((part) =>
      part.includes("{{")
        ? part.startsWith("`")
          ? `<span v-pre>${part}</span>`
          : part.replace(/\{\{/g, "<span v-pre>{{</span>")
        : part
    ).join("");
  }).join("\n");
}
