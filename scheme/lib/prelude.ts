/**
 * Library procedures written in Scheme (so that they are resumable by the runtime: deep
 * recursion, `call/cc` and async primitives work inside their callbacks).
 *
 * @module
 */

import { FEATURES } from "./libraries.ts";

/** Scheme source of the prelude, compiled once into the shared base environment. */
export const PRELUDE = String.raw`
(define (call-with-values producer consumer)
  (apply consumer (%values->list (producer))))
(define (dynamic-wind before thunk after)
  (before)
  (let ((r (%dynamic-wind before thunk after)))
    (after)
    r))
(define (%all-pairs? ls)
  (or (null? ls) (and (pair? (car ls)) (%all-pairs? (cdr ls)))))
(define (%cars ls) (if (null? ls) '() (cons (car (car ls)) (%cars (cdr ls)))))
(define (%cdrs ls) (if (null? ls) '() (cons (cdr (car ls)) (%cdrs (cdr ls)))))
(define (map f l . ls)
  (if (null? ls)
      (let loop ((l l) (acc '()))
        (if (pair? l) (loop (cdr l) (cons (f (car l)) acc)) (reverse acc)))
      (let loop ((ls (cons l ls)) (acc '()))
        (if (%all-pairs? ls)
            (loop (%cdrs ls) (cons (apply f (%cars ls)) acc))
            (reverse acc)))))
(define (for-each f l . ls)
  (if (null? ls)
      (let loop ((l l))
        (if (pair? l) (begin (f (car l)) (loop (cdr l)))))
      (let loop ((ls (cons l ls)))
        (if (%all-pairs? ls) (begin (apply f (%cars ls)) (loop (%cdrs ls)))))))
(define (vector-map f v . vs)
  (list->vector (apply map f (vector->list v) (map vector->list vs))))
(define (vector-for-each f v . vs)
  (apply for-each f (vector->list v) (map vector->list vs)))
(define (string-map f s . ss)
  (list->string (apply map f (string->list s) (map string->list ss))))
(define (string-for-each f s . ss)
  (apply for-each f (string->list s) (map string->list ss)))
(define (member x l . cmp)
  (if (null? cmp)
      (%member x l)
      (let ((c (car cmp)))
        (let loop ((l l))
          (cond ((not (pair? l)) #f) ((c x (car l)) l) (else (loop (cdr l))))))))
(define (assoc x l . cmp)
  (if (null? cmp)
      (%assoc x l)
      (let ((c (car cmp)))
        (let loop ((l l))
          (cond ((not (pair? l)) #f) ((c x (car (car l))) (car l)) (else (loop (cdr l))))))))
(define (force p)
  (if (promise? p)
      (if (%promise-done? p)
          (%promise-value p)
          (let ((p2 ((%promise-value p))))
            (if (not (%promise-done? p))
                (%promise-update! (if (promise? p2) p2 (%make-done-promise p2)) p))
            (force p)))
      p))
(define (make-parameter v . conv)
  (if (null? conv)
      (%make-parameter v #f)
      (%make-parameter ((car conv) v) (car conv))))
(define (list-sort less? l)
  (define (merge a b)
    (cond ((null? a) b) ((null? b) a)
          ((less? (car b) (car a)) (cons (car b) (merge a (cdr b))))
          (else (cons (car a) (merge (cdr a) b)))))
  (define (sort l n)
    (if (<= n 1)
        (if (= n 1) (list (car l)) '())
        (let ((h (quotient n 2)))
          (merge (sort l h) (sort (list-tail l h) (- n h))))))
  (sort l (length l)))
(define (sort l less?) (if (vector? l) (list->vector (list-sort less? (vector->list l))) (list-sort less? l)))
(define (features) '(${FEATURES.join(" ")}))
(define (read-error? x) (and (error-object? x) (eq? (error-object-kind x) 'read)))
(define (file-error? x) (and (error-object? x) (eq? (error-object-kind x) 'file)))
`;

/** Per-interpreter prelude (procedures that use the interpreter's own ports). */
export const LOCAL_PRELUDE = String.raw`
(define (call-with-port port proc)
  (let ((r (proc port))) (close-port port) r))
(define (call-with-output-string proc)
  (let ((p (open-output-string))) (proc p) (get-output-string p)))
`;

/**
 * A small `(chibi test)` / SRFI 64 subset, installed by `(import (chibi test))` or
 * `(import (srfi 64))`: `test`, `test-equal`, `test-assert`, `test-error`, `test-values`,
 * `test-begin`, `test-end`. Inexact numbers compare approximately (relative 1e-6). The outermost
 * `test-end` prints a summary and raises an error if any test failed.
 */
export const TEST_LIBRARY = String.raw`
(define %test-counts (vector 0 0))
(define %test-depth 0)
(define (%test-approx=? a b)
  (cond ((and (number? a) (number? b) (not (real? a)) (not (real? b)))
         (and (%test-approx=? (real-part a) (real-part b))
              (%test-approx=? (imag-part a) (imag-part b))))
        ((and (number? a) (number? b) (real? a) (real? b) (inexact? a) (inexact? b))
         (or (= a b) (and (nan? a) (nan? b))
             (< (abs (- a b)) (* 1e-6 (max 1 (abs a))))))
        ((and (pair? a) (pair? b))
         (and (%test-approx=? (car a) (car b)) (%test-approx=? (cdr a) (cdr b))))
        ((and (vector? a) (vector? b) (= (vector-length a) (vector-length b)))
         (%test-approx=? (vector->list a) (vector->list b)))
        (else (equal? a b))))
(define (%test-run name expected thunk)
  (let ((res (guard (e (#t (list 'error: (if (error-object? e) (error-object-message e) e))))
               (thunk))))
    (if (%test-approx=? expected res)
        (vector-set! %test-counts 0 (+ 1 (vector-ref %test-counts 0)))
        (begin
          (vector-set! %test-counts 1 (+ 1 (vector-ref %test-counts 1)))
          (display "FAIL: ") (write name) (display ": expected ") (write expected)
          (display " but got ") (write res) (newline)))))
(define-syntax test
  (syntax-rules ()
    ((_ name expected expr) (%test-run name expected (lambda () expr)))
    ((_ expected expr) (%test-run 'expr expected (lambda () expr)))))
(define-syntax test-equal
  (syntax-rules () ((_ . args) (test . args))))
(define-syntax test-assert
  (syntax-rules ()
    ((_ name expr) (%test-run name #t (lambda () (and expr #t))))
    ((_ expr) (%test-run 'expr #t (lambda () (and expr #t))))))
(define-syntax test-error
  (syntax-rules ()
    ((_ name expr) (%test-run name #t (lambda () (guard (e (#t #t)) expr #f))))
    ((_ expr) (%test-run 'expr #t (lambda () (guard (e (#t #t)) expr #f))))))
(define-syntax test-values
  (syntax-rules ()
    ((_ expected expr)
     (%test-run 'expr (call-with-values (lambda () expected) list)
                (lambda () (call-with-values (lambda () expr) list))))))
(define (test-begin . name) (set! %test-depth (+ %test-depth 1)))
(define (test-end . name)
  (set! %test-depth (- %test-depth 1))
  (if (<= %test-depth 0)
      (let ((passed (vector-ref %test-counts 0)) (failed (vector-ref %test-counts 1)))
        (display passed) (display " tests passed, ") (display failed) (display " failed")
        (newline)
        (if (> failed 0) (error "tests failed:" failed)))))
`;
