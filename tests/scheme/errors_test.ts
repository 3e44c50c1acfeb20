// Error reporting: arity, type, unbound variable, bad syntax with location, backtraces.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type ErrorObject, SchemeError } from "../../scheme/mod.ts";
import { errorOf, make } from "./helpers.ts";

function kindOf(e: Error): string {
  ok(e instanceof SchemeError, String(e));
  return ((e as SchemeError).payload as ErrorObject).kind;
}

Deno.test("arity errors", () => {
  const { s } = make();
  const e = errorOf(s, "(define (f x) x)\n(f 1 2)");
  assertEquals(kindOf(e), "arity");
  assertEquals(e.message, "f: wrong number of arguments (2)");
  assertEquals(kindOf(errorOf(s, "(car)")), "arity");
  assertEquals(kindOf(errorOf(s, "((lambda (a b . c) a) 1)")), "arity");
  assertEquals(kindOf(errorOf(s, "((case-lambda ((a) a)) 1 2)")), "arity");
});

Deno.test("type errors", () => {
  const { s } = make();
  const e = errorOf(s, "(+ 1 'a)");
  assertEquals(kindOf(e), "type");
  assertEquals(e.message, "+: expected number, got a");
  assertEquals(kindOf(errorOf(s, "(vector-ref '(1) 0)")), "type");
  assertEquals(kindOf(errorOf(s, "(5 3)")), "type");
  assertEquals(errorOf(s, "(5 3)").message, "not a procedure: 5");
  assertEquals(kindOf(errorOf(s, '(string-set! "literal" 0 #\\a)')), "type");
});

Deno.test("unbound variables", () => {
  const { s } = make();
  const e = errorOf(s, "(define (g) (undefined-thing 1))\n(g)");
  assertEquals(kindOf(e), "unbound");
  assertEquals(e.message, "unbound variable: undefined-thing");
  assertEquals(kindOf(errorOf(s, "(set! nope 1)")), "unbound");
});

Deno.test("bad syntax reports the location", () => {
  const { s } = make();
  for (
    const src of [
      "(if)",
      "(lambda)",
      "(let ((x)) . 1)",
      "(define)",
      "(quote 1 2)",
      "(let loop)",
      "(cond ())",
      "(else)",
    ]
  ) {
    const e = errorOf(s, "\n  " + src) as SchemeError;
    if (src === "(else)") {
      assertEquals(kindOf(e), "unbound");
      continue;
    }
    assertEquals(kindOf(e), "syntax", src);
    assertEquals(e.loc?.file, "test.scm", src);
    assertEquals(e.loc?.line, 2, src);
    assertEquals(e.loc?.col, 3, src);
  }
  const m = errorOf(s, "(define-syntax m (syntax-rules () ((_ a) a)))\n(m 1 2)") as SchemeError;
  assertEquals(kindOf(m), "syntax");
  assertEquals(m.loc?.line, 2);
  ok(m.message.startsWith("no matching syntax rule for m"));
});

Deno.test("backtraces name each frame with file:line:col", () => {
  const { s } = make();
  const e = errorOf(
    s,
    "(define (inner x) (car x))\n(define (outer y)\n  (+ 1 (inner y)))\n(outer 5)",
  ) as SchemeError;
  const report = e.report();
  ok(report.startsWith("error: car: expected pair, got 5"), report);
  ok(report.includes("at car (test.scm:1:19)"), report);
  ok(report.includes("at inner (test.scm:3:8)"), report);
  ok(report.includes("at outer (test.scm:4:1)"), report);
});

Deno.test("host exceptions become Scheme errors", async () => {
  const { s } = make({
    primitives: {
      boom: () => {
        throw new TypeError("kaboom");
      },
      "async-boom": () => Promise.reject(new Error("later")),
    },
  });
  const e = errorOf(s, "(boom)");
  ok(e instanceof SchemeError);
  assertEquals(kindOf(e), "host");
  assertEquals(e.message, "host error: kaboom");
  assertEquals(
    s.evaluateSync("(guard (e ((error-object? e) (error-object-message e))) (boom))"),
    "host error: kaboom",
  );
  assertEquals(
    await s.evaluate("(guard (e ((error-object? e) (error-object-message e))) (async-boom))"),
    "host error: later",
  );
  try {
    await s.evaluate("(async-boom)");
    ok(false);
  } catch (err) {
    ok(err instanceof SchemeError);
  }
});

Deno.test("raise of non-error objects", () => {
  const { s } = make();
  const e = errorOf(s, "(raise 'oops)") as SchemeError;
  assertEquals(e.payload, s.evaluateSync("'oops"));
  assertEquals(e.message, "non-error object raised: oops");
  const e2 = errorOf(s, '(error "Something bad:" 42 "x")');
  assertEquals(e2.message, 'Something bad: 42 "x"');
});
