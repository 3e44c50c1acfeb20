// The body compiler (scheme/jit/): a hot procedure body becomes one generated JS function, and
// nothing a program can observe changes — values, output, errors and backtraces, continuations
// re-entered at every kind of point, limits, redefined operators. Each program below runs in an
// interpreter that never compiles (`jit: false`) and in one that compiles every body at its first
// call (`jit: 1`), and the two must agree; each test also checks that the procedures it names
// really ran compiled, so that it cannot pass on the tree alone.
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Closure } from "../../scheme/base/mod.ts";
import {
  Interpreter,
  type InterpreterOptions,
  SchemeError,
  SchemeLimitError,
  write,
} from "../../scheme/mod.ts";
import { compiledSource, jitStats } from "../../scheme/jit/jit.ts";

interface Outcome {
  values: string[];
  out: string;
  error?: string;
  report?: string;
}

function runAll(opts: InterpreterOptions, forms: string[]): { it: Interpreter; o: Outcome } {
  let out = "";
  const it = new Interpreter({ ...opts, stdout: (s) => out += s });
  const values: string[] = [];
  const o: Outcome = { values, out: "" };
  for (const src of forms) {
    try {
      values.push(write(it.evaluateSync(src, { file: "jit.scm" })));
    } catch (e) {
      o.error = `${(e as Error).name}: ${(e as Error).message}`;
      if (e instanceof SchemeError) o.report = e.report();
      break;
    }
  }
  o.out = out;
  return { it, o };
}

/** Runs `forms` both ways; returns the compiled interpreter's outcome after checking they agree. */
function agree(forms: string[], compiled: string[], opts: InterpreterOptions = {}): Outcome {
  const tree = runAll({ ...opts, jit: false }, forms).o;
  const { it, o } = runAll({ ...opts, jit: 1 }, forms);
  assertEquals(o, tree);
  for (const name of compiled) {
    const lam = (it.lookup(name) as Closure).lam;
    assert(compiledSource(lam) !== undefined, `${name} did not run compiled`);
  }
  return o;
}

Deno.test("a body is compiled after `jit` calls and not before", () => {
  const it = new Interpreter({ jit: 3 });
  it.evaluateSync("(define (sq x) (* x x))");
  const lam = (it.lookup("sq") as Closure).lam;
  it.evaluateSync("(sq 1) (sq 2)");
  assertEquals(compiledSource(lam), undefined);
  assertEquals(it.evaluateSync("(sq 3)"), 9); // the third call compiles, and runs compiled
  assert(compiledSource(lam) !== undefined);
  assertEquals(it.evaluateSync("(sq 4)"), 16);
  const off = new Interpreter({ jit: false });
  off.evaluateSync("(define (sq x) (* x x)) (sq 1) (sq 2) (sq 3) (sq 4)");
  assertEquals(compiledSource((off.lookup("sq") as Closure).lam), undefined);
});

Deno.test("fast operations leave the fixnums, meet non-numbers and redefined operators as the tree does", () => {
  const o = agree([
    "(define (inc x) (+ x 1)) (define (dec x) (- x 1)) (define (lt a b) (if (< a b) 'lt 'ge))",
    "(list (inc 1) (inc (inc 9007199254740991)) (dec -9007199254740991) (inc 1.5) (inc 1/2))",
    "(list (lt 1 2) (lt 2 1) (lt 1.5 2) (lt 1/2 1/3))",
    "(define (nul x) (if (null? x) 'null (if (pair? x) 'pair (if (not x) 'false 'other))))",
    "(map nul (list '() '(1) #f 3))",
    "(define (first p) (car p)) (first '(1 2)) (first '(3 4))",
    "(define car cdr) (define + (lambda (a b) (* a b))) (define null? pair?)",
    "(list (first '(1 2)) (inc 5) (nul '(1)) (nul '()))",
    "(inc 'a)",
  ], ["inc", "dec", "lt", "nul", "first"]);
  assertEquals(o.values[1], "(2 9007199254740993 -9007199254740992 2.5 3/2)");
  assertEquals(o.values[7], "((2) 5 null other)");
  assert(o.error?.includes("*"), o.error); // `+` now multiplies: the error names `*`
});

