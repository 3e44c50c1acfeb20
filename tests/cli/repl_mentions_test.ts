/** The `@path` mention rule of the REPL (cli/repl/mentions.ts). */
import assert from "node:assert/strict";
import { parseMentions, withAttachments } from "../../cli/repl/mentions.ts";

const paths = (s: string) => parseMentions(s).mentions.map((m) => m.path);

Deno.test("mentions: at the start, after whitespace or an opening bracket or quote", () => {
  assert.deepEqual(paths("@a.txt"), ["a.txt"]);
  assert.deepEqual(paths("read @src/x.ts and @docs/cli.md"), ["src/x.ts", "docs/cli.md"]);
  assert.deepEqual(paths("see (@a.md) and '@b.md' and [@c]"), ["a.md", "b.md", "c"]);
  assert.deepEqual(paths("line one\n@next/line.ts"), ["next/line.ts"]);
  assert.deepEqual(paths("@../up.txt"), ["../up.txt"]);
});

Deno.test("mentions: trailing punctuation is not part of the path", () => {
  assert.deepEqual(paths("look at @notes.txt."), ["notes.txt"]);
  assert.deepEqual(paths("@a.ts, @b.ts; @c.ts!"), ["a.ts", "b.ts", "c.ts"]);
});

Deno.test("mentions: an e-mail address, a lone @ and \\@ are not mentions", () => {
  assert.deepEqual(paths("mail me@example.com or a@b"), []);
  assert.deepEqual(paths("at @ noon, @."), []);
  const p = parseMentions("keep \\@literal but @real.txt");
  assert.deepEqual(p.mentions.map((m) => m.path), ["real.txt"]);
  assert.equal(p.text, "keep @literal but @real.txt");
});

Deno.test("mentions: the message the model gets holds each file in a block", () => {
  const m = withAttachments("read @a", [{ path: "a", content: "x\ny" }, {
    path: 'q"b',
    content: "z\n",
  }]);
  assert.equal(
    m,
    'read @a\n\n<file path="a">\nx\ny\n</file>\n\n<file path="q&quot;b">\nz\n</file>',
  );
});
