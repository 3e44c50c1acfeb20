// R7RS sections 6.10-6.13: control features, exceptions, eval, input and output.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ev, make, table } from "./helpers.ts";
import { Interpreter, write } from "../../scheme/mod.ts";

Deno.test("6.10 procedures, apply, map, for-each", () => {
  table([
    ["(procedure? car)", "#t"],
    ["(procedure? 'car)", "#f"],
    ["(procedure? (lambda (x) (* x x)))", "#t"],
    ["(procedure? '(lambda (x) (* x x)))", "#f"],
    ["(call-with-current-continuation procedure?)", "#t"],
    ["(apply + (list 3 4))", "7"],
    ["(apply + 1 2 '(3 4))", "10"],
    [
      "(define compose (lambda (f g) (lambda args (f (apply g args))))) ((compose sqrt *) 12 75)",
      "30",
    ],
    ["(map cadr '((a b) (d e) (g h)))", "(b e h)"],
    ["(map (lambda (n) (expt n n)) '(1 2 3 4 5))", "(1 4 27 256 3125)"],
    ["(map + '(1 2 3) '(10 20 30))", "(11 22 33)"],
    ["(map + '(1 2 3) '(10 20))", "(11 22)"],
    ["(let ((count 0)) (map (lambda (ignored) (set! count (+ count 1)) count) '(a b)))", "(1 2)"],
    [
      "(let ((v (make-vector 5))) (for-each (lambda (i) (vector-set! v i (* i i))) '(0 1 2 3 4)) v)",
      "#(0 1 4 9 16)",
    ],
    [
      "(let ((r '())) (for-each (lambda (a b) (set! r (cons (+ a b) r))) '(1 2) '(3 4)) r)",
      "(6 4)",
    ],
  ]);
});

Deno.test("6.10 call/cc", () => {
  table([
    [
      "(call-with-current-continuation (lambda (exit) (for-each (lambda (x) (if (negative? x) (exit x))) '(54 0 37 -3 245 19)) #t))",
      "-3",
    ],
    [
      "(define list-length (lambda (obj) (call-with-current-continuation (lambda (return) (letrec ((r (lambda (obj) (cond ((null? obj) 0) ((pair? obj) (+ (r (cdr obj)) 1)) (else (return #f)))))) (r obj)))))) (list (list-length '(1 2 3 4)) (list-length '(a b . c)))",
      "(4 #f)",
    ],
    ["(+ 1 (call/cc (lambda (k) (+ 10 (k 1)))))", "2"],
    // re-entrant continuation within one evaluation
    [
      "(let ((k #f) (n 0)) (set! n (+ (call/cc (lambda (c) (set! k c) 1)) n)) (if (< n 5) (k 1) n))",
      "5",
    ],
    // generator-style re-entry
    [
      "(define (gen lst) (define return #f) (define resume #f) (define (g) (call/cc (lambda (r) (set! return r) (if resume (resume #f) (begin (for-each (lambda (x) (call/cc (lambda (k) (set! resume k) (return x)))) lst) (return 'done)))))) g) (define g (gen '(a b c))) (let* ((x (g)) (y (g)) (z (g)) (w (g))) (list x y z w))",
      "(a b c done)",
    ],
    ["(call-with-values (lambda () (values 4 5)) (lambda (a b) b))", "5"],
    ["(call-with-values * -)", "-1"],
    ["(call-with-values (lambda () (values)) list)", "()"],
    [
      "(+ 1 (call/cc (lambda (k) (dynamic-wind (lambda () 1) (lambda () (k 41)) (lambda () 2)))))",
      "42",
    ],
  ]);
});

Deno.test("6.10 dynamic-wind", () => {
  table([
    [
      "(let ((path '()) (c #f)) (let ((add (lambda (s) (set! path (cons s path))))) (dynamic-wind (lambda () (add 'connect)) (lambda () (add (call-with-current-continuation (lambda (c0) (set! c c0) 'talk1)))) (lambda () (add 'disconnect))) (if (< (length path) 4) (c 'talk2) (reverse path))))",
      "(connect talk1 disconnect connect talk2 disconnect)",
    ],
    [
      "(let ((r '())) (guard (e (#t (set! r (cons 'handled r)))) (dynamic-wind (lambda () (set! r (cons 'before r))) (lambda () (raise 'x)) (lambda () (set! r (cons 'after r))))) (reverse r))",
      "(before after handled)",
    ],
    [
      "(let ((r '())) (call/cc (lambda (k) (dynamic-wind (lambda () (set! r (cons 1 r))) (lambda () (dynamic-wind (lambda () (set! r (cons 2 r))) (lambda () (k 0)) (lambda () (set! r (cons 3 r))))) (lambda () (set! r (cons 4 r)))))) (reverse r))",
      "(1 2 3 4)",
    ],
  ]);
});

