// What the interpreter does at start-up, checked against the plain definitions it replaced.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { splitDefinitions } from "../../scheme/base/types.ts";
import { LOCAL_PRELUDE, PRELUDE, TEST_LIBRARY } from "../../scheme/prelude.ts";
import { HASH_TABLE_LIBRARY, LIST_LIBRARY, SORT_LIBRARY } from "../../scheme/lib/mod.ts";

/** The definition splitDefinitions had: every line starting `(define name` or `(define (name`. */
function byRegExp(source: string): [string, string][] {
  const out = new Map<string, string>();
  const starts = [...source.matchAll(/^\(define \(?([^\s()]+)/gm)];
  starts.forEach((m, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].index! : source.length;
    out.set(m[1], source.slice(m.index!, end));
  });
  return [...out];
}

Deno.test("splitDefinitions cuts library source where a line starts a definition", () => {
  for (
    const src of [
      PRELUDE,
      LOCAL_PRELUDE,
      TEST_LIBRARY,
      LIST_LIBRARY,
      SORT_LIBRARY,
      HASH_TABLE_LIBRARY,
      "(define x 1)\n(define (y) 2)\n(define ( 3)\n(define z",
      "x\n(define a)(define b)\n  (define c 1)\n(define a 2)",
      "",
      "(define",
    ]
  ) {
    assertEquals([...splitDefinitions(src)], byRegExp(src), src.slice(0, 60));
  }
  assertEquals([...splitDefinitions("(define (f) 1)\n(define g 2)\n").keys()], ["f", "g"]);
});
