/**
 * The assistant's Markdown on the server (cli/web/markdown.ts): rendered by
 * the REPL's rules, and hostile text — script tags, event-handler attributes,
 * `javascript:` links, HTML inside code fences, in tables, in link text —
 * never becomes markup of its own: every tag of the output is one the renderer
 * makes, every attribute one of its own with a value it chose or escaped.
 */
import assert from "node:assert/strict";
import { loadMarkdown } from "../../../cli/view/mod.ts";
import { markdownHtml, safeHref } from "../../../cli/web/markdown.ts";
import { renderMessage, summaryText } from "../../../cli/web/transcript.ts";
import { summaryBody } from "../../../core/session/mod.ts";

await loadMarkdown({ highlight: true });

/** The tags the renderer makes. */
const TAGS = new Set([
  "div",
  "p",
  "strong",
  "em",
  "del",
  "code",
  "pre",
  "span",
  "br",
  "a",
  "ul",
  "ol",
  "li",
  "blockquote",
  "hr",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
]);
const ATTRS = new Set([
  "class",
  "href",
  "rel",
  "role",
  "aria-level",
  "data-lang",
  "scope",
  "start",
]);

/** Every element of a fragment: its tag and attributes (a browser's reading of the markup). */
function elements(html: string): { tag: string; attrs: [string, string][] }[] {
  const out: { tag: string; attrs: [string, string][] }[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const attrs: [string, string][] = [];
    const rest = m[2].replace(/\s+([^\s=]+)="([^"]*)"/g, (_, k, v) => {
      attrs.push([k.toLowerCase(), v]);
      return "";
    });
    assert.equal(rest.trim(), "", `an attribute outside quotes in ${m[0]}`);
    out.push({ tag: m[1].toLowerCase(), attrs });
  }
  return out;
}

/** No live HTML: only the renderer's tags and attributes, links only to web and mail addresses. */
function assertInert(html: string): void {
  for (const e of elements(html)) {
    assert.ok(TAGS.has(e.tag), `<${e.tag}> in ${html}`);
    for (const [k, v] of e.attrs) {
      assert.ok(ATTRS.has(k), `attribute ${k} in ${html}`);
      if (k === "href") assert.match(v, /^(https?:\/\/|mailto:)/);
    }
  }
}

function render(md: string): string {
  const h = markdownHtml(md);
  assert.ok(h, "the lexer is loaded");
  return h.value;
}

Deno.test("markdown: bold, em, code, lists, headings, quotes, tables, rules render", () => {
  const out = render(
    "# Title\n\nSome **bold**, *em*, ~~gone~~ and `a < b`.\nNext line.\n\n- one\n- [x] done\n\n3. three\n\n> quoted\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n---\n",
  );
  assert.match(out, /<div class="md-h md-h1" role="heading" aria-level="3">Title<\/div>/);
  assert.match(out, /<strong>bold<\/strong>/);
  assert.match(out, /<em>em<\/em>/);
  assert.match(out, /<del>gone<\/del>/);
  assert.match(out, /<code>a &lt; b<\/code>/);
  assert.match(out, /<br>Next line\./); // a newline is a line break, as in the terminal
  assert.match(out, /<ul><li>one<\/li><li class="md-task">☑ done<\/li><\/ul>/);
  assert.match(out, /<ol start="3"><li>three<\/li><\/ol>/);
  assert.match(out, /<blockquote><p>quoted<\/p><\/blockquote>/);
  assert.match(out, /<th scope="col" class="md-left">a<\/th>/);
  assert.match(out, /<td class="md-right">2<\/td>/);
  assert.match(out, /<hr>/);
  assertInert(out);
});

