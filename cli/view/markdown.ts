/**
 * Markdown of streamed answers, rendered for a terminal as it arrives: text is
 * written as soon as it cannot change meaning — a line is held only until its
 * block kind is known (heading, list item, quote, fence, table, rule) and an
 * inline span only until it closes (`**bold**`, `` `code` ``, links) — so
 * nothing already written is ever rewritten. Code blocks are highlighted line
 * by line (highlight.js) in a frame that names their language. A table is held
 * until its last row, then written with its columns aligned by display width. Control characters in the text are shown, never
 * performed.
 *
 * The parsers load lazily: {@link loadMarkdown} before the first answer.
 *
 * @module
 */
import type { Token } from "marked";
import { sanitizeForTerminal } from "./render.ts";
import { layoutTable } from "./md_table.ts";
import { loadTextWidth } from "./text_width.ts";

/** The libraries the renderers use (loaded on first use; absent: plain text). */
export interface MarkdownLibs {
  /** Block and inline tokens of a whole text (GFM; a newline is a line break, as in the terminal). */
  lex(src: string): Token[];
  /** Inline tokens of a span. */
  lexInline(src: string): Token[];
  /** highlight.js HTML of code in a known language (undefined: unknown language, or not loaded). */
  highlight?(code: string, lang: string): string | undefined;
}

let libs: MarkdownLibs | undefined;
let highlighter: Promise<void> | undefined;

/**
 * Loads the Markdown lexer (marked) and, in the background, the highlighter
 * (highlight.js's common languages). Resolves once the lexer is ready — or, with
 * `highlight: true`, once the highlighter is too (a server renders whole messages).
 */
export async function loadMarkdown(opts: { highlight?: boolean } = {}): Promise<void> {
  if (!libs) {
    const [{ Lexer }] = await Promise.all([import("marked"), loadTextWidth()]);
    libs ??= {
      lex: (src) => new Lexer({ gfm: true, breaks: true }).lex(src),
      lexInline: (src) => Lexer.lexInline(src),
    };
  }
  const l = libs;
  highlighter ??= import("highlight.js/lib/common").then(({ default: hljs }) => {
    l.highlight = (code, lang) => {
      const language = lang && hljs.getLanguage(lang) ? lang : undefined;
      if (!language) return undefined;
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    };
  }).catch(() => {/* code stays plain */});
  if (opts.highlight) await highlighter;
}

/** True once {@link loadMarkdown} resolved. */
export function markdownReady(): boolean {
  return libs !== undefined;
}

/** The loaded libraries (undefined before {@link loadMarkdown}: render plain text). */
export function markdownLibs(): MarkdownLibs | undefined {
  return libs;
}

/** The language of a fence's info string (`ts {title}` → `ts`), as both renderers read it. */
export function fenceLanguage(info: string | undefined): string {
  return /^[\w+#.-]*/.exec((info ?? "").trim())![0].toLowerCase();
}

/** A run of highlighted code: its text (entities decoded) and the classes around it, outermost first. */
export interface HighlightRun {
  text: string;
  classes: string[];
}

/** highlight.js HTML as runs of text with their `hljs-` classes (the only markup it makes). */
export function highlightRuns(html: string): HighlightRun[] {
  const decode = (s: string) =>
    s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(
      /&#x27;/g,
      "'",
    ).replace(/&amp;/g, "&");
  const stack: string[] = [];
  const out: HighlightRun[] = [];
  const re = /<span class="hljs-([^"]+)">|<\/span>|([^<]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html)) !== null) {
    if (m[1] !== undefined) stack.push(m[1].split(" ")[0]);
    else if (m[0] === "</span>") stack.pop();
    else out.push({ text: decode(m[2]), classes: [...stack] });
  }
  return out;
}

const ESC = "\x1b[";
const sgr = (open: string, close: string) => (s: string) => `${ESC}${open}m${s}${ESC}${close}m`;
const bold = sgr("1", "22");
const dim = sgr("2", "22");
const italic = sgr("3", "23");
const underline = sgr("4", "24");
const strike = sgr("9", "29");
const cyan = sgr("36", "39");
const yellow = sgr("33", "39");
const blue = sgr("34", "39");

/** Control characters as visible pictures ({@link sanitizeForTerminal}): shown, never performed. */
export function visibleControls(s: string): string {
  return sanitizeForTerminal(s);
}

