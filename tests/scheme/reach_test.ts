/**
 * The reach analysis (scheme/analysis): what a top-level form defines, assigns and mentions,
 * read without expanding it, and the closure of root forms over a program.
 */
import assert from "node:assert/strict";
import { ProgramFacts, readAll, topLevelFacts } from "../../scheme/mod.ts";

const facts = (src: string, macros: string[] = []) =>
  topLevelFacts(readAll(src)[0], { macros: new Set(macros), quotedDefiners: new Set(["deftool"]) });

Deno.test("definitions: procedures and values, curried, values, records, quoted definers, macro uses", () => {
  assert.deepEqual([...facts("(define (f x) x)").defines], [["f", "procedure"]]);
  assert.deepEqual([...facts("(define ((g a) b) a)").defines], [["g", "procedure"]]);
  assert.deepEqual([...facts("(define h (lambda (x) x))").defines], [["h", "procedure"]]);
  assert.deepEqual([...facts("(define v (vector 1))").defines], [["v", "value"]]);
  assert.deepEqual([...facts("(define-values (a b) (values 1 2))").defines].sort(), [
    ["a", "value"],
    ["b", "value"],
  ]);
  const rec = facts("(define-record-type point (make-point x) point? (x point-x))").defines;
  assert.ok(rec.has("make-point") && rec.has("point?") && rec.has("point-x"));
  assert.deepEqual([...facts("(deftool 'shout :handler f)").defines], [["shout", "procedure"]]);
  assert.deepEqual(
    [...facts("(begin (define a 1) (define (b) 2))").defines],
    [["a", "value"], ["b", "procedure"]],
  );
  assert.ok(facts("(my-def foo 1)", ["my-def"]).defines.has("foo"), "a macro use may define");
  assert.deepEqual([...facts("(hook :post (lambda () (set! x 1)))").assigns], ["x"]);
});

Deno.test("a datum with a cycle is walked once, and marked shared", () => {
  const f = facts("(define loop '#0=(a b . #0#))");
  assert.ok(f.shared);
  assert.ok(f.mentions.has("a") && f.mentions.has("b"));
  assert.equal(facts("(define (f) '(a b))").shared, false);
});

Deno.test("reach: definitions, assignments and value touches, to a fixed point; eval reaches all", () => {
  const program = new ProgramFacts(readAll(`
(define (a) (b))
(define (b) c)
(define c (vector 1))
(vector-set! c 0 2)
(define (unrelated) 1)
(set! b (lambda () 3))
(define (e) (eval 'x))
`));
  assert.deepEqual(program.reach([0]).forms, [0, 1, 2, 3, 5]);
  assert.equal(program.reach([0]).dynamic, false);
  const all = program.reach([6]);
  assert.ok(all.dynamic);
  assert.deepEqual(all.forms, [0, 1, 2, 3, 4, 5, 6]);
});

Deno.test("reach: a form that changes a reached name through a procedure it calls is reached (a top-level call, a hook, a macro use)", () => {
  const program = new ProgramFacts(readAll(`
(define (helper) "safe")
(define (evil!) (set! helper (lambda () "evil")))
(evil!)
(hook :post (lambda () (evil!)))
(define-syntax swap! (syntax-rules () ((_) (set! helper (lambda () "swapped")))))
(when #t (swap!))
(define (g) (helper))
(define (other) (string-append "a" "b"))
(other)
`));
  assert.deepEqual(program.reach([6]).forms, [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual([...program.effectsOf(2)], ["helper"]);
  assert.deepEqual([...program.effectsOf(8)], []);
});