Deno.test("markdown: code fences are highlighted by the REPL's highlighter, HTML inside stays text", () => {
  const out = render(
    '```ts title="x"\nconst s = "<img src=x onerror=alert(1)>"; // </code></pre><script>alert(1)</script>\n```\n\n```\n<script>alert(2)</script>\n```\n\n~~~html\n<a href="javascript:alert(3)" onclick="alert(4)">x</a>\n~~~',
  );
  assert.match(
    out,
    /<pre class="md-code" data-lang="ts"><code class="hljs"><span class="hljs-keyword">const<\/span>/,
  );
  assert.match(
    out,
    /<span class="hljs-string">&quot;&lt;img src=x onerror=alert\(1\)&gt;&quot;<\/span>/,
  );
  assert.match(out, /&lt;\/code&gt;&lt;\/pre&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(
    out,
    /<pre class="md-code"><code class="hljs">&lt;script&gt;alert\(2\)&lt;\/script&gt;/,
  );
  assert.match(out, /data-lang="html"/);
  assert.doesNotMatch(out, /<(script|img|a )/i);
  assertInert(out);
});

Deno.test("markdown: raw HTML, event handlers and javascript: links are text", () => {
  const hostile = [
    "<script>alert(1)</script>",
    "a <img src=x onerror=alert(1)> b",
    '<div onclick="alert(1)">block</div>',
    "[click](javascript:alert(1)) and [data](data:text/html,<script>alert(1)</script>)",
    "[rel](/s/other) [vb](vbscript:msgbox) [upper](JAVASCRIPT:alert(1)) [tab](java\tscript:x)",
    '[ok](https://example.com/"onmouseover="alert(1)) <https://example.com/a?b=<c>>',
    '![pic](https://example.com/x.png" onerror="alert(1)) ![a<b>](javascript:alert(1))',
    "**<b>bold</b>** `<i>` | x |\n|---|\n| <svg onload=alert(1)> |",
    '<a href="javascript:alert(1)">a</a> <iframe src="x"></iframe> <style>*{}</style>',
    "&lt;script&gt; &#60;img&#62; \\<b>",
  ];
  for (const md of hostile) {
    const out = render(md);
    assertInert(out);
    assert.doesNotMatch(out, /<(script|img|iframe|style|svg|b|i)[\s>]/i, md);
    assert.doesNotMatch(out, /href="(?!https?:|mailto:)/i, md);
  }
  const js = render("[click](javascript:alert(1))");
  assert.equal(js, '<div class="md"><p>click (javascript:alert(1))</p></div>');
  assert.match(
    render("<script>alert(1)</script>"),
    /<p class="md-raw">&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/p>/,
  );
  assert.match(render("![pic](https://example.com/x.png)"), /\[image: pic\]/);
  const link = render("[docs](https://example.com/a?b=1&c=2)");
  assert.match(
    link,
    /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer nofollow">docs<\/a>/,
  );
  assert.ok(safeHref("mailto:a@b.c"));
  assert.ok(!safeHref("javascript:alert(1)"));
  assert.ok(!safeHref("//evil.example/x"));
});

Deno.test("messages: the assistant's text is rendered Markdown; a user's stays as typed", () => {
  const a = renderMessage({
    role: "assistant",
    seq: 2,
    blocks: [{ type: "text", text: "It is **done** <script>alert(1)</script>" }],
  }).value;
  assert.match(a, /<strong>done<\/strong> &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  const u = renderMessage({ role: "user", seq: 1, text: "Make it **bold**" }).value;
  assert.match(u, /<div class="text">Make it \*\*bold\*\*<\/div>/);
});

Deno.test("messages: a compaction summary is a summary card with its Markdown, not a user message", () => {
  const text = summaryBody(
    "The user asked for **notes**.\n\n- counted words <img src=x onerror=alert(1)>",
  );
  assert.equal(
    summaryText(text),
    "The user asked for **notes**.\n\n- counted words <img src=x onerror=alert(1)>",
  );
  const out = renderMessage({ role: "user", seq: 6, text, summary: true, summarizes: [1, 4] })
    .value;
  assert.match(out, /<article class="msg msg-summary" id="m-0006"/);
  assert.match(out, /<span class="role">Summary<\/span>/);
  assert.match(out, /messages #1–#4 summarized/);
  assert.match(out, /<strong>notes<\/strong>/);
  assert.doesNotMatch(out, /&lt;summary&gt;|<summary>|>You</);
  assert.doesNotMatch(out, /<img/);
  // an original the summary replaced says so
  const original = renderMessage({ role: "user", seq: 1, text: "hi" }, { compactedInto: 6 }).value;
  assert.match(original, /<span class="meta">compacted into #6<\/span>/);
});