/** ANSI of inline tokens. */
function inlineAnsi(tokens: Token[]): string {
  let out = "";
  for (const t of tokens) {
    const inner = "tokens" in t && Array.isArray(t.tokens)
      ? inlineAnsi(t.tokens)
      : "text" in t && typeof t.text === "string"
      ? t.text
      : "";
    switch (t.type) {
      case "strong":
        out += bold(inner);
        break;
      case "em":
        out += italic(inner);
        break;
      case "del":
        out += strike(inner);
        break;
      case "codespan":
        out += yellow(t.text);
        break;
      case "link":
        out += inner === t.href
          ? underline(blue(inner))
          : `${underline(blue(inner))}${dim(` (${t.href})`)}`;
        break;
      case "image":
        out += dim(`[image: ${t.text || t.href}]`);
        break;
      case "br":
        out += "\n";
        break;
      case "escape":
      case "text":
      case "html":
      default:
        out += "tokens" in t && Array.isArray(t.tokens) ? inner : t.raw;
    }
  }
  return out;
}

/** Inline Markdown of a complete span as ANSI (plain when the lexer is not loaded). */
export function renderInline(text: string): string {
  if (!libs || text === "") return text;
  try {
    return inlineAnsi(libs.lexInline(text));
  } catch {
    return text;
  }
}

/** highlight.js HTML → ANSI (classes to colors; entities decoded). */
export function htmlToAnsi(html: string): string {
  const color: Record<string, (s: string) => string> = {
    keyword: blue,
    built_in: cyan,
    type: cyan,
    literal: cyan,
    number: yellow,
    string: sgr("32", "39"),
    regexp: sgr("32", "39"),
    comment: dim,
    meta: dim,
    title: bold,
    "title.function": bold,
    "title.class": bold,
    attr: cyan,
    variable: (s) => s,
    params: (s) => s,
    symbol: yellow,
    tag: blue,
    name: blue,
    "selector-tag": blue,
    addition: sgr("32", "39"),
    deletion: sgr("31", "39"),
  };
  let out = "";
  for (const run of highlightRuns(html)) {
    const cls = [...run.classes].reverse().find((c) => color[c]);
    out += cls ? color[cls](run.text) : run.text;
  }
  return out;
}

/** The kind of a line, once known. */
type LineKind =
  | { kind: "para" }
  | { kind: "heading"; level: number }
  | { kind: "item"; marker: string }
  | { kind: "quote" }
  | { kind: "hold" }; // fence, table, rule candidates: written whole at the newline

/** Openers of inline spans that change the meaning of what follows. */
function unclosedFrom(s: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "`") {
      let n = 1;
      while (s[i + n] === "`") n++;
      const fence = "`".repeat(n);
      const close = s.indexOf(fence, i + n);
      if (close < 0) return i;
      i = close + n;
      continue;
    }
    if (c === "*" || c === "_" || c === "~") {
      const double = s[i + 1] === c;
      if (c === "~" && !double) {
        i++;
        continue;
      }
      const mark = double ? c + c : c;
      const before = i === 0 ? " " : s[i - 1];
      const after = s[i + mark.length] ?? "";
      // an opener is followed by a non-space and not preceded by a word character
      if (after === "" || (after !== " " && !/[\p{L}\p{N}]/u.test(before))) {
        const close = s.indexOf(mark, i + mark.length + 1);
        if (close < 0) return i;
        i = close + mark.length;
        continue;
      }
      i += mark.length;
      continue;
    }
    if (c === "[") {
      const m = /^\[[^\]]*\]\([^)]*\)/.exec(s.slice(i));
      if (m) {
        i += m[0].length;
        continue;
      }
      if (!/^\[[^\]]*\][^(]/.test(s.slice(i))) return i;
    }
    i++;
  }
  return s.length;
}

/** A streaming Markdown renderer writing ANSI to `write`. */
export class MarkdownStream {
  #write: (s: string) => void;
  #width: () => number;
  /** The current line's text not written yet. */
  #pending = "";
  /** What of the current line has been written (its decoration included). */
  #started = false;
  #kind?: LineKind;
  #fence?: { marker: string; lang: string };
  #quote = "";
  /** The rows of a table being received (written, aligned, when it ends). */
  #table?: string[];

  constructor(write: (s: string) => void, opts: { width?: () => number } = {}) {
    this.#write = write;
    this.#width = opts.width ?? (() => 80);
  }

  /** Adds a streamed piece of text. */
  push(text: string): void {
    let rest = visibleControls(text.replace(/\r\n?/g, "\n"));
    while (rest !== "") {
      const nl = rest.indexOf("\n");
      if (nl < 0) {
        this.#pending += rest;
        this.#progress(false);
        return;
      }
      this.#pending += rest.slice(0, nl);
      this.#progress(true);
      rest = rest.slice(nl + 1);
    }
  }

  /** Ends the current text block: whatever is held is written. */
  flush(): void {
    if (this.#pending !== "" || this.#started) this.#progress(true, false);
    this.#writeTable();
  }

  /** Writes a held table, its columns aligned. */
  #writeTable(): void {
    const rows = this.#table;
    if (!rows) return;
    this.#table = undefined;
    const lines = layoutTable(rows, { inline: renderInline, dim, bold });
    this.#write(lines.join("\n") + "\n");
  }

