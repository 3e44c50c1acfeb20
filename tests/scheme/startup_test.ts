// What the interpreter does at start-up, checked against the plain definitions it replaced.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { splitDefinitions } from "../../scheme/base/types.ts";
import { parseNumber } from "../../scheme/base/number_syntax.ts";
import { LOCAL_PRELUDE, PRELUDE, TEST_LIBRARY } from "../../scheme/lib/prelude.ts";
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

Deno.test("library names are static symbols whether found by search or by the collected set", async () => {
  // a fresh process: the first new names a program reads are searched for in the library text,
  // later ones looked up in the collected identifiers; both must agree with the library
  const mod = new URL("../../scheme/mod.ts", import.meta.url).href;
  const script = `import { Interpreter } from ${JSON.stringify(mod)};
const a = new Interpreter(), b = new Interpreter();
const out = [];
const own = (s, src) => { const n = s.symbolCount(); s.evaluateSync(src); return s.symbolCount() - n; };
// by search: a library name (static, shared), the program's own name (local), a name only
// part of a library token (local)
out.push(own(a, "'list-sort"), own(a, "'my-own-1"), own(a, "'ist-sor"));
out.push(a.evaluateSync("'list-sort") === b.evaluateSync("'list-sort"));
for (let i = 0; i < 100; i++) a.evaluateSync("'filler-" + i);
// by the collected set
out.push(own(a, "'vector-sort!"), own(a, "'my-own-2"), own(b, "'delete-duplicates"));
out.push(a.evaluateSync("(import (scheme sort)) (eq? 'vector-sort! (quote vector-sort!))"));
out.push(b.evaluateSync("(define x 'fold) (import (scheme list)) (eq? x 'fold)"));
console.log(JSON.stringify(out));`;
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(r.stderr), "");
  assertEquals(new TextDecoder().decode(r.stdout), "[0,1,1,true,0,1,0,true,true]\n");
});

Deno.test("a short decimal integer reads as the general number grammar reads it", () => {
  // `#d` sends the same digits through the general path
  for (
    const s of ["0", "00", "7", "042", "123456789012345", "1234567890123456", "99999999999999999"]
  ) {
    const fast = parseNumber(s), general = parseNumber("#d" + s);
    assertEquals(typeof fast, typeof general, s);
    assertEquals(fast, general, s);
  }
  assertEquals(parseNumber(""), null);
  assertEquals(parseNumber("12a"), null);
});