Deno.test("6.11 exceptions", () => {
  table([
    [
      "(call-with-current-continuation (lambda (k) (with-exception-handler (lambda (e) (k (list 'condition e))) (lambda () (+ 1 (raise 'an-error))))))",
      "(condition an-error)",
    ],
    [
      '(with-exception-handler (lambda (con) (cond ((string? con) 10) (else 20))) (lambda () (+ (raise-continuable "should be a number") 23)))',
      "33",
    ],
    [
      "(guard (e (#t (error-object-message e))) (with-exception-handler (lambda (e) 'ignored) (lambda () (raise 'boom))))",
      '"exception handler returned from non-continuable raise:"',
    ],
    ['(error-object? (guard (e (#t e)) (error "x")))', "#t"],
    ["(error-object? 'x)", "#f"],
    [
      "(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e)))) (vector-ref (vector 1) 5))",
      '("vector-ref: index out of range:" (5))',
    ],
    [
      "(guard (e ((symbol? e) 'inner)) (with-exception-handler (lambda (e) (raise 'converted)) (lambda () (raise 'orig))))",
      "inner",
    ],
    [
      "(with-exception-handler (lambda (e) 0) (lambda () (with-exception-handler (lambda (e) (+ 1 (raise-continuable e))) (lambda () (+ 10 (raise-continuable 'x))))))",
      "11",
    ],
    [
      '(guard (e ((string? e) e)) (with-exception-handler (lambda (e) (raise "outer")) (lambda () (car 5))))',
      '"outer"',
    ],
    ['(read-error? (guard (e (#t e)) (read (open-input-string "(1 2"))))', "#t"],
    ['(file-error? (guard (e (#t e)) (error "x")))', "#f"],
  ]);
});

Deno.test("6.12 eval and environments", () => {
  table([
    ["(eval '(* 7 3) (environment '(scheme base)))", "21"],
    ["(let ((f (eval '(lambda (f x) (f x x)) (null-environment 5)))) (f + 10))", "20"],
    ["(eval '(define zz 5) (interaction-environment)) zz", "5"],
    ["(define e2 (environment '(scheme base))) (eval '(define q 1) e2) (eval 'q e2)", "1"],
    ["(guard (e (#t 'unbound)) (eval 'q (environment '(scheme base))))", "unbound"],
    ["(eval '(if #t 'yes 'no))", "yes"],
  ]);
});

Deno.test("6.13 string ports and I/O", () => {
  const { s, out } = make();
  table([
    ['(define p (open-input-string "hello (1 2) world"))', ""],
    ["(read-char p)", "#\\h"],
    ["(peek-char p)", "#\\e"],
    ["(read-string 4 p)", '"ello"'],
    ["(read p)", "(1 2)"],
    ["(read p)", "world"],
    ["(eof-object? (read p))", "#t"],
    ["(eof-object? (read-char p))", "#t"],
    ['(read-line (open-input-string "ab\\ncd"))', '"ab"'],
    ['(let ((p (open-input-string "ab\\ncd"))) (read-line p) (read-line p))', '"cd"'],
    [
      '(let ((o (open-output-string))) (write \'abc o) (display " " o) (write "x\\n" o) (write-char #\\z o) (get-output-string o))',
      '"abc \\"x\\\\n\\"z"',
    ],
    ['(let ((o (open-output-string))) (write-string "hello" o 1 3) (get-output-string o))', '"el"'],
    ["(call-with-output-string (lambda (p) (display 42 p)))", '"42"'],
    [
      "(let ((o (open-output-string))) (write (let ((x (list 1 2))) (set-cdr! (cdr x) x) x) o) (get-output-string o))",
      '"#0=(1 2 . #0#)"',
    ],
    [
      "(let ((o (open-output-string))) (let ((x (list 1))) (write-shared (list x x) o)) (get-output-string o))",
      '"(#0=(1) #0#)"',
    ],
    [
      "(let ((o (open-output-string))) (let ((x (list 1))) (write (list x x) o)) (get-output-string o))",
      '"((1) (1))"',
    ],
    [
      '(let ((o (open-output-string))) (write-simple \'(a "b" #\\c) o) (get-output-string o))',
      '"(a \\"b\\" #\\\\c)"',
    ],
    ["(eof-object)", "#<eof>"],
    [
      "(let ((b (open-output-bytevector))) (write-u8 1 b) (write-u8 2 b) (get-output-bytevector b))",
      "#u8(1 2)",
    ],
    [
      "(let ((b (open-input-bytevector #u8(7 8)))) (list (read-u8 b) (peek-u8 b) (read-u8 b) (eof-object? (read-u8 b))))",
      "(7 8 8 #t)",
    ],
    ['(input-port? (open-input-string ""))', "#t"],
    [
      "(let ((bv (bytevector 1 2 3 4 5))) (read-bytevector! bv (open-input-bytevector #u8(6 7 8 9 10)) 3 4) bv)",
      "#u8(1 2 3 6 5)",
    ],
    [
      "(let ((o (open-output-string))) (write '|+i| o) (write '|1x| o) (write 'abc o) (get-output-string o))",
      '"|+i||1x|abc"',
    ],
    ["(output-port? (current-output-port))", "#t"],
    ["(textual-port? (current-output-port))", "#t"],
    ['(display "hi") (newline) (write \'sym) (write-string "!")', ""],
  ], s);
  assertEquals(out.join(""), "hi\nsym!");
  assertEquals(
    ev(s, "(parameterize ((current-output-port (open-output-string))) (display 1) 'done)"),
    "done",
  );
  assertEquals(out.join(""), "hi\nsym!");
});