  /** Classifies the current line once enough of it is known. */
  #classify(line: string, complete: boolean): LineKind | undefined {
    const r = line.replace(/^\s+/, "");
    if (r === "" && !complete) return undefined;
    // a fence may still be starting: one or two backticks or tildes so far
    if (/^(`{1,2}|~{1,2})$/.test(r) && !complete) return undefined;
    if (/^(`{3,}|~{3,})/.test(r) || r.startsWith("|")) return { kind: "hold" };
    const h = /^(#{1,6})( |$)/.exec(r);
    if (h && (h[2] === " " || complete)) return { kind: "heading", level: h[1].length };
    if (/^#{1,6}$/.test(r) && !complete) return undefined;
    if (/^([-*_])(\s*\1)*\s*$/.test(r)) return complete ? { kind: "hold" } : undefined;
    const item = /^([-*+]|\d{1,9}[.)]) /.exec(r);
    if (item) return { kind: "item", marker: item[1] };
    if (/^(\d{1,9}[.)]?)$/.test(r) && !complete) return undefined;
    if (r.startsWith(">")) return { kind: "quote" };
    return { kind: "para" };
  }

  #progress(lineDone: boolean, newline = true): void {
    if (this.#fence || this.#kind?.kind === "hold") {
      if (lineDone) this.#endHeld(newline);
      return;
    }
    if (!this.#kind) {
      this.#kind = this.#classify(this.#pending, lineDone);
      if (this.#table && this.#kind && !this.#pending.trimStart().startsWith("|")) {
        this.#writeTable(); // the table ended: the line after it is something else
      }
      if (!this.#kind) {
        if (lineDone) this.#finishLine(newline);
        return;
      }
      if (this.#kind.kind === "hold") {
        if (lineDone) this.#endHeld(newline);
        return;
      }
      this.#openLine();
    }
    const cut = lineDone ? this.#pending.length : unclosedFrom(this.#pending);
    if (cut > 0) {
      this.#emit(this.#pending.slice(0, cut));
      this.#pending = this.#pending.slice(cut);
    }
    if (lineDone) this.#finishLine(newline);
  }

  /** Writes the decoration of a line whose kind is known, consuming its marker. */
  #openLine(): void {
    const k = this.#kind!;
    const indent = /^\s*/.exec(this.#pending)![0];
    let body = this.#pending.slice(indent.length);
    let head = indent;
    if (k.kind === "heading") body = body.replace(/^#{1,6} ?/, "");
    else if (k.kind === "item") {
      body = body.slice(k.marker.length + 1);
      head += /\d/.test(k.marker) ? `${cyan(k.marker)} ` : `${cyan("•")} `;
    } else if (k.kind === "quote") {
      body = body.replace(/^> ?/, "");
      head += dim("│ ");
    }
    this.#write(head);
    this.#started = true;
    this.#pending = body;
  }

  #emit(text: string): void {
    const k = this.#kind;
    let out = renderInline(text);
    if (k?.kind === "heading") out = k.level === 1 ? bold(underline(out)) : bold(out);
    else if (k?.kind === "quote") out = italic(out);
    this.#write(out);
    this.#started = true;
  }

  #finishLine(newline: boolean): void {
    if (this.#pending !== "") this.#emit(this.#pending);
    if (newline) this.#write("\n");
    this.#pending = "";
    this.#started = false;
    this.#kind = undefined;
  }

  /** A held line is complete: a fence line, a code line, a table row or a rule. */
  #endHeld(newline: boolean): void {
    const line = this.#pending;
    this.#pending = "";
    this.#kind = undefined;
    this.#started = false;
    const end = newline ? "\n" : "";
    const r = line.trim();
    if (this.#fence) {
      if (r.startsWith(this.#fence.marker) && /^(`+|~+)$/.test(r)) {
        this.#fence = undefined;
        this.#write(dim("╰─") + end);
        return;
      }
      const html = libs?.highlight?.(line, this.#fence.lang);
      this.#write(dim("│ ") + (html !== undefined ? htmlToAnsi(html) : line) + end);
      return;
    }
    const fence = /^(`{3,}|~{3,})(.*)$/.exec(r);
    if (fence) {
      this.#fence = { marker: fence[1], lang: fenceLanguage(fence[2]) };
      this.#write(dim(`╭─ ${this.#fence.lang || "code"}`) + end);
      return;
    }
    if (/^([-*_])(\s*\1){2,}\s*$/.test(r)) {
      this.#write(dim("─".repeat(Math.min(40, Math.max(3, this.#width() - 1)))) + end);
      return;
    }
    if (r.startsWith("|")) {
      (this.#table ??= []).push(line);
      return;
    }
    this.#write(renderInline(line) + end);
  }
}
