/**
 * What an interactive hook's stderr may do on the terminal: colours (SGR) are kept; OSC,
 * every other CSI, C0, C1 and the bidi overrides are shown as pictures — also when a
 * sequence is split between two chunks.
 */
import assert from "node:assert/strict";
import { keepOnlySgr, SgrOnlyFilter } from "../../core/base/mod.ts";

const CASES: [name: string, input: string, shown: string][] = [
  ["plain text and tab/newline", "ask?\tyes\n", "ask?\tyes\n"],
  [
    "SGR colours",
    "\x1b[31mred\x1b[0m \x1b[1;38;5;208mbold\x1b[m",
    "\x1b[31mred\x1b[0m \x1b[1;38;5;208mbold\x1b[m",
  ],
  ["an OSC title (BEL)", "\x1b]0;pwned\x07", "␛]0;pwned␇"],
  ["an OSC 8 hyperlink (ST)", "\x1b]8;;http://x\x1b\\", "␛]8;;http://x␛\\"],
  ["clear-screen and cursor home", "\x1b[2J\x1b[H", "␛[2J␛[H"],
  ["a cursor move", "\x1b[3A", "␛[3A"],
  ["a private mode", "\x1b[?1049h", "␛[?1049h"],
  ["an 8-bit CSI and other C1", "\x9b31m\x85", "�31m�"],
  ["bidi overrides", "a\u202eb\u2066c", "a<U+202E>b<U+2066>c"],
  ["CRLF and a lone CR", "a\r\nb\rc", "a\nb␍c"],
  ["BS and DEL", "a\x08\x7f", "a␈␡"],
];

for (const [name, input, shown] of CASES) {
  Deno.test(`keepOnlySgr: ${name}`, () => {
    assert.equal(keepOnlySgr(input), shown);
  });
}

Deno.test("SgrOnlyFilter: a sequence split between chunks is judged whole", () => {
  const f = new SgrOnlyFilter();
  const out = [
    f.push("x\x1b"),
    f.push("[3"),
    f.push("1mred\x1b[2"),
    f.push("Jgone\r"),
    f.push("\nend\x1b"),
    f.end(),
  ].join("");
  assert.equal(out, "x\x1b[31mred␛[2Jgone\nend␛");
});

Deno.test("SgrOnlyFilter: a partial sequence is held back no longer than 64 characters", () => {
  const f = new SgrOnlyFilter();
  const long = "\x1b[" + "1;".repeat(40);
  assert.equal(f.push(long), "␛[" + "1;".repeat(40));
  assert.equal(f.end(), "");
});
