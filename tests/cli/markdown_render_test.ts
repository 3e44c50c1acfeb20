/** The terminal renderer of answers and tool lines (cli/view): tables, fences, widths. */
import assert from "node:assert/strict";
import stringWidth from "string-width";
import { loadMarkdown, MarkdownStream, styles, TranscriptRenderer } from "../../cli/view/mod.ts";
import { cutToWidth, displayWidth } from "../../cli/view/text_width.ts";
// deno-lint-ignore no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

function render(md: string, pieces = 1): string {
  let out = "";
  const m = new MarkdownStream((s) => (out += s), { width: () => 60 });
  const step = Math.ceil(md.length / pieces);
  for (let i = 0; i < md.length; i += step) m.push(md.slice(i, i + step));
  m.flush();
  return plain(out);
}

Deno.test("markdown: a table's columns are aligned by display width, streamed in pieces", async () => {
  await loadMarkdown();
  const md = "Here:\n\n| name | 値段 | n |\n|:---|:---:|--:|\n| **apple** | 安い | 1 |\n" +
    "| kiwi fruit | x | 1234 |\n\nafter the table\n";
  for (const pieces of [1, 7, md.length]) {
    const text = render(md, pieces);
    const lines = text.split("\n");
    const table = lines.filter((l) => /^[│┌├└]/.test(l));
    assert.equal(table.length, 6, text);
    const widths = new Set(table.map((l) => stringWidth(l)));
    assert.equal(widths.size, 1, `every row as wide:\n${text}`);
    // the bars of every row stand in the same columns
    const bars = (l: string) => {
      const cols: number[] = [];
      let w = 0;
      for (const ch of l) {
        if ("│┼┬┴├┤┌┐└┘".includes(ch)) cols.push(w);
        w += stringWidth(ch);
      }
      return cols.join(",");
    };
    assert.equal(new Set(table.map(bars)).size, 1, text);
    assert.ok(table.some((l) => l.includes("apple") && !l.includes("**")), text);
    assert.match(text, /│ +1234 │/, "right-aligned column");
    assert.ok(text.indexOf("after the table") > text.indexOf("└"), text);
    assert.doesNotMatch(text, /:---/);
  }
});

Deno.test("markdown: a code fence is framed, its language shown, its lines apart from text", async () => {
  await loadMarkdown();
  const text = render("Run this:\n```ts\nconst a = 1;\n```\nDone.\n", 5);
  assert.match(text, /╭─ ts\n│ const a = 1;\n╰─\nDone\./, text);
  assert.doesNotMatch(text, /```/);
  const untitled = render("```\nplain\n```\n");
  assert.match(untitled, /╭─ code\n│ plain\n╰─/);
});

Deno.test("tool lines are cut to the terminal width with …", () => {
  let out = "";
  const r = new TranscriptRenderer((s) => (out += s), styles(false), { width: () => 40 });
  r.on({
    type: "tool_start",
    id: "1",
    name: "bash",
    input: { command: "echo " + "x".repeat(200) },
  });
  r.on({ type: "tool_done", id: "1", name: "bash", error: false, result: "y".repeat(300), ms: 3 });
  const lines = out.trimEnd().split("\n");
  assert.equal(lines.length, 2, out);
  for (const l of lines) assert.ok(displayWidth(l) <= 40, `${displayWidth(l)}: ${l}`);
  assert.match(lines[0], /^● bash echo x+…$/);
  assert.match(lines[1], /y…/);
  assert.match(lines[1], /\(3 ms\)$/);
});

Deno.test("cutToWidth counts wide characters as two columns", () => {
  assert.equal(cutToWidth("日本語のテキスト", 7), "日本語…");
  assert.equal(displayWidth(cutToWidth("日本語のテキスト", 7)), 7);
  assert.equal(cutToWidth("short", 10), "short");
});
