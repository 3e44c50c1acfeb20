// R7RS section 4: expressions (primitive and derived), macros.
import { table } from "./helpers.ts";

Deno.test("4.1 primitive expression types", () => {
  table([
    ["(define x 28) x", "28"],
    ["(quote a)", "a"],
    ["(quote #(a b c))", "#(a b c)"],
    ["(quote (+ 1 2))", "(+ 1 2)"],
    ["'a", "a"],
    ["'#(a b c)", "#(a b c)"],
    ["'()", "()"],
    ["'(quote a)", "'a"],
    ["''a", "'a"],
    ['"abc"', '"abc"'],
    ["#\\a", "#\\a"],
    ["#(a 10)", "#(a 10)"],
    ["#u8(64 65)", "#u8(64 65)"],
    ["145932", "145932"],
    ["#t", "#t"],
    ["(+ 3 4)", "7"],
    ["((if #f + *) 3 4)", "12"],
    ["((lambda (x) (+ x x)) 4)", "8"],
    ["(define reverse-subtract (lambda (x y) (- y x))) (reverse-subtract 7 10)", "3"],
    ["(define add4 (let ((x 4)) (lambda (y) (+ x y)))) (add4 6)", "10"],
    ["((lambda x x) 3 4 5 6)", "(3 4 5 6)"],
    ["((lambda (x y . z) z) 3 4 5 6)", "(5 6)"],
    ["(if (> 3 2) 'yes 'no)", "yes"],
    ["(if (> 2 3) 'yes 'no)", "no"],
    ["(if (> 3 2) (- 3 2) (+ 3 2))", "1"],
    ["(define x 2) (+ x 1)", "3"],
    ["(set! x 4) (+ x 1)", "5"],
  ]);
});

Deno.test("4.2.1 conditionals", () => {
  table([
    ["(cond ((> 3 2) 'greater) ((< 3 2) 'less))", "greater"],
    ["(cond ((> 3 3) 'greater) ((< 3 3) 'less) (else 'equal))", "equal"],
    ["(cond ((assv 'b '((a 1) (b 2))) => cadr) (else #f))", "2"],
    ["(cond (#f 1) ((+ 1 1)))", "2"],
    ["(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite))", "composite"],
    ["(case (car '(c d)) ((a e i o u) 'vowel) ((w y) 'semivowel) (else => (lambda (x) x)))", "c"],
    ["(case 5 ((1) 'one) ((5) => (lambda (x) (* x 2))) (else 'other))", "10"],
    ["(and (= 2 2) (> 2 1))", "#t"],
    ["(and (= 2 2) (< 2 1))", "#f"],
    ["(and 1 2 'c '(f g))", "(f g)"],
    ["(and)", "#t"],
    ["(or (= 2 2) (> 2 1))", "#t"],
    ["(or (= 2 2) (< 2 1))", "#t"],
    ["(or #f #f #f)", "#f"],
    ["(or (memq 'b '(a b c)) (/ 3 0))", "(b c)"],
    ["(when (= 1 1.0) 'a 'b)", "b"],
    ["(unless (= 1 1.0) 'a 'b)", ""],
    ["(let ((t 5)) (or #f t))", "5"],
  ]);
});

Deno.test("4.2.2 binding constructs", () => {
  table([
    ["(let ((x 2) (y 3)) (* x y))", "6"],
    ["(let ((x 2) (y 3)) (let ((x 7) (z (+ x y))) (* z x)))", "35"],
    ["(let ((x 2) (y 3)) (let* ((x 7) (z (+ x y))) (* z x)))", "70"],
    [
      "(letrec ((even? (lambda (n) (if (zero? n) #t (odd? (- n 1))))) (odd? (lambda (n) (if (zero? n) #f (even? (- n 1)))))) (even? 88))",
      "#t",
    ],
    [
      "(letrec* ((p (lambda (x) (+ 1 (q (- x 1))))) (q (lambda (y) (if (zero? y) 0 (+ 1 (p (- y 1)))))) (x (p 5)) (y x)) y)",
      "5",
    ],
    ["(let-values (((root rem) (exact-integer-sqrt 32))) (* root rem))", "35"],
    [
      "(let ((a 'a) (b 'b) (x 'x) (y 'y)) (let*-values (((a b) (values x y)) ((x y) (values a b))) (list a b x y)))",
      "(x y x y)",
    ],
    [
      "(let-values (((a . rest) (values 1 2 3)) (all (values 4 5))) (list a rest all))",
      "(1 (2 3) (4 5))",
    ],
    ["(define-values (q r) (floor/ 17 5)) (list q r)", "(3 2)"],
    ["(define-values (a . b) (values 1 2 3)) (list a b)", "(1 (2 3))"],
    ["(define (f) (define-values (x y) (values 1 2)) (+ x y)) (f)", "3"],
  ]);
});

