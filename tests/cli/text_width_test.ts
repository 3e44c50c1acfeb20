/**
 * cli/view/text_width.ts measures without string-width until it is loaded (a run that lays
 * nothing out for a terminal never loads it): its rule of thumb must agree with the library on
 * the text a transcript shows.
 */
import assert from "node:assert/strict";
import stringWidth from "string-width";
import { cutToWidth, displayWidth, loadTextWidth } from "../../cli/view/text_width.ts";

const SAMPLES = [
  "read_file",
  "path: notes.txt",
  "naïve café",
  "日本語のテキスト",
  "한국어",
  "emoji 🎉 and ✅",
  "e\u0301 combining",
  "tab\there",
  "\x1b[1mbold\x1b[0m",
];

Deno.test("widths before string-width loads equal the library's", async () => {
  const before = SAMPLES.map((s) => [displayWidth(s), cutToWidth(s, 6)]);
  await loadTextWidth();
  const after = SAMPLES.map((s) => [displayWidth(s), cutToWidth(s, 6)]);
  assert.deepEqual(before, after);
  for (const s of SAMPLES) {
    // deno-lint-ignore no-control-regex -- the escape sequences are what is removed
    assert.equal(displayWidth(s), stringWidth(s.replace(/\x1b\[[0-9;]*m/g, "")), s);
  }
});
