import assert from "node:assert/strict";
import {
  countNewlines,
  formatHashLines,
  HASH_ALPHABET,
  hashLine,
  parseAnchor,
  splitLineBytes,
  stripAnchorPrefix,
} from "../../../plugins/core_tools/mod.ts";

/**
 * Generated once from the reference (`awk -f plugins/core/lib/hashline.awk`, mawk) over a
 * file holding these lines in this order, so each hash is for line `index + 1`.
 */
const AWK_VECTORS: [string, string][] = [
  ["alpha", "MX"],
  ["beta", "TP"],
  ["gamma", "YN"],
  ["hello", "KK"],
  ["world", "WB"],
  ["hello", "KK"],
  ["", "BJ"],
  ["}", "TT"],
  ["}", "RX"],
  ["  ", "YH"],
  ["\t", "TZ"],
  ["foo  ", "NK"],
  ["foo\t", "NK"],
  ["foo\r", "NK"],
  ["\r", "WV"],
  ["naïve café", "RK"],
  ["日本語", "WW"],
  ["—", "RS"],
  ["😀", "TN"],
  ["a\rb", "MN"],
  ["   x", "RB"],
  ["{}", "BQ"],
  ["();", "SN"],
  ["#!/bin/bash", "RY"],
  ["  return x;", "RN"],
  ["});", "MZ"],
  ["---", "HS"],
  ["\t\t}", "QZ"],
  ["const x = 1;", "VB"],
  ["// comment", "KW"],
  ["*", "QY"],
  ["    ", "MR"],
  ["ß", "PW"],
  ["\u0001", "MN"],
  ["~~~", "BM"],
  ["price is $100 and $VAR", "WK"],
  ["path\\to\\file\\n", "KS"],
  ['she said "hello"', "PY"],
  ["x \r \t", "PB"],
  ["É", "YB"],
];

/** Empty lines at large line numbers (awk's double arithmetic), from the reference. */
const AWK_EMPTY_LINE_VECTORS: [number, string][] = [
  [1, "XW"],
  [2, "WS"],
  [3, "PN"],
  [100, "MK"],
  [2001, "NW"],
  [3393000, "WB"],
  [5000000, "VV"],
  [4294967295, "ZZ"],
];

Deno.test("hashline: hand-computed vectors", () => {
  // "a": h = 5381*33 + 97 = 177670; 177670 mod 256 = 6 -> nibbles 0,6 -> "ZW" (any line).
  assert.equal(hashLine("a", 1), "ZW");
  assert.equal(hashLine("a", 99), "ZW");
  // "}" on line 1: 5381*33 + 125 = 177698 (34 mod 256); + 2654435761 (177 mod 256)
  // -> 211 = 0xD3 -> "B" (13), "Q" (3).
  assert.equal(hashLine("}", 1), "BQ");
  // "" on line 1: 5381 (5 mod 256) + 2654435761 (177) = 182 = 0xB6 -> "X" (11), "W" (6).
  assert.equal(hashLine("", 1), "XW");
  // trailing blanks and \r are ignored; leading blanks are not.
  assert.equal(hashLine("a \t\r", 1), "ZW");
  assert.notEqual(hashLine(" a", 1), "ZW");
});

Deno.test("hashline: matches the reference awk vectors", () => {
  for (const [i, [line, hash]] of AWK_VECTORS.entries()) {
    assert.equal(hashLine(line, i + 1), hash, `line ${i + 1}: ${JSON.stringify(line)}`);
  }
  for (const [n, hash] of AWK_EMPTY_LINE_VECTORS) assert.equal(hashLine("", n), hash, `line ${n}`);
});

Deno.test("hashline: bytes and strings hash alike; non-ASCII bytes count as zero", () => {
  const enc = new TextEncoder();
  for (const [i, [line]] of AWK_VECTORS.entries()) {
    assert.equal(hashLine(enc.encode(line), i + 1), hashLine(line, i + 1));
  }
  // é (C3 A9) and any other 2-byte sequence hash the same: both bytes contribute 0.
  assert.equal(hashLine("é", 5), hashLine(new Uint8Array([0xff, 0x80]), 5));
});

Deno.test("hashline: anchors use the alphabet; structural lines differ by position", () => {
  assert.equal(HASH_ALPHABET, "ZPMQVRWSNKTXJBYH");
  assert.notEqual(hashLine("}", 1), hashLine("}", 2));
  assert.equal(hashLine("hello", 1), hashLine("hello", 3));
});

Deno.test("hashline: formatting, splitting, newline count", () => {
  const bytes = new TextEncoder().encode("alpha\nbeta\n\nx");
  const lines = splitLineBytes(bytes);
  assert.equal(lines.length, 4);
  assert.equal(countNewlines(bytes), 3);
  assert.equal(formatHashLines(lines.slice(0, 2)), "1#MX:alpha\n2#TP:beta");
  assert.equal(formatHashLines(["beta"], 2), "2#TP:beta");
  assert.deepEqual(splitLineBytes(new Uint8Array(0)), []);
  assert.equal(splitLineBytes(new TextEncoder().encode("\n")).length, 1);
});

Deno.test("hashline: parseAnchor and prefix stripping", () => {
  assert.deepEqual(parseAnchor("5#ZM"), { line: 5, hash: "ZM" });
  assert.deepEqual(parseAnchor("12#MX:alpha"), { line: 12, hash: "MX" });
  for (const bad of ["2#ab", "2ZZ", "2#Z", "#ZZ", "x#ZZ", "2#ZA", ""]) {
    assert.equal(parseAnchor(bad), undefined, bad);
  }
  assert.equal(stripAnchorPrefix("3#AB:text"), "text");
  assert.equal(stripAnchorPrefix("text 3#AB:"), "text 3#AB:");
});

const REFERENCE_AWK = "/tmp/ref/plugins/core/lib/hashline.awk";
const haveReference = (() => {
  try {
    return Deno.statSync(REFERENCE_AWK).isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "hashline: live comparison with the reference awk (only where it is checked out)",
  ignore: !haveReference,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const pieces = [
        "a",
        "Z",
        "9",
        " ",
        "\t",
        "\r",
        "}",
        "{",
        ";",
        "—",
        "é",
        "😀",
        "#",
        ":",
        "\\",
      ];
      let seed = 7;
      const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
      const lines = AWK_VECTORS.map(([l]) => l);
      for (let i = 0; i < 3000; i++) {
        let s = "";
        for (let j = rnd(10); j > 0; j--) s += pieces[rnd(pieces.length)];
        lines.push(s);
      }
      const file = `${dir}/corpus.txt`;
      await Deno.writeTextFile(file, lines.join("\n") + "\n");
      const { stdout } = await new Deno.Command("bash", {
        args: ["-c", 'awk -f "$0" < "$1"', REFERENCE_AWK, file],
        stdout: "piped",
      }).output();
      const awk = new TextDecoder().decode(stdout).split("\n").slice(0, lines.length);
      const ours = formatHashLines(lines).split("\n");
      assert.equal(ours.length, awk.length);
      for (let i = 0; i < awk.length; i++) assert.equal(ours[i], awk[i], `line ${i + 1}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
