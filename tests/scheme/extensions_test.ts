// Harness extensions: keywords, dicts, keyword arguments, JSON mapping.
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { Dict, Flo, fromJson, NULL, toJson } from "../../scheme/mod.ts";
import { ev, make, table } from "./helpers.ts";

Deno.test("keywords are self-evaluating", () => {
  table([
    [":type", ":type"],
    ["(keyword? :a)", "#t"],
    ["(keyword? 'a)", "#f"],
    ["(eq? :a :a)", "#t"],
    ["(keyword->string :abc)", '"abc"'],
    ['(string->keyword "x")', ":x"],
    ["'(:a 1)", "(:a 1)"],
  ]);
});

Deno.test("dict operations", () => {
  table([
    ["(define d (dict :a 1 :b 2))", ""],
    ["d", "(dict :a 1 :b 2)"],
    ["(dict? d)", "#t"],
    ["(dict? '())", "#f"],
    ["(dict-ref d :a)", "1"],
    ['(dict-ref d "b")', "2"],
    ["(dict-ref d :zz 'none)", "none"],
    ["(guard (e (#t (error-object-message e))) (dict-ref d :zz))", '"dict-ref: key not found:"'],
    ["(dict-set d :c 3)", "(dict :a 1 :b 2 :c 3)"],
    ["(dict-set d :a 10)", "(dict :a 10 :b 2)"],
    ["d", "(dict :a 1 :b 2)"],
    ["(dict-keys d)", '("a" "b")'],
    ["(dict-values d)", "(1 2)"],
    ["(dict-has? d :a)", "#t"],
    ["(dict-has? d :c)", "#f"],
    ["(dict-remove d :a)", "(dict :b 2)"],
    ["(dict->alist d)", '(("a" . 1) ("b" . 2))'],
    ['(alist->dict \'((x . 1) ("y" . 2)))', "(dict :x 1 :y 2)"],
    ["(dict-count d)", "2"],
    ["(dict-count (dict))", "0"],
    ["(dict-merge d (dict :b 3 :c 4))", "(dict :a 1 :b 3 :c 4)"],
    ["(equal? (dict :a 1) (dict :a 1))", "#t"],
    ["(equal? (dict :a 1) (dict :a 2))", "#f"],
    ["(dict-get d :missing)", "#f"],
  ]);
});

Deno.test("calling a keyword on a dict reads that key", () => {
  table([
    ["(define action (dict :type 'move :x 3))", ""],
    ["(:type action)", "move"],
    ["(:x action)", "3"],
    ["(:y action 0)", "0"],
    ["(map :x (list (dict :x 1) (dict :x 2)))", "(1 2)"],
    ["(guard (e (#t 'err)) (:y action))", "err"],
  ]);
});

Deno.test("keyword-args parses rest lists into dicts", () => {
  table([
    [
      "(define (define/method name . opts) (let ((o (keyword-args opts '(:kind :handler)))) (list name (:kind o) (procedure? (:handler o)))))",
      "",
    ],
    ["(define/method 'put :kind 'command :handler (lambda (x) x))", "(put command #t)"],
    [
      "(guard (e (#t (error-object-message e))) (define/method 'put :kind 'a :kind 'b))",
      '"keyword-args: duplicate keyword"',
    ],
    [
      "(guard (e (#t (error-object-message e))) (define/method 'put :color 'red))",
      '"keyword-args: unknown keyword"',
    ],
    [
      "(guard (e (#t (error-object-message e))) (define/method 'put :kind))",
      '"keyword-args: missing value for"',
    ],
    [
      "(guard (e (#t (error-object-message e))) (define/method 'put 'kind 1))",
      '"keyword-args: expected a keyword, got"',
    ],
    ["(keyword-args '(:a 1 :b 2))", "(dict :a 1 :b 2)"],
  ]);
});

Deno.test("JSON <-> Scheme mapping round-trips", () => {
  const samples: unknown[] = [
    { a: 1, b: [true, false, null, "s", 1.5, -3], c: { d: {} } },
    [],
    "str",
    0,
    12345678901234,
    -0.25,
    null,
    [[1, [2, [3]]]],
  ];
  for (const j of samples) assertEquals(toJson(fromJson(j)), j);
  const v = fromJson({ x: [1, 2.5, null] }) as Dict;
  ok(v instanceof Dict);
  const arr = v.map.get("x") as unknown[];
  assertEquals(arr[0], 1);
  ok(arr[1] instanceof Flo);
  assertEquals(arr[2], NULL);
  throws(() => toJson(Symbol("x")));
  const { s } = make();
  s.define("payload", fromJson({ type: "move", args: [1, 2] }));
  assertEquals(ev(s, "(:type payload)"), '"move"');
  assertEquals(ev(s, "(vector-ref (:args payload) 1)"), "2");
  assertEquals(ev(s, "(json-null? (null))"), "#t");
  assertEquals(toJson(s.evaluateSync('(dict :ok #t :n (null) :v (vector 1 2.5 "x"))')), {
    ok: true,
    n: null,
    v: [1, 2.5, "x"],
  });
});