Deno.test("continuations called in tail position (returned as jumps, not thrown)", () => {
  const out: string[] = [];
  const s = new Interpreter({ stdout: (x) => out.push(x) });
  const v = (src: string) => write(s.evaluateSync(src));
  // the receiver escapes in tail position, from an if branch, after a resumed frame
  assertEquals(v("(+ 1 (call/cc (lambda (k) (if #t (k 41) 0))))"), "42");
  assertEquals(v("(let ((x (call/cc (lambda (k) (k 1))))) (* x 10))"), "10");
  // through dynamic-wind: the after thunk runs once
  assertEquals(
    v('(list (call/cc (lambda (k) (dynamic-wind (lambda () (display "[")) (lambda () (k \'out)) (lambda () (display "]"))))))'),
    "(out)",
  );
  assertEquals(out.join(""), "[]");
  // a generator whose yields and resumptions are all tail calls of continuations
  s.evaluateSync(`(define (make-gen n)
    (define return #f) (define resume #f)
    (define (start) (let loop ((i 0)) (if (< i n) (begin (call/cc (lambda (k) (set! resume k) (return i))) (loop (+ i 1))))) (return 'done))
    (lambda () (call/cc (lambda (r) (set! return r) (if resume (resume #f) (start))))))`);
  assertEquals(
    v("(let ((g (make-gen 5))) (let loop ((acc '())) (let ((x (g))) (if (eq? x 'done) (reverse acc) (loop (cons x acc))))))"),
    "(0 1 2 3 4)",
  );
  // a continuation called in tail position inside a host callback escapes to the outer evaluation
  s.definePrimitive("host-call", (f) => s.callSync(f));
  assertEquals(v("(call/cc (lambda (out) (host-call (lambda () (out 'escaped)))))"), "escaped");
  // multiple values through a jump
  assertEquals(v("(call-with-values (lambda () (call/cc (lambda (k) (k 1 2)))) list)"), "(1 2)");
});

Deno.test("continuations captured while a call's operands are evaluated re-enter independently", () => {
  const s = new Interpreter();
  // k1 is captured at the first operand, k2 at the second (after k1's first return); re-entering
  // k1 must not change the operands k2 resumes with, however the heap frame of the call is kept
  s.evaluateSync(`(define k1 #f) (define k2 #f) (define results '())
    (define (run)
      (let ((r (list (call/cc (lambda (c) (set! k1 c) 1))
                     (call/cc (lambda (c) (if (not k2) (set! k2 c)) 2))
                     (length results))))
        (set! results (cons r results))
        (cond ((= (length results) 1) (k1 10))
              ((= (length results) 2) (k2 20))
              (else (reverse results)))))`);
  assertEquals(write(s.evaluateSync("(run)")), "((1 2 0) (10 2 1) (1 20 2))");
  // the same through a closure call with three operands and a spill in the middle
  s.evaluateSync(`(define j #f) (define n 0)
    (define (f a b c) (list a b c))
    (define (deep k) (if (= k 0) (call/cc (lambda (c) (set! j c) 0)) (+ 1 (deep (- k 1)))))`);
  assertEquals(
    write(
      s.evaluateSync(
        "(let ((r (f 'a (deep 5000) 'c))) (set! n (+ n 1)) (if (< n 3) (j n) (list r n)))",
      ),
    ),
    "((a 5002 c) 3)",
  );
});
