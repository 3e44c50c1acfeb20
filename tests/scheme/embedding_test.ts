// Embedding API: host primitives (sync and async), calling Scheme from TypeScript, conversion,
// module loader hook, multiple interpreters, output sinks.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  Interpreter,
  list,
  MString,
  NIL,
  Pair,
  SchemeError,
  sym,
  toList,
  write,
} from "../../scheme/mod.ts";

Deno.test("host primitives, sync and async", async () => {
  const s = new Interpreter({
    primitives: {
      "host-add": (a, b) => (a as number) + (b as number),
      "host-fetch": async (k) => {
        await new Promise((r) => setTimeout(r, 1));
        return `value-of-${k}`;
      },
      "two-args": { fn: (a, b) => [a, b], minArgs: 2, maxArgs: 2 },
    },
  });
  assertEquals(await s.evaluate("(host-add 40 2)"), 42);
  assertEquals(await s.evaluate('(string-append (host-fetch "a") "!")'), "value-of-a!");
  assertEquals(
    await s.evaluate('(map (lambda (k) (host-fetch k)) (list "x" "y"))').then(write),
    '("value-of-x" "value-of-y")',
  );
  // async inside deep recursion, guard and dynamic-wind
  assertEquals(
    await s.evaluate(
      "(define log '()) (define (deep n) (if (= n 0) (host-fetch \"z\") (string-append \"\" (deep (- n 1))))) (dynamic-wind (lambda () (set! log (cons 'in log))) (lambda () (guard (e (#t 'err)) (deep 2000))) (lambda () (set! log (cons 'out log))))",
    ),
    "value-of-z",
  );
  assertEquals(write(s.lookup("log")), "(out in)");
  ok(
    String(
      await s.evaluate("(guard (e (#t (error-object-message e))) (two-args 1))").catch((e) => e),
    ).includes("wrong number of arguments"),
  );
  try {
    s.evaluateSync('(host-fetch "sync")');
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError);
  }
  await new Promise((r) => setTimeout(r, 10)); // let the abandoned host timer finish
});

Deno.test("calling Scheme procedures from TypeScript and back", async () => {
  const s = new Interpreter({ primitives: { twice: (x) => (x as number) * 2 } });
  await s.evaluate("(define (add a b) (+ a b)) (define (apply-twice f x) (f (f x)))");
  assertEquals(await s.call("add", 1, 2), 3);
  assertEquals(s.callSync("add", 3, 4), 7);
  const f = s.lookup("apply-twice");
  assertEquals(s.callSync(f, s.lookup("twice"), 5), 20);
  const lam = s.evaluateSync("(lambda xs (length xs))");
  assertEquals(s.callSync(lam, 1, 2, 3), 3);
  try {
    s.callSync("missing");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError);
  }
  // a host primitive calling back into Scheme synchronously
  s.definePrimitive("call-back", (fn, x) => s.callSync(fn, x));
  assertEquals(s.evaluateSync("(call-back (lambda (x) (* x 10)) 4)"), 40);
});

Deno.test("value conversion helpers", () => {
  const s = new Interpreter();
  const v = s.evaluateSync('(list 1 "two" \'three #\\4 (vector 5))');
  ok(v instanceof Pair);
  assertEquals(write(v), '(1 "two" three #\\4 #(5))');
  assertEquals(write(toList([1, 2])), "(1 2)");
  assertEquals(write(list(sym("a"), NIL)), "(a ())");
  ok(s.evaluateSync('(string-copy "x")') instanceof MString);
  s.define("greeting", "hello");
  assertEquals(s.evaluateSync("(string-length greeting)"), 5);
});

Deno.test("module loader hook implements require", async () => {
  const loads: string[] = [];
  const files: Record<string, string> = {
    "util": "(define (util-double x) (* 2 x))",
    "async-mod": "(define async-loaded #t)",
  };
  const s = new Interpreter({
    loader: (name) => {
      loads.push(name);
      if (name === "async-mod") {
        return Promise.resolve({ source: files[name], file: name + ".scm" });
      }
      return name in files ? { source: files[name], file: name + ".scm" } : null;
    },
  });
  assertEquals(await s.evaluate('(require "util") (util-double 21)'), 42);
  assertEquals(await s.evaluate('(require "async-mod") async-loaded'), true);
  try {
    await s.evaluate('(require "nope")');
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError && e.message.includes("module not found"));
  }
  assertEquals(loads, ["util", "async-mod", "nope"]);
  const noLoader = new Interpreter();
  ok(
    String(await noLoader.evaluate('(require "x")').catch((e) => e.message)).includes(
      "no module loader",
    ),
  );
});

Deno.test("interpreters are isolated; output goes to the host sink", () => {
  const out: string[] = [];
  const a = new Interpreter({ stdout: (x) => out.push(x) });
  const b = new Interpreter();
  a.evaluateSync("(define x 1) (define (car x) 'mine)");
  assertEquals(b.evaluateSync("(car '(1))"), 1);
  ok(b.lookup("x") === undefined);
  a.evaluateSync('(display "hello") (write "w") (newline)');
  assertEquals(out.join(""), 'hello"w"\n');
  assertEquals(a.evaluateSync("(map (lambda (x) (+ x 1)) '(1 2))") instanceof Pair, true);
});

Deno.test("errors from evaluate carry file names", async () => {
  const s = new Interpreter();
  try {
    await s.evaluate("(define (f) (car 1))\n(f)", { file: "beh.scm" });
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError);
    assertEquals(e.loc?.file, "beh.scm");
    ok(e.report().includes("beh.scm:1:13"), e.report());
  }
});

Deno.test("toJS / fromJS convenience conversions", async () => {
  const { fromJS, toJS } = await import("../../scheme/mod.ts");
  const s = new Interpreter();
  assertEquals(
    toJS(s.evaluateSync("(list 1 2.5 \"s\" 'sym :kw (vector #t (null)) (dict :a '(1)))")),
    [
      1,
      2.5,
      "s",
      "sym",
      ":kw",
      [true, null],
      { a: [1] },
    ],
  );
  s.define("input", fromJS({ xs: [1, 2, 3], name: "n", m: new Map([["k", 1.5]]) }));
  assertEquals(s.evaluateSync("(apply + (vector->list (:xs input)))"), 6);
  assertEquals(write(s.evaluateSync("(:m input)")), "(dict :k 1.5)");
});

Deno.test("overlapping async evaluations keep their own dynamic state", async () => {
  const s = new Interpreter({
    primitives: { pause: () => new Promise((r) => setTimeout(() => r(true), 5)) },
  });
  await s.evaluate("(define p (make-parameter 'outer))");
  const a = s.evaluate("(parameterize ((p 'in-a)) (pause) (p))");
  const b = s.evaluate("(begin (pause) (p))");
  assertEquals(write(await a), "in-a");
  assertEquals(write(await b), "outer");
  // a host primitive calling back synchronously sees the caller's dynamic state
  s.definePrimitive("peek", () => s.callSync("p"));
  assertEquals(write(s.evaluateSync("(parameterize ((p 'inner)) (peek))")), "inner");
});
