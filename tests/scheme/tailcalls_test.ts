// R7RS 3.5: proper tail recursion in every tail position (constant space: a tiny maxDepth
// would be exceeded otherwise).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Interpreter } from "../../scheme/mod.ts";

const N = 20_000;

Deno.test("tail calls in every tail position run in constant space", () => {
  const s = new Interpreter({ limits: { maxDepth: 200 } });
  const cases: [string, string][] = [
    ["if", `(define (f n) (if (= n 0) 'done (f (- n 1))))`],
    ["cond", `(define (f n) (cond ((= n 0) 'done) (else (f (- n 1)))))`],
    ["cond =>", `(define (f n) (cond ((= n 0) 'done) ((- n 1) => f)))`],
    ["case", `(define (f n) (case n ((0) 'done) (else (f (- n 1)))))`],
    ["case =>", `(define (f n) (case n ((0) 'done) (else => (lambda (m) (f (- m 1))))))`],
    ["and", `(define (f n) (if (= n 0) 'done (and #t (f (- n 1)))))`],
    ["or", `(define (f n) (if (= n 0) 'done (or #f (f (- n 1)))))`],
    ["when", `(define (f n) (if (= n 0) 'done (when #t (f (- n 1)))))`],
    ["unless", `(define (f n) (if (= n 0) 'done (unless #f (f (- n 1)))))`],
    ["let", `(define (f n) (if (= n 0) 'done (let ((m (- n 1))) (f m))))`],
    ["let*", `(define (f n) (if (= n 0) 'done (let* ((a 1) (m (- n a))) (f m))))`],
    ["letrec", `(define (f n) (if (= n 0) 'done (letrec ((m (- n 1))) (f m))))`],
    ["begin", `(define (f n) (if (= n 0) 'done (begin 1 (f (- n 1)))))`],
    ["apply", `(define (f n) (if (= n 0) 'done (apply f (list (- n 1)))))`],
    ["named let", `(define (f n) (let loop ((i n)) (if (= i 0) 'done (loop (- i 1)))))`],
    ["do", `(define (f n) (do ((i n (- i 1))) ((= i 0) 'done)))`],
    ["mutual", `(define (f n) (if (= n 0) 'done (g (- n 1)))) (define (g n) (f n))`],
    [
      "case-lambda",
      `(define f (case-lambda ((n) (if (= n 0) 'done (f (- n 1) 'x))) ((n x) (f n))))`,
    ],
    ["call/cc body", `(define (f n) (if (= n 0) 'done (call/cc (lambda (k) (f (- n 1))))))`],
    ["guard body? no: guard clause", `(define (f n) (if (= n 0) 'done (f (- n 1))))`],
    [
      "call-with-values consumer",
      `(define (f n) (if (= n 0) 'done (call-with-values (lambda () (- n 1)) f)))`,
    ],
    [
      "string ports",
      `(define (f n) (if (= n 0) 'done (f (- (string-length (symbol->string 'ab)) 2 (- 0 n) 1))))`,
    ],
    ["eval", `(define (f n) (if (= n 0) 'done (f (- n 1))))`],
  ];
  for (const [name, def] of cases) {
    s.evaluateSync(def);
    assertEquals(s.evaluateSync(`(f ${N})`), s.evaluateSync("'done"), name);
    assertEquals(s.evaluateSync(`(eval '(f ${N}))`), s.evaluateSync("'done"), name);
  }
});
