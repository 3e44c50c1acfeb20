// Libraries: strict import, cond-expand, (scheme list), (scheme sort), (scheme hash-table),
// define-library and host-granted libraries.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Interpreter, SchemeError, write } from "../../scheme/mod.ts";
import { errorOf, make, table } from "./helpers.ts";

Deno.test("import: an unknown library is an error naming it; known ones are accepted", () => {
  const { s } = make();
  const e = errorOf(s, "(import (scheme base) (no such lib))");
  ok(e instanceof SchemeError && e.message.includes("unknown library (no such lib)"), e.message);
  table([
    ["(import (scheme base) (scheme char) (scheme complex) (scheme time) (srfi 9)) 1", "1"],
    ["(import (only (scheme base) car) (rename (scheme write) (display show))) 2", "2"],
  ], s);
});

Deno.test("cond-expand: features, library tests, and, or, not, else", () => {
  table([
    ["(cond-expand (r7rs 'r7rs) (else 'other))", "r7rs"],
    ["(cond-expand ((and ratios (not no-such-feature)) 'yes) (else 'no))", "yes"],
    ["(cond-expand ((or no-such-feature full-unicode) 'yes) (else 'no))", "yes"],
    ["(cond-expand ((library (scheme list)) 'has) (else 'no))", "has"],
    ["(cond-expand ((library (no such)) 'has) (else 'no))", "no"],
    ["(cond-expand (no-such-feature 1))", ""],
    ["(if (memq 'exact-complex (features)) 'listed 'missing)", "listed"],
    [
      "(define-library (my cond) (export x) (cond-expand (r7rs (begin (define x 7))))) (import (my cond)) x",
      "7",
    ],
  ]);
});

Deno.test("(scheme list): SRFI 1", () => {
  table([
    ["(import (scheme list)) (fold cons* '() '(a b c) '(1 2 3))", "(c 3 b 2 a 1)"],
    ["(fold-right cons '() '(1 2 3))", "(1 2 3)"],
    ["(reduce + 0 '(1 2 3 4))", "10"],
    ["(list (iota 3) (iota 3 1) (iota 3 0 2))", "((0 1 2) (1 2 3) (0 2 4))"],
    ["(list (first '(1 2 3)) (third '(1 2 3)) (last '(1 2 3)))", "(1 3 3)"],
    ["(call-with-values (lambda () (partition even? '(1 2 3 4))) list)", "((2 4) (1 3))"],
    [
      "(list (take '(1 2 3) 2) (drop '(1 2 3) 2) (take-right '(1 2 3) 1) (drop-right '(1 2 3) 1))",
      "((1 2) (3) (3) (1 2))",
    ],
    [
      "(list (find even? '(1 3 4 5)) (find-tail even? '(1 4 5)) (list-index even? '(1 3 4)))",
      "(4 (4 5) 2)",
    ],
    [
      "(list (any odd? '(2 4 5)) (every odd? '(1 3)) (any < '(1 5) '(2 4)) (count even? '(1 2 4)))",
      "(#t #t #t 2)",
    ],
    ["(list (delete 2 '(1 2 3 2)) (delete-duplicates '(a b a c b)))", "((1 3) (a b c))"],
    [
      "(list (filter-map (lambda (x) (and (odd? x) (* x x))) '(1 2 3)) (append-map list '(1 2)))",
      "((1 9) (1 2))",
    ],
    [
      "(list (lset-union eq? '(a b) '(b c)) (lset-intersection eq? '(a b c) '(b c d)) (lset-difference eqv? '(1 2 3) '(2)))",
      "((a b c) (b c) (1 3))",
    ],
    [
      "(list (unfold (lambda (x) (> x 3)) square (lambda (x) (+ x 1)) 1) (list-tabulate 3 -))",
      "((1 4 9) (0 -1 -2))",
    ],
    [
      "(list (circular-list? (circular-list 1 2)) (dotted-list? '(1 . 2)) (proper-list? '(1)))",
      "(#t #t #t)",
    ],
    ["(call-with-values (lambda () (span even? '(2 4 5 6))) list)", "((2 4) (5 6))"],
    [
      "(list (alist-delete 'a '((a . 1) (b . 2) (a . 3))) (zip '(1 2) '(a b)))",
      "(((b . 2)) ((1 a) (2 b)))",
    ],
  ]);
});

