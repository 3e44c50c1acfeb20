/**
 * The assistant's Markdown as HTML, on the server, by the REPL's rules
 * (cli/view/markdown.ts: the same lexer, marked, and the same highlighter,
 * highlight.js): headings, paragraphs, lists, quotes, tables, rules, code
 * fences highlighted, `**bold**`, `*em*`, `~~del~~`, `` `code` `` and links.
 *
 * Nothing of the text ever becomes markup of its own: every token is rebuilt
 * with the {@link markup} tag (which escapes every value), raw HTML in the
 * text is shown as text (as the terminal shows it), images are a text
 * `[image: alt]`, and a link is an `<a>` only for `http:`, `https:` and
 * `mailto:` addresses — any other (`javascript:`, `data:`, relative) is text
 * followed by its address. Highlighted code is rebuilt from highlight.js's
 * runs of text and class names, never inserted as it came.
 *
 * @module
 */
import type { Token, Tokens } from "marked";
import { fenceLanguage, highlightRuns, markdownLibs } from "../view/mod.ts";
import { type Html, markup } from "./html.ts";

/** Addresses a rendered link may have. */
const SAFE_HREF = /^(https?:\/\/|mailto:)[^\s]*$/i;

/** Whether an address may become a link (absolute web or mail addresses only). */
export function safeHref(href: string): boolean {
  return SAFE_HREF.test(href.trim());
}

function childTokens(t: Token): Token[] | undefined {
  return "tokens" in t && Array.isArray(t.tokens) ? t.tokens as Token[] : undefined;
}

function inline(tokens: readonly Token[]): Html {
  return markup`${tokens.map(inlineToken)}`;
}

function inlineToken(t: Token): Html | string {
  const kids = childTokens(t);
  const inner = kids ? inline(kids) : "text" in t && typeof t.text === "string" ? t.text : t.raw;
  switch (t.type) {
    case "strong":
      return markup`<strong>${inner}</strong>`;
    case "em":
      return markup`<em>${inner}</em>`;
    case "del":
      return markup`<del>${inner}</del>`;
    case "codespan":
      return markup`<code>${(t as Tokens.Codespan).text}</code>`;
    case "br":
      return markup`<br>`;
    case "link": {
      const l = t as Tokens.Link;
      if (!safeHref(l.href)) return markup`${inner} (${l.href})`;
      return markup`<a href="${l.href.trim()}" rel="noopener noreferrer nofollow">${inner}</a>`;
    }
    case "image": {
      const i = t as Tokens.Image;
      return markup`<span class="md-image">[image: ${i.text || i.href}]</span>`;
    }
    case "checkbox":
      return (t as Tokens.Checkbox).checked ? "☑ " : "☐ ";
    case "escape":
      return (t as Tokens.Escape).text;
    case "html":
      return t.raw; // shown as text, as in the terminal
    default:
      return kids ? inner : t.raw;
  }
}

function code(t: Tokens.Code): Html {
  const lang = fenceLanguage(t.lang);
  const html = lang ? markdownLibs()?.highlight?.(t.text, lang) : undefined;
  const body = html === undefined ? t.text : highlightRuns(html).map((r) => {
    const cls = r.classes.at(-1);
    return cls ? markup`<span class="hljs-${cls}">${r.text}</span>` : r.text;
  });
  const label = lang ? markup` data-lang="${lang}"` : "";
  return markup`<pre class="md-code"${label}><code class="hljs">${body}</code></pre>`;
}

function cell(c: Tokens.TableCell, tag: "th" | "td"): Html {
  const align = c.align ? markup` class="md-${c.align}"` : "";
  return tag === "th"
    ? markup`<th scope="col"${align}>${inline(c.tokens)}</th>`
    : markup`<td${align}>${inline(c.tokens)}</td>`;
}

function table(t: Tokens.Table): Html {
  const head = t.header.map((c) => cell(c, "th"));
  const rows = t.rows.map((r) => markup`<tr>${r.map((c) => cell(c, "td"))}</tr>`);
  return markup`<div class="table-wrap"><table class="data md-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function list(t: Tokens.List): Html {
  const items = t.items.map((i) => {
    const task = i.task ? markup` class="md-task"` : "";
    return markup`<li${task}>${blocks(i.tokens)}</li>`;
  });
  const start = t.ordered && t.start !== "" && t.start !== 1 ? markup` start="${t.start}"` : "";
  return t.ordered ? markup`<ol${start}>${items}</ol>` : markup`<ul>${items}</ul>`;
}

function block(t: Token): Html | string {
  switch (t.type) {
    case "space":
    case "def":
      return "";
    case "paragraph":
      return markup`<p>${inline((t as Tokens.Paragraph).tokens)}</p>`;
    case "text": {
      const kids = childTokens(t);
      return kids ? inline(kids) : (t as Tokens.Text).text;
    }
    case "heading": {
      // the page's own headings come first: a message's # is a third-level heading
      const h = t as Tokens.Heading;
      const level = Math.min(6, h.depth + 2);
      return markup`<div class="md-h md-h${h.depth}" role="heading" aria-level="${level}">${
        inline(h.tokens)
      }</div>`;
    }
    case "code":
      return code(t as Tokens.Code);
    case "blockquote":
      return markup`<blockquote>${blocks((t as Tokens.Blockquote).tokens)}</blockquote>`;
    case "list":
      return list(t as Tokens.List);
    case "table":
      return table(t as Tokens.Table);
    case "hr":
      return markup`<hr>`;
    case "checkbox":
      return inlineToken(t);
    case "html":
      return markup`<p class="md-raw">${t.raw.replace(/\n+$/, "")}</p>`;
    default:
      return markup`<p class="md-raw">${t.raw}</p>`;
  }
}

function blocks(tokens: readonly Token[]): Html {
  return markup`${tokens.map(block)}`;
}

/** Renderings kept (message files do not change: a page reload renders nothing again). */
const cache = new Map<string, Html>();
let cached = 0;
/** At most this many characters of text and markup are kept. */
const CACHE_CHARS = 16_000_000;

function remember(text: string, html: Html): Html {
  cache.set(text, html);
  cached += text.length + html.value.length;
  for (const [k, v] of cache) {
    if (cached <= CACHE_CHARS) break;
    cache.delete(k);
    cached -= k.length + v.value.length;
  }
  return html;
}

/**
 * Markdown as safe HTML (a `<div class="md">`); `undefined` while the lexer is
 * not loaded (`loadMarkdown` of cli/view) or when it fails: show the text plain.
 */
export function markdownHtml(text: string): Html | undefined {
  const hit = cache.get(text);
  if (hit) return hit;
  const libs = markdownLibs();
  if (!libs) return undefined;
  try {
    return remember(text, markup`<div class="md">${blocks(libs.lex(text))}</div>`);
  } catch {
    return undefined;
  }
}