Deno.test("4.2.3 sequencing, 4.2.4 iteration", () => {
  table([
    ["(define x 0) (and (= x 0) (begin (set! x 5) (+ x 1)))", "6"],
    [
      "(do ((vec (make-vector 5)) (i 0 (+ i 1))) ((= i 5) vec) (vector-set! vec i i))",
      "#(0 1 2 3 4)",
    ],
    ["(let ((x '(1 3 5 7 9))) (do ((x x (cdr x)) (sum 0 (+ sum (car x)))) ((null? x) sum)))", "25"],
    [
      "(let loop ((numbers '(3 -2 1 6 -5)) (nonneg '()) (neg '())) (cond ((null? numbers) (list nonneg neg)) ((>= (car numbers) 0) (loop (cdr numbers) (cons (car numbers) nonneg) neg)) ((< (car numbers) 0) (loop (cdr numbers) nonneg (cons (car numbers) neg)))))",
      "((6 1 3) (-5 -2))",
    ],
  ]);
});

Deno.test("4.2.5 delayed evaluation", () => {
  table([
    ["(force (delay (+ 1 2)))", "3"],
    ["(let ((p (delay (+ 1 2)))) (list (force p) (force p)))", "(3 3)"],
    [
      "(define integers (letrec ((next (lambda (n) (delay (cons n (next (+ n 1))))))) (next 0))) (define (head stream) (car (force stream))) (define (tail stream) (cdr (force stream))) (head (tail (tail integers)))",
      "2",
    ],
    [
      "(define (stream-filter p? s) (delay-force (if (null? (force s)) (delay '()) (let ((h (car (force s))) (t (cdr (force s)))) (if (p? h) (delay (cons h (stream-filter p? t))) (stream-filter p? t)))))) (head (tail (tail (stream-filter odd? integers))))",
      "5",
    ],
    [
      "(define count 0) (define p (delay (begin (set! count (+ count 1)) (if (> count x) count (force p))))) (define x 5) (force p)",
      "6",
    ],
    ["(begin (set! x 10) (force p))", "6"],
    ["(promise? (delay 1))", "#t"],
    ["(force (make-promise 5))", "5"],
    ["(promise? (make-promise (delay 1)))", "#t"],
    ["(force 7)", "7"],
    [
      "(define (loop n) (delay-force (if (= n 0) (delay 'done) (loop (- n 1))))) (force (loop 100000))",
      "done",
    ],
  ]);
});

Deno.test("4.2.6 dynamic bindings", () => {
  table([
    [
      '(define radix (make-parameter 10 (lambda (x) (if (and (exact-integer? x) (<= 2 x 16)) x (error "invalid radix")))))',
      "",
    ],
    ["(define (f n) (number->string n (radix))) (f 12)", '"12"'],
    ["(parameterize ((radix 2)) (f 12))", '"1100"'],
    ["(f 12)", '"12"'],
    ["(guard (e (#t 'bad)) (parameterize ((radix 0)) (f 12)))", "bad"],
    [
      "(define p (make-parameter 1)) (list (p) (parameterize ((p 2)) (list (p) (parameterize ((p 3)) (p)))) (p))",
      "(1 (2 3) 1)",
    ],
  ]);
});

