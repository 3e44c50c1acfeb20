// R7RS section 2 / 7.1: lexical syntax and datum syntax, plus :keyword tokens and locations.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Keyword, locations, type Pair, readAll, ReadError, Sym, write } from "../../scheme/mod.ts";

function rd(src: string): string {
  return readAll(src).map((d) => write(d)).join(" | ");
}

Deno.test("reader: lists, dotted pairs, vectors, bytevectors", () => {
  assertEquals(rd("(1 2 3)"), "(1 2 3)");
  assertEquals(rd("(1 . 2)"), "(1 . 2)");
  assertEquals(rd("(1 2 . (3 4))"), "(1 2 3 4)");
  assertEquals(rd("[a b]"), "(a b)");
  assertEquals(rd("#(1 #(2))"), "#(1 #(2))");
  assertEquals(rd("#u8(0 255)"), "#u8(0 255)");
  assertEquals(rd("'a `b ,c ,@d"), "'a | `b | ,c | ,@d");
  assertEquals(rd("()"), "()");
});

Deno.test("reader: strings and characters", () => {
  assertEquals(rd('"a\\nb\\t\\"\\\\\\a"'), '"a\\nb\\t\\"\\\\\\x7;"');
  assertEquals(rd('"\\x3bb;"'), '"λ"');
  assertEquals(rd('"ab\\   \n   cd"'), '"abcd"');
  assertEquals(
    rd("#\\a #\\space #\\newline #\\x41 #\\x #\\( #\\tab #\\null #\\delete #\\alarm"),
    "#\\a | #\\space | #\\newline | #\\A | #\\x | #\\( | #\\tab | #\\null | #\\delete | #\\alarm",
  );
  assertEquals(rd("#\\λ"), "#\\λ");
});

Deno.test("reader: numbers in every radix and exactness", () => {
  assertEquals(
    rd("#x10 #b101 #o17 #d10 #e1.5 #i1/2 #x#e10 #e#x10 -12 +5 1/2 -3/6 .5 1e3 +inf.0 -inf.0"),
    "16 | 5 | 15 | 10 | 3/2 | 0.5 | 16 | 16 | -12 | 5 | 1/2 | -1/2 | 0.5 | 1000.0 | +inf.0 | -inf.0",
  );
  assertEquals(rd("+ - ... ->x +a"), "+ | - | ... | ->x | +a");
});

Deno.test("reader: comments, fold-case, symbols with bars, datum labels", () => {
  assertEquals(
    rd("a ; comment\n b #| block #| nested |# |# c #;(ignored datum) d"),
    "a | b | c | d",
  );
  assertEquals(rd("#;#;1 2 3"), "3");
  assertEquals(rd("#!fold-case ABC #!no-fold-case ABC"), "abc | ABC");
  assertEquals(rd("|sym bols| |a\\|b|"), "|sym bols| | |a\\|b|");
  assertEquals(rd("#0=(a b . #0#)"), "#0=(a b . #0#)");
  assertEquals(rd("(#1=(x) #1#)"), "((x) (x))");
  assertEquals(rd("#t #f #true #false"), "#t | #f | #t | #f");
});

Deno.test("reader: keywords", () => {
  const [k, s] = readAll(":type :::");
  ok(k instanceof Keyword);
  assertEquals((k as Keyword).name, "type");
  ok(s instanceof Sym);
});

Deno.test("reader: every pair carries file, line and column", () => {
  const [d] = readAll("\n  (a\n   (b c))", "f.scm");
  assertEquals(locations.get(d as Pair), { file: "f.scm", line: 2, col: 3 });
  const inner = ((d as Pair).cdr as Pair).car as Pair;
  assertEquals(locations.get(inner), { file: "f.scm", line: 3, col: 4 });
});

Deno.test("reader: errors have locations and incomplete flags", () => {
  for (
    const [src, msg, incomplete] of [
      ["(1 2", "unexpected end of input in list", true],
      ['"abc', "unterminated string", true],
      [")", "unexpected ')'", false],
      ["#\\foo", "unknown character name #\\foo", false],
      ["(1 . )", "unexpected ')'", false],
      ["#|", "unterminated block comment", true],
      ["#q", "bad syntax #q", false],
    ] as [string, string, boolean][]
  ) {
    try {
      readAll(src, "e.scm");
      throw new Error("no error for " + src);
    } catch (e) {
      ok(e instanceof ReadError, src);
      assertEquals(e.message, msg);
      assertEquals(e.incomplete, incomplete);
      ok(e.loc?.file === "e.scm");
    }
  }
});
