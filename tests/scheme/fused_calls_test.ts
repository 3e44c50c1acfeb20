// Fused call nodes (scheme/nodes/fused_calls.ts): a call whose simple operands — locals, number
// constants, `+ - < > <= >= =` on those — are evaluated inside the call node. Each test is about
// a way the inlined operand could differ from the plain call node and checks it does not.
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { errorOf, make, table } from "./helpers.ts";
import { SchemeLimitError } from "../../scheme/mod.ts";

Deno.test("fused call: every operand shape, tail and not, one to three operands", () => {
  table([
    ["(define (l1 a) (list a)) (define (l2 a b) (list a b)) (define (l3 a b c) (list a b c))", ""],
    ["(define (t x y) (l3 (+ x 1) (- y 1) (< x y)))", ""],
    ["(t 1 5)", "(2 4 #t)"],
    ["(define (u x) (l2 x 7))", ""],
    ["(u 'a)", "(a 7)"],
    // a parent frame's variable (L1) under a closure
    ["(define (mk k) (lambda (x) (l3 (+ x k) k (= x k))))", ""],
    ["((mk 3) 3)", "(6 3 #t)"],
    ["(define (cmp a b) (l2 (<= a b) (>= a b)))", ""],
    ["(cmp 2 2)", "(#t #t)"],
    ["(define (nt a) (car (l1 (> a 0))))", ""],
    ["(nt -1)", "#f"],
  ]);
});

Deno.test("fused call: an inlined sum that leaves the safe integers is exact (the slow path)", () => {
  table([
    ["(define (pair a b) (cons a b))", ""],
    ["(define (big n) (pair (+ n 2) (- 0 n)))", ""],
    // 2^53 + 1 has no double: a float sum would say ...992
    ["(big 9007199254740991)", "(9007199254740993 . -9007199254740991)"],
    ["(exact? (car (big 9007199254740991)))", "#t"],
    ["(big 1.5)", "(3.5 . -1.5)"],
    ["(define (half a) (pair (+ a 1/2) (< a 1/2)))", ""],
    ["(half 1/2)", "(1 . #f)"],
  ]);
});

Deno.test("fused call: a redefined operator is called, not the built-in", () => {
  const { s } = make();
  table([
    ["(define (id x) x)", ""],
    ["(define (g n) (id (- n 1)))", ""],
    ["(g 5)", "4"],
    ["(set! - (lambda (a b) (list 'minus a b)))", ""],
    ["(g 5)", "(minus 5 1)"],
  ], s);
});

Deno.test("fused call: a type error in an inlined operand names the operator and its site", () => {
  const { s } = make();
  s.evaluateSync("(define (id x) x) (define (g n) (id (- n 1)))");
  const e = errorOf(s, '(g "a")');
  match(e.message, /-/);
  match((e as unknown as { report(): string }).report(), /at - \(/);
});

Deno.test("fused call: a continuation captured in a later operand re-enters with the earlier ones kept", () => {
  // the first operand keeps the value it had when the continuation was captured (n was 0);
  // the third is evaluated again after each re-entry, with the current n
  table([
    ["(define (l3 a b c) (list a b c))", ""],
    [
      `(define (run)
         (let* ((k #f) (n 0)
                (r (l3 (+ n 1) (call/cc (lambda (c) (set! k c) 0)) (- n 1))))
           (set! n (+ n 1))
           (if (< n 3) (k n) r)))`,
      "",
    ],
    ["(run)", "(1 2 1)"],
  ]);
});

Deno.test("fused call: deep recursion through fused calls moves to the heap and comes back", () => {
  const { s } = make({ limits: { maxDepth: 1_000_000 } });
  s.evaluateSync("(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1)))))");
  assertEquals(s.evaluateSync("(d 200000)"), 200000);
  // and a tail call with inlined operands runs in constant space
  s.evaluateSync("(define (lp i acc) (if (= i 0) acc (lp (- i 1) (+ acc 2))))");
  assertEquals(s.evaluateSync("(lp 300000 0)"), 600000);
});

Deno.test("fused call: fuel is charged as before (a loop of fused calls ends on fuel)", () => {
  const { s } = make({ limits: { fuel: 50_000 } });
  s.evaluateSync("(define (lp i) (lp (+ i 1)))");
  let err: unknown;
  try {
    s.evaluateSync("(lp 0)");
  } catch (e) {
    err = e;
  }
  assertEquals(err instanceof SchemeLimitError && err.kind, "fuel");
});