Deno.test("4.2.7 exception handling: guard", () => {
  table([
    [
      "(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) (raise (list (cons 'a 42))))",
      "42",
    ],
    [
      "(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) (raise (list (cons 'b 23))))",
      "(b . 23)",
    ],
    [
      "(guard (e ((symbol? e) (list 'sym e)) ((string? e) (list 'str e))) (raise \"x\"))",
      '(str "x")',
    ],
    [
      "(guard (e (#f 'no)) (guard (e2 ((number? e2) 'inner)) (raise 'outer)))",
      "ERROR: non-error object raised: outer",
    ],
    ['(guard (e (else (error-object-message e))) (error "bad thing" 1 2))', '"bad thing"'],
    ['(guard (e (else (error-object-irritants e))) (error "bad thing" 1 2))', "(1 2)"],
    ['(guard (e ((string? e) e)) (+ 1 (guard (e2 ((number? e2) e2)) (raise "s"))))', '"s"'],
    [
      "(guard (e (#t (list 'caught e))) (dynamic-wind (lambda () #f) (lambda () (raise 'x)) (lambda () #f)))",
      "(caught x)",
    ],
  ]);
});

Deno.test("4.2.9 case-lambda", () => {
  table([
    [
      "(define range (case-lambda ((e) (range 0 e)) ((b e) (do ((r '() (cons e r)) (e (- e 1) (- e 1))) ((< e b) r))))) (list (range 3) (range 3 5))",
      "((0 1 2) (3 4))",
    ],
    [
      "(define plus (case-lambda (() 0) ((x) x) ((x y) (+ x y)) ((x y z) (+ (+ x y) z)) (args (apply + args)))) (list (plus) (plus 1) (plus 1 2) (plus 1 2 3) (plus 1 2 3 4))",
      "(0 1 3 6 10)",
    ],
  ]);
});

Deno.test("4.2.8 quasiquotation", () => {
  table([
    ["`(list ,(+ 1 2) 4)", "(list 3 4)"],
    ["(let ((name 'a)) `(list ,name ',name))", "(list a 'a)"],
    ["`(a ,(+ 1 2) ,@(map abs '(4 -5 6)) b)", "(a 3 4 5 6 b)"],
    ["`(( foo ,(- 10 3)) ,@(cdr '(c)) . ,(car '(cons)))", "((foo 7) . cons)"],
    ["`#(10 5 ,(sqrt 4) ,@(map sqrt '(16 9)) 8)", "#(10 5 2 4 3 8)"],
    ["(let ((foo '(foo bar)) (@baz 'baz)) `(list ,@foo , @baz))", "(list foo bar baz)"],
    ["`(a `(b ,(c) ,',(+ 1 2)))", "(a `(b ,(c) ,'3))"],
    ["`(a `(b ,(a1 ,(+ 1 2))))", "(a `(b ,(a1 3)))"],
    ["(let ((name1 'x) (name2 'y)) `(a `(b ,,name1 ,',name2 d) e))", "(a `(b ,x ,'y d) e)"],
    ["(quasiquote (list (unquote (+ 1 2)) 4))", "(list 3 4)"],
    ["'(quasiquote (list (unquote (+ 1 2)) 4))", "`(list ,(+ 1 2) 4)"],
  ]);
});