Deno.test("car, cdr, not, null? and pair? written inline fail, and give way to a host's, as the tree does", () => {
  const forms = [
    "(define (head p) (car p)) (define (tail p) (cdr p)) (define (flags x) (list (not x) (null? x) (pair? x)))",
    "(list (head '(1 2)) (tail '(1 2)) (flags '()) (flags '(1)) (flags #f))",
    "(head 5)",
  ];
  const o = agree(forms, ["head", "tail", "flags"]);
  assertEquals(o.values[1], "(1 (2) (#f #t #f) (#f #f #t) (#t #f #f))");
  assertEquals(o.error, "SchemeError: car: expected pair, got 5");
  assert(o.report?.includes("at head"), o.report);
  // a host primitive named car is not the standard car
  const host = agree(forms.slice(0, 2), ["head"], {
    primitives: { car: (x: unknown) => write(x) },
  });
  assertEquals(host.values[1], '("(1 2)" (2) (#f #t #f) (#f #f #t) (#t #f #f))');
});

Deno.test("variables, set!, let, sequences, closures and loops", () => {
  const o = agree([
    `(define total 0)
     (define (make-counter)
       (let ((n 0) (step 1))
         (lambda () (set! n (+ n step)) (set! total (+ total 1)) n)))
     (define c (make-counter))
     (define (sum-to n) (let loop ((i 0) (acc 0)) (if (> i n) acc (loop (+ i 1) (+ acc i)))))`,
    "(c) (c) (list (c) total (sum-to 100000))",
    `(define (classify x)
       (cond ((and (number? x) (> x 10)) (display "big ") 'big)
             ((string? x) (string-append x "!"))
             (else (let* ((y (list x x)) (z (length y))) (vector y z)))))`,
    `(map classify (list 20 "hi" 'a 3))`,
  ], ["sum-to", "classify", "make-counter"]);
  assertEquals(o.values.at(-1), '(big "hi!" #((a a) 2) #((3 3) 2))');
  assertEquals(o.out, "big ");
});

Deno.test("continuations captured at every kind of point re-enter as in the tree", () => {
  // each procedure captures while one construct waits: a call's operator and operands, an if's
  // test, a let's init, a set!'s value, a sequence, a fast operation's operand, a primitive's
  // operand; the continuation is then re-entered twice, each time with another value
  const o = agree([
    `(define k #f) (define n 0) (define (grab v) (call/cc (lambda (c) (set! k c) v)))
     (define (in-call x) (list 'call (grab x) x))
     (define (in-operator x) ((grab (lambda (y) (list 'op y))) x))
     (define (in-if x) (if (grab x) 'yes 'no))
     (define (in-let x) (let ((a (grab x)) (b 2)) (list 'let a b)))
     (define (in-let2 x) (let ((b 2) (a (grab x)) (c 3)) (list 'let2 b a c)))
     (define (in-set x) (let ((a 0)) (set! a (grab x)) (list 'set a)))
     (define (in-seq x) (set! n (+ n 1)) (grab x) (list 'seq n))
     (define (in-seq2 x) (set! n 0) (set! n (+ n (grab x))) (set! n (* n 10)) (list 'seq2 n))
     (define (in-fast x) (+ 100 (grab x)))
     (define (in-prim x) (cons (grab x) 'tail))
     (define (in-prim2 x) (cons 'head (grab x)))
     (define (again proc v1 v2 v3)
       (let ((seen '()))
         (set! seen (cons (proc v1) seen))
         (if (< (length seen) 3) (k (if (= (length seen) 1) v2 v3)))
         (reverse seen)))`,
    "(again in-call 1 2 #f)",
    "(again in-operator 1 (lambda (y) (list 'op2 y)) (lambda (y) (list 'op3 y)))",
    "(again in-if 1 2 #f)",
    "(again in-let 1 2 #f)",
    "(again in-let2 1 2 #f)",
    "(again in-set 1 2 #f)",
    "(again in-seq 1 2 #f)",
    "(again in-seq2 1 2 3)",
    "(again in-fast 1 2 3)",
    "(again in-prim 1 2 #f)",
    "(again in-prim2 1 2 #f)",
  ], [
    "in-call",
    "in-operator",
    "in-if",
    "in-let",
    "in-let2",
    "in-set",
    "in-seq",
    "in-seq2",
    "in-fast",
    "in-prim",
    "in-prim2",
  ]);
  assertEquals(o.error, undefined);
  assertEquals(o.values.slice(1), [
    "((call 1 1) (call 2 1) (call #f 1))",
    "((op 1) (op2 1) (op3 1))",
    "(yes yes no)",
    "((let 1 2) (let 2 2) (let #f 2))",
    "((let2 2 1 3) (let2 2 2 3) (let2 2 #f 3))",
    "((set 1) (set 2) (set #f))",
    "((seq 1) (seq 1) (seq 1))",
    "((seq2 10) (seq2 20) (seq2 30))",
    "(101 102 103)",
    "((1 . tail) (2 . tail) (#f . tail))",
    "((head . 1) (head . 2) (head . #f))",
  ]);
});

