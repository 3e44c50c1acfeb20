/**
 * The REPL's input pieces without a terminal: raw bytes decoded into keys
 * (Shift-Enter forms, split escape sequences, bracketed paste), the line
 * editor (continuation, history, Ctrl-R search, Tab completion), the
 * streaming Markdown renderer, and the long-session report helpers.
 */
import assert from "node:assert/strict";
import { KeyDecoder } from "../../cli/repl/keys.ts";
import { LineEditor } from "../../cli/repl/line_editor.ts";
import { loadMarkdown, MarkdownStream } from "../../cli/view/markdown.ts";
import { costOf, sessionUsage, statusText } from "../../cli/repl/repl_commands.ts";
import type { ContextReport } from "../../core/mod.ts";

function type(editor: LineEditor, raw: string) {
  const d = new KeyDecoder();
  const actions = d.feed(raw).map((k) => editor.handle(k));
  return actions.filter((a) => a !== undefined);
}

Deno.test("keys: Shift-Enter in CSI-u and modifyOtherKeys forms, Alt-Enter and Ctrl-J are new lines", () => {
  const d = new KeyDecoder();
  for (const seq of ["\x1b[13;2u", "\x1b[27;2;13~", "\x1b\r", "\n"]) {
    assert.deepEqual(d.feed(seq), [{ type: "newline" }], JSON.stringify(seq));
  }
  assert.deepEqual(d.feed("\r"), [{ type: "enter" }]);
  assert.deepEqual(d.feed("\x12"), [{ type: "ctrl", key: "r" }]);
});

Deno.test("keys: an escape sequence split across reads is completed; a lone Esc waits for flush", () => {
  const d = new KeyDecoder();
  assert.deepEqual(d.feed("ab\x1b["), [{ type: "text", text: "ab" }]);
  assert.deepEqual(d.feed("D"), [{ type: "left" }]);
  assert.deepEqual(d.feed("\x1b"), []);
  assert.ok(d.waiting);
  assert.deepEqual(d.flush(), [{ type: "escape" }]);
});

Deno.test("keys: a bracketed paste is one key with its newlines, even split mid-marker", () => {
  const d = new KeyDecoder();
  assert.deepEqual(d.feed("\x1b[200~one\r\ntwo\x1b[20"), []);
  assert.deepEqual(d.feed("1~x"), [{ type: "paste", text: "one\ntwo" }, {
    type: "text",
    text: "x",
  }]);
});

Deno.test("line editor: a `\\` before Enter continues on a new line; Enter submits", () => {
  const e = new LineEditor();
  assert.deepEqual(type(e, "one\\\r"), []);
  assert.deepEqual(type(e, "two\r"), ["submit"]);
  assert.equal(e.buffer, "one\ntwo");
});

Deno.test("line editor: ↑ walks the history, and the draft comes back", () => {
  const e = new LineEditor(["old one", "old two"]);
  type(e, "draft");
  type(e, "\x1b[A");
  assert.equal(e.buffer, "old two");
  type(e, "\x1b[A");
  assert.equal(e.buffer, "old one");
  type(e, "\x1b[B\x1b[B");
  assert.equal(e.buffer, "draft");
});

Deno.test("line editor: Ctrl-R finds the newest match, again for an older one, Enter submits it", () => {
  const e = new LineEditor(["deploy staging", "list files", "deploy prod"]);
  type(e, "\x12dep");
  assert.ok(e.searching);
  assert.match(e.searchLine()!, /reverse-i-search\)'dep'/);
  type(e, "\x12");
  assert.deepEqual(type(e, "\r"), ["submit"]);
  assert.equal(e.buffer, "deploy staging");
  // no match: the search says it is failing; Ctrl-G restores what was typed
  const f = new LineEditor(["abc"]);
  type(f, "typed\x12zzz");
  assert.match(f.searchLine()!, /failing/);
  type(f, "\x07");
  assert.equal(f.buffer, "typed");
  assert.ok(!f.searching);
});

Deno.test("line editor: Tab completes a slash command; Ctrl-C and Ctrl-D on an empty line", () => {
  const e = new LineEditor([], ["/compact", "/context", "/cost"]);
  type(e, "/comp\t");
  assert.equal(e.buffer, "/compact ");
  assert.deepEqual(type(new LineEditor(), "\x03"), ["interrupt"]);
  assert.deepEqual(type(new LineEditor(), "\x04"), ["eof"]);
});

Deno.test("markdown: bold, inline code and a highlighted fence; split chunks render the same", async () => {
  await loadMarkdown();
  // the highlighter loads in the background: awaiting the same module settles it first
  const { default: hljs } = await import("highlight.js/lib/common");
  assert.ok(hljs.getLanguage("ts"));
  const text = "Some **bold** and `code`.\n\n```ts\nconst x = 1;\n```\n- item\n";
  const render = (chunks: string[]) => {
    let out = "";
    const md = new MarkdownStream((s) => (out += s));
    for (const c of chunks) md.push(c);
    md.flush();
    return out;
  };
  const whole = render([text]);
  assert.ok(whole.includes("\x1b[1mbold\x1b[22m"), JSON.stringify(whole));
  assert.ok(!whole.includes("**"), JSON.stringify(whole));
  assert.ok(whole.includes("•"), JSON.stringify(whole));
  const split = render(text.split(""));
  assert.equal(split, whole);
});

Deno.test("markdown: control characters in an answer are shown, never performed", async () => {
  await loadMarkdown();
  let out = "";
  const md = new MarkdownStream((s) => (out += s));
  md.push("evil \x1b]0;title\x07 text\n");
  md.flush();
  assert.ok(!out.includes("\x1b]"), JSON.stringify(out));
  assert.ok(out.includes("\u241b"), JSON.stringify(out)); // ESC shown as ␛, one rule with sanitizeForTerminal
});

Deno.test("status text, usage per model and money from prices", () => {
  const r = {
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    limits: { context: 200_000, maxOutput: 64_000, source: "known model" },
    budget: {
      tokens: 41_200,
      basis: "reported",
      ratio: 1,
      sections: { system: 0, tools: 0, summary: 0, messages: 0 },
      messages: 3,
    },
    sections: [],
    compacted: 12,
  } as ContextReport;
  assert.equal(
    statusText(r),
    "anthropic · claude-sonnet-4-5 · 41k / 200k tokens (21%) · 12 compacted",
  );
  const rows = [
    ...sessionUsage([
      { usage: { input_tokens: 100, output_tokens: 10 }, provider: "a", model: "m" },
      {
        usage: { input_tokens: 5, output_tokens: 20, cache_read_input_tokens: 1000 },
        provider: "a",
        model: "m",
      },
      {},
    ]).values(),
  ];
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0].usage, {
    input_tokens: 105,
    output_tokens: 30,
    cache_read_input_tokens: 1000,
    cache_creation_input_tokens: 0,
  });
  // $3 in, $15 out, $0.30 cache read per million
  const c = costOf(rows[0].usage, { input: 3, output: 15, cacheRead: 0.3 });
  assert.equal(c.toFixed(6), ((105 * 3 + 30 * 15 + 1000 * 0.3) / 1e6).toFixed(6));
});