Deno.test("4.3 macros: syntax-rules and hygiene", () => {
  table([
    [
      "(define-syntax swap! (syntax-rules () ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp)))))",
      "",
    ],
    ["(let ((tmp 1) (other 2)) (swap! tmp other) (list tmp other))", "(2 1)"],
    [
      "(define-syntax my-or (syntax-rules () ((_) #f) ((_ e) e) ((_ e r ...) (let ((t e)) (if t t (my-or r ...))))))",
      "",
    ],
    ["(let ((x #f) (y 7) (temp 8) (let odd?) (if even?)) (my-or x (let temp) (if y) y))", "7"],
    ["(let ((=> #f)) (cond (#t => 'ok)))", "ok"],
    [
      "(let-syntax ((given-that (syntax-rules () ((_ test stmt1 stmt2 ...) (if test (begin stmt1 stmt2 ...)))))) (let ((if #t)) (given-that if (set! if 'now)) if))",
      "now",
    ],
    [
      "(let ((x 'outer)) (let-syntax ((m (syntax-rules () ((m) x)))) (let ((x 'inner)) (m))))",
      "outer",
    ],
    [
      "(letrec-syntax ((my-or (syntax-rules () ((my-or) #f) ((my-or e) e) ((my-or e1 e2 ...) (let ((temp e1)) (if temp temp (my-or e2 ...))))))) (let ((x #f) (y 7) (temp 8) (let odd?) (if even?)) (my-or x (let temp) (if y) y)))",
      "7",
    ],
    [
      "(define-syntax be-like-begin (syntax-rules () ((be-like-begin name) (define-syntax name (syntax-rules () ((name expr (... ...)) (begin expr (... ...))))))))",
      "",
    ],
    ["(be-like-begin sequence) (sequence 1 2 3 4)", "4"],
    ["(define-syntax tail (syntax-rules () ((_ a ... z) 'z))) (tail 1 2 3)", "3"],
    ["(define-syntax mid (syntax-rules () ((_ a b ... c d) '(b ...)))) (mid 1 2 3 4 5)", "(2 3)"],
    ["(define-syntax vec (syntax-rules () ((_ #(a ...)) '(a ...)))) (vec #(1 2 3))", "(1 2 3)"],
    [
      "(define-syntax nest (syntax-rules () ((_ (a b ...) ...) '((b ... a) ...)))) (nest (1 2 3) (4 5))",
      "((2 3 1) (5 4))",
    ],
    [
      "(define-syntax flat (syntax-rules () ((_ (a ...) ...) '(a ... ...)))) (flat (1 2) (3) (4 5))",
      "(1 2 3 4 5)",
    ],
    [
      "(define-syntax my-elli (syntax-rules ::: () ((_ a :::) (list a :::)))) (my-elli 1 2 3)",
      "(1 2 3)",
    ],
    [
      "(define-syntax lit (syntax-rules (=>) ((_ a => b) (list a b)) ((_ a b c) 'no))) (list (lit 1 => 2) (lit 1 2 3))",
      "((1 2) no)",
    ],
    ["(define-syntax under (syntax-rules () ((_ _ x) x))) (under 1 2)", "2"],
    ["(define-syntax dot (syntax-rules () ((_ a . b) 'b))) (dot 1 2 3)", "(2 3)"],
    [
      "(define-syntax while (syntax-rules () ((_ c body ...) (let lp () (when c body ... (lp)))))) (define i 0) (while (< i 10) (set! i (+ i 1))) i",
      "10",
    ],
    [
      "(define-syntax my-if (syntax-rules () ((_ c t e) (cond (c t) (else e))))) (let ((else #f)) (my-if #f 1 2))",
      "2",
    ],
    ["(define (f) (define-syntax local (syntax-rules () ((_ x) (* x 2)))) (local 21)) (f)", "42"],
    [
      "(define-syntax count-to-2_ (syntax-rules (_) ((_) 0) ((_ _) 1) ((_ _ _) 2) ((x . y) 'fail))) (list (count-to-2_ _ _) (count-to-2_) (count-to-2_ a b))",
      "(2 0 fail)",
    ],
    [
      "(define-syntax elli-lit (syntax-rules ... (...) ((_ x) '(x ...)))) (elli-lit 100)",
      "(100 ...)",
    ],
    [
      "(define-syntax jabberwocky (syntax-rules () ((_ hatter) (begin (define march-hare 42) (define-syntax hatter (syntax-rules () ((_) march-hare))))))) (jabberwocky mad-hatter) (mad-hatter)",
      "42",
    ],
    [
      "(define-syntax def2 (syntax-rules () ((_ a b v) (begin (define a v) (define b v))))) (def2 p q 9) (list p q)",
      "(9 9)",
    ],
  ]);
});

Deno.test("5 program structure: internal definitions, define-record-type", () => {
  table([
    ["(define (f x) (define y (* x 2)) (define (g) (+ y 1)) (g)) (f 5)", "11"],
    ["(let () (define x 1) (begin (define y 2)) (+ x y))", "3"],
    ["(define ((curried a) b) (list a b)) ((curried 1) 2)", "(1 2)"],
    ["(define-record-type <pare> (kons x y) pare? (x kar set-kar!) (y kdr))", ""],
    ["(pare? (kons 1 2))", "#t"],
    ["(pare? (cons 1 2))", "#f"],
    ["(kar (kons 1 2))", "1"],
    ["(kdr (kons 1 2))", "2"],
    ["(let ((k (kons 1 2))) (set-kar! k 3) (kar k))", "3"],
    ["(guard (e (#t 'type-error)) (kar (cons 1 2)))", "type-error"],
    [
      "(define-record-type node (make-node val) node? (val node-val) (next node-next set-node-next!)) (node-next (make-node 1))",
      "#f",
    ],
  ]);
});