Deno.test("dynamic-wind, exceptions and guard inside compiled bodies", () => {
  const o = agree([
    `(define log '())
     (define (note x) (set! log (cons x log)))
     (define (wound thunk) (dynamic-wind (lambda () (note 'in)) thunk (lambda () (note 'out))))
     (define (risky x) (if (> x 2) (raise (list 'too-big x)) (* x 10)))
     (define (safe x) (guard (e ((pair? e) (note e) -1)) (wound (lambda () (risky x)))))`,
    "(list (safe 1) (safe 2) (safe 3) (reverse log))",
    "(set! log '())",
    `(define saved #f)
     (define (gen) (wound (lambda () (call/cc (lambda (c) (set! saved c) 0)))))
     (define count 0)
     (define (run) (let ((v (gen))) (set! count (+ count 1)) (if (< count 3) (saved count) (list v count))))`,
    "(run)",
    "(reverse log)",
  ], ["note", "wound", "risky", "gen", "run"]); // (`safe` is one guard node: nothing to compile)
  assertEquals(o.error, undefined);
  assertEquals(o.values, [
    "",
    "(10 20 -1 (in out in out in out (too-big 3)))",
    "",
    "",
    "(2 3)",
    "(in out in out in out)",
  ]);
});

Deno.test("errors and backtraces from compiled bodies read as from the tree", () => {
  const o = agree([
    `(define (a x) (+ 1 (b x)))
     (define (b x) (car (list (c x))))
     (define (c x) (vector-ref (vector 1 2) x))`,
    "(a 0)",
    "(a 1)",
    "(a 5)",
  ], ["a", "b", "c"]);
  assert(o.report?.includes("at c"), o.report);
  const u = agree(["(define (h x) (if x (undefined-thing x) 0)) (h #f) (h #f)", "(h 1)"], ["h"]);
  assertEquals(u.error, "SchemeError: unbound variable: undefined-thing");
});

Deno.test("deep recursion in compiled bodies moves to the heap and comes back", () => {
  // (the spills pass through the compiled frames of `deep` until so many exceptions have passed
  // through it that it goes back to the tree: see the last tests)
  const compiled = jitStats.compiled;
  const o = agree(
    [
      "(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))",
      "(define (count-down n) (if (= n 0) 'done (count-down (- n 1))))",
      "(list (deep 100000) (count-down 1000000))",
    ],
    ["count-down"],
    { limits: { maxDepth: 1_000_000 } },
  );
  assertEquals(o.values.at(-1), "(100000 done)");
  assert(jitStats.compiled >= compiled + 2);
});