Deno.test("(scheme sort): SRFI 132", () => {
  table([
    ["(import (scheme sort)) (list-sort < '(3 1 2))", "(1 2 3)"],
    ["(vector-sort < #(5 3 4))", "#(3 4 5)"],
    ["(let ((v (vector 3 1 2))) (vector-sort! v <) v)", "#(1 2 3)"],
    ["(list (list-sorted? < '(1 2 2 3)) (vector-sorted? < #(2 1)))", "(#t #f)"],
    [
      "(list (list-merge < '(1 3) '(2 4)) (list-delete-neighbor-dups = '(1 1 2 2 1)))",
      "((1 2 3 4) (1 2 1))",
    ],
    [
      "(list-stable-sort (lambda (a b) (< (car a) (car b))) '((1 . a) (0 . b) (1 . c)))",
      "((0 . b) (1 . a) (1 . c))",
    ],
    ["(vector-find-median < #(5 1 3) #f)", "3"],
  ]);
  const { s } = make();
  const e = errorOf(s, "(import (scheme sort)) (vector-sort! '#(3 1 2) <)");
  ok(/immutable/.test(e.message), e.message);
});

Deno.test("(scheme hash-table): SRFI 125 and SRFI 69 names", () => {
  table([
    [
      "(import (scheme hash-table)) (define h (make-hash-table equal?)) (hash-table-set! h '(1 2) 'a \"k\" 'b) (hash-table-size h)",
      "2",
    ],
    [
      "(list (hash-table-ref/default h (list 1 2) #f) (hash-table-ref h \"k\") (hash-table-ref h 'zz (lambda () 'none)))",
      "(a b none)",
    ],
    ['(hash-table-update!/default h "k" (lambda (v) (list v)) #f) (hash-table-ref h "k")', "(b)"],
    [
      '(hash-table-delete! h "k") (list (hash-table-contains? h "k") (hash-table-size h))',
      "(#f 1)",
    ],
    [
      '(define s (make-hash-table string=?)) (hash-table-set! s "a" 1 "b" 2) (hash-table-fold s (lambda (k v acc) (+ v acc)) 0)',
      "3",
    ],
    ["(hash-table-fold (lambda (k v acc) (+ v acc)) 10 s)", "13"],
    [
      "(list-sort (lambda (a b) (string<? (car a) (car b))) (hash-table->alist s))",
      '(("a" . 1) ("b" . 2))',
    ],
    [
      "(define n (make-hash-table eqv?)) (hash-table-set! n 1.5 'x 100000000000000000000 'y) (list (hash-table-ref/default n 1.5 #f) (hash-table-ref/default n (expt 10 20) #f))",
      "(x y)",
    ],
    ["(hash-table-intern! n 7 (lambda () 'new))", "new"],
    [
      "(define c (make-hash-table (lambda (a b) (= (modulo a 10) (modulo b 10))) (lambda (x) (modulo x 10)))) (hash-table-set! c 3 'three) (hash-table-ref/default c 13 #f)",
      "three",
    ],
    [
      "(define a (alist->hash-table '((x . 1) (y . 2)) eq?)) (hash-table-count (lambda (k v) (> v 1)) a)",
      "1",
    ],
    ["(hash-table? (hash-table-copy a))", "#t"],
    [
      "(let ((h (hash-table-copy a #f))) (guard (e (#t 'immutable)) (hash-table-set! h 'z 3)))",
      "immutable",
    ],
  ]);
});

Deno.test("define-library and host-granted libraries", () => {
  const s = new Interpreter({ libraries: { "host util": "(define (triple x) (* 3 x))" } });
  table([
    ["(import (host util)) (triple 5)", "15"],
    [
      "(define-library (geometry) (export area) (import (scheme base)) (begin (define (area r) (* 3 r r)))) (import (geometry)) (area 2)",
      "12",
    ],
  ], s);
  // a program that names a library procedure before importing it agrees with the import
  const t = new Interpreter();
  assertEquals(
    t.evaluateSync("(define (f l) (filter odd? l)) (import (scheme list)) (f '(1 2 3))") !==
      undefined,
    true,
  );
});

Deno.test("a library's names are the same symbols in every interpreter, before and after it loads", () => {
  // the interpreters are created before any program runs: library names become static symbols
  // when first read (start-up collects no name), a program's own names stay its own
  const a = new Interpreter(), b = new Interpreter();
  const before = a.symbolCount();
  const sortName = a.evaluateSync("'list-sort");
  assertEquals(a.symbolCount(), before, "a library name is not the program's own symbol");
  assertEquals(b.evaluateSync("'list-sort") === sortName, true);
  assertEquals(a.evaluateSync("(import (scheme sort)) (eq? 'list-sort (quote list-sort))"), true);
  const own = a.symbolCount();
  a.evaluateSync("(define a-name-of-its-own 1)");
  assertEquals(a.symbolCount(), own + 1);
  assertEquals(b.evaluateSync("'a-name-of-its-own") === a.symbol("a-name-of-its-own"), false);
  // names a program reads before importing the library are the ones the library binds
  assertEquals(
    write(
      b.evaluateSync(
        "(define l '(3 1 2)) (define f 'delete-duplicates) (import (scheme list)) (list f (delete-duplicates '(1 1 2)))",
      ),
    ),
    "(delete-duplicates (1 2))",
  );
});
