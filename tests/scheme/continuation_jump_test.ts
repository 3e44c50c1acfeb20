// A continuation called in tail position returns to the driver as a value and is reinstated there
// without a JS throw (scheme/base/runtime.ts, Run.steps): re-entry, dynamic-wind and the limits on
// that path.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { errorOf, make, table } from "./helpers.ts";
import { SchemeLimitError } from "../../scheme/mod.ts";

const GENERATOR = `(define (make-gen n)
  (define return #f)
  (define resume #f)
  (define (start)
    (let loop ((i 0))
      (if (< i n)
          (begin (call/cc (lambda (k) (set! resume k) (return i))) (loop (+ i 1)))))
    (return 'done))
  (lambda () (call/cc (lambda (r) (set! return r) (if resume (resume #f) (start))))))
(define (gen-list n)
  (let ((g (make-gen n)))
    (let loop ((acc '()))
      (let ((v (g))) (if (eq? v 'done) (reverse acc) (loop (cons v acc)))))))`;

Deno.test("a generator on call/cc re-enters its most recent captures in tail position", () => {
  const { s } = make();
  s.evaluateSync(GENERATOR);
  table([
    ["(gen-list 5)", "(0 1 2 3 4)"],
    ["(gen-list 0)", "()"],
    ["(length (gen-list 3000))", "3000"],
    ["(let ((g (make-gen 2))) (list (g) (g) (g) (g)))", "(0 1 done done)"],
  ], s);
});

Deno.test("a tail-position jump back into dynamic-wind runs the before thunk again", () => {
  table([
    [
      `(let ((trace '()) (k #f) (n 0))
         (dynamic-wind (lambda () (set! trace (cons 'in trace)))
                       (lambda () (call/cc (lambda (c) (set! k c))) (set! n (+ n 1)))
                       (lambda () (set! trace (cons 'out trace))))
         (if (< n 3) (k #f) (reverse trace)))`,
      "(in out in out in out)",
    ],
    [
      `(let ((k #f) (n 0))
         (set! n (+ (call/cc (lambda (c) (set! k c) 1)) n))
         (if (< n 10) (k 2) n))`,
      "11",
    ],
    [
      "(call-with-values (lambda () (call/cc (lambda (k) (k 1 2)))) list)",
      "(1 2)",
    ],
  ]);
});

Deno.test("an endless loop of tail-position jumps still hits the fuel and time limits", () => {
  const loop = "(let ((k #f)) (call/cc (lambda (c) (set! k c))) (k #f))";
  const fuel = errorOf(make({ limits: { fuel: 100_000 } }).s, loop);
  ok(fuel instanceof SchemeLimitError, String(fuel));
  assertEquals(fuel.kind, "fuel");
  const time = errorOf(make({ limits: { fuel: 1e12, timeoutMs: 50 } }).s, loop);
  ok(time instanceof SchemeLimitError, String(time));
  assertEquals(time.kind, "deadline");
});