Deno.test("fuel, time and depth limits hold in compiled loops", () => {
  const loop = "(define (spin n) (if (< n 0) n (spin (+ n 1))))";
  for (
    const [limits, kind] of [[{ fuel: 100_000 }, "fuel"], [{ timeoutMs: 150 }, "deadline"]] as const
  ) {
    const it = new Interpreter({ jit: 1, limits });
    it.evaluateSync(loop);
    const t = performance.now();
    try {
      it.evaluateSync("(spin 0)");
      assert(false, "the loop ended");
    } catch (e) {
      assert(e instanceof SchemeLimitError, String(e));
      assertEquals(e.kind, kind);
    }
    assert(performance.now() - t < 5000);
    assert(compiledSource((it.lookup("spin") as Closure).lam) !== undefined);
  }
  const it = new Interpreter({ jit: 1, limits: { maxDepth: 5_000 } });
  it.evaluateSync("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))");
  try {
    it.evaluateSync("(deep 100000)");
    assert(false, "no depth error");
  } catch (e) {
    assert(e instanceof SchemeLimitError, String(e));
    assertEquals(e.kind, "depth");
  }
});

Deno.test("the generated source holds no program text, only integers the compiler chose", () => {
  const it = new Interpreter({ jit: 1 });
  const hostile = String.raw`"); Deno.exit(7); ("`;
  it.evaluateSync(String.raw`
    (define (evil x)
      (if (eq? x '|k0 = null; Deno.exit(8)|)
          (string-append ${JSON.stringify(hostile)} "*/ Deno.exit(9) /*")
          (cons (+ x 42) (list 1.5e300 -0.0))))
    (evil 1) (evil 2)`);
  const src = compiledSource((it.lookup("evil") as Closure).lam)!;
  assert(src !== undefined);
  for (const bad of ["Deno", "exit", "1.5e300", "*/", "-0", "evil"]) {
    assert(!src.includes(bad), `the source holds ${bad}`);
  }
  assert(src.includes("42"));
  assertEquals(write(it.evaluateSync("(evil 3)")), "(45 1.5e+300 -0.0)");
});

Deno.test("a body that captures leave at nearly every call goes back to the tree", () => {
  const it = new Interpreter({ jit: 1 });
  const before = jitStats.bailed;
  it.evaluateSync(`
    (define (make-gen n)
      (define return #f)
      (define resume #f)
      (define (start)
        (let loop ((i 0))
          (if (< i n) (begin (call/cc (lambda (k) (set! resume k) (return i))) (loop (+ i 1)))))
        (return 'done))
      (lambda () (call/cc (lambda (r) (set! return r) (if resume (resume #f) (start))))))
    (define (gen-sum n)
      (let ((g (make-gen n)))
        (let loop ((acc 0)) (let ((v (g))) (if (eq? v 'done) acc (loop (+ acc v)))))))`);
  assertEquals(it.evaluateSync("(gen-sum 2000)"), 1999000);
  assert(jitStats.bailed > before, "no body went back to the tree");
  assertEquals(it.evaluateSync("(gen-sum 100)"), 4950);
});

Deno.test("one interpreter compiles at most MAX_BODIES bodies", async () => {
  const { MAX_BODIES } = await import("../../scheme/jit/jit.ts");
  const it = new Interpreter({ jit: 1 });
  const before = jitStats.compiled;
  const n = MAX_BODIES + 50;
  const defs = Array.from({ length: n }, (_, i) => `(define (p${i} x) (+ x ${i}))`).join("\n");
  it.evaluateSync(defs);
  const calls = Array.from({ length: n }, (_, i) => `(p${i} 1) (p${i} 2)`).join(" ");
  it.evaluateSync(calls);
  assertEquals(jitStats.compiled - before, MAX_BODIES);
  assertEquals(it.evaluateSync(`(p${n - 1} 1)`), n);
});
