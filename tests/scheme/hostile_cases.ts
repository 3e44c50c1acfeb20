/**
 * Hostile programs, as a behavior-pack author could write them, with the sandbox limit each must
 * end on. Shared by `hostile_test.ts` (embedding API and `runSchemeCli` in process) and
 * `hostile_process_test.ts` (the memory bombs in a child process with a capped V8 heap).
 *
 * @module
 */
import type { LimitKind, Limits } from "../../scheme/mod.ts";

/** One hostile program and the limit error it must end with. */
export interface HostileCase {
  /** Short name. */
  name: string;
  /** The program. */
  src: string;
  /** Limits it runs under (timeoutMs is always set, so "within 2× the deadline" is checkable). */
  limits: Limits & { timeoutMs: number };
  /** The kinds of limit error accepted (one, unless the race between two limits is inherent). */
  kinds: LimitKind[];
  /** Part of the memory-bomb set that also runs in a child process with a capped heap. */
  memoryBomb?: boolean;
}

/** `#k=(#k-1=(…) #k-1#)`: a literal whose tree has 2^k leaves but only k+1 distinct pairs. */
export function sharedLiteral(k: number): string {
  let s = "#0=(leaf)";
  for (let i = 1; i <= k; i++) s = `#${i}=(${s} #${i - 1}#)`;
  return s;
}

const T = 500; // default deadline of the suite, ms
/** The deadline of cases whose outcome is another limit (see HOSTILE). */
const BACKSTOP_MS = 30_000;

/** The hostile programs. */
const CASES: HostileCase[] = [
  // 1. host crashes
  {
    name: "string-join of 50 × 10M strings in a loop",
    src:
      '(define s (make-string 10000000 #\\a)) (let loop () (string-join (make-list 50 s) "") (loop))',
    limits: { timeoutMs: T },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "string-join of many small strings (cells)",
    src:
      '(define l (make-list 100000 (make-string 100 #\\a))) (let loop () (string-join l "") (loop))',
    limits: { timeoutMs: 2000, maxCells: 3_000_000 },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "syntax-rules macro doubling its body 30 times (compile bomb)",
    src: `(define-syntax dbl (syntax-rules () ((_ () x) x) ((_ (i . is) x) (dbl is (begin x x)))))
(dbl (1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30) (display 1))`,
    limits: { timeoutMs: T },
    kinds: ["memory", "deadline", "fuel"],
    memoryBomb: true,
  },
  {
    name: "macro doubling, memory decides",
    src: `(define-syntax dbl (syntax-rules () ((_ () x) x) ((_ (i . is) x) (dbl is (x x)))))
(dbl (1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30) car)`,
    limits: { timeoutMs: 5000, maxCells: 500_000 },
    kinds: ["memory"],
  },
  {
    name: "macro doubling, fuel decides",
    src: `(define-syntax dbl (syntax-rules () ((_ () x) x) ((_ (i . is) x) (dbl is (if x x x)))))
(dbl (1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30) #t)`,
    limits: { timeoutMs: 5000, fuel: 50_000 },
    kinds: ["fuel"],
  },
  {
    name: "macro growing its argument list (ellipsis bomb)",
    src: "(define-syntax grow (syntax-rules () ((_ x ...) (grow x ... x ...)))) (grow 1)",
    limits: { timeoutMs: T },
    kinds: ["memory", "deadline", "fuel"],
    memoryBomb: true,
  },
  {
    name: "non-terminating macro",
    src: "(define-syntax forever (syntax-rules () ((_ x) (forever (x))))) (forever 1)",
    limits: { timeoutMs: T },
    kinds: ["depth", "fuel", "deadline", "memory"],
  },
  {
    name: "quasiquote over a shared literal (exponential tree)",
    src: `(define x \`${sharedLiteral(40)})`,
    limits: { timeoutMs: T },
    kinds: ["memory", "deadline", "fuel"],
    memoryBomb: true,
  },
  // 2. compile-time walks over literals (these must finish: they are fine programs)
  // 3. deadline overshoot: big work per primitive call
  {
    name: "big-integer * in a loop",
    src: "(define x (expt 7 400000)) (let loop () (* x x) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "big-integer quotient in a loop",
    src:
      "(define x (expt 7 1000000)) (define y (expt 3 600000)) (let loop () (quotient x y) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "big-integer gcd in a loop",
    src: "(define x (expt 6 100000)) (define y (expt 4 120000)) (let loop () (gcd x y) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "number->string of a big integer in a loop",
    src: "(define x (expt 7 300000)) (let loop () (number->string x) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "string->number of 300,000 digits in a loop",
    src: "(define s (make-string 300000 #\\7)) (let loop () (string->number s) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "exact-integer-sqrt of a big integer in a loop",
    src: "(define x (expt 7 600000)) (let loop () (exact-integer-sqrt x) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "big rationals in a loop",
    src: "(define r (/ (expt 7 60000) (expt 3 60000))) (let loop ((x r)) (loop (+ (* x 1/5) r)))",
    limits: { timeoutMs: T },
    kinds: ["deadline", "memory"],
  },
  {
    name: "string-index over 5M chars in a loop",
    src: "(define s (make-string 5000000 #\\a)) (let loop () (string-index s #\\b) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline", "fuel"],
  },
  {
    name: "string-contains over 5M chars in a loop",
    src: '(define s (make-string 5000000 #\\a)) (let loop () (string-contains s "ab") (loop))',
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "string->utf8 of 5M chars in a loop",
    src: "(define s (make-string 5000000 #\\a)) (let loop () (string->utf8 s) (loop))",
    limits: { timeoutMs: T },
    kinds: ["memory", "deadline"],
    memoryBomb: true,
  },
  {
    name: "guarded errors carrying a 1M-element vector",
    src:
      '(define v (make-vector 1000000 1)) (let loop () (guard (e (#t #f)) (error "bad" v v)) (loop))',
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "raise of a 1M-element list, caught by a handler",
    src:
      "(define l (make-list 1000000 'x)) (let loop () (call/cc (lambda (k) (with-exception-handler (lambda (e) (k 1)) (lambda () (raise l))))) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  {
    name: "parameter lookups under 50,000 parameterizations",
    src:
      "(define p (make-parameter 0)) (define (deep n) (if (= n 0) (let loop () (p) (loop)) (parameterize ((p n)) (+ 1 (deep (- n 1)))))) (deep 20000)",
    limits: { timeoutMs: 1000 },
    kinds: ["deadline"],
  },
  // 4. symbols
  {
    name: "interning symbols without end",
    src: "(let loop ((i 0)) (string->symbol (number->string i)) (loop (+ i 1)))",
    limits: { timeoutMs: 5000, maxCells: 4_000_000 },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "interning keywords without end",
    src: "(let loop ((i 0)) (string->keyword (number->string i)) (loop (+ i 1)))",
    limits: { timeoutMs: 5000, maxCells: 4_000_000 },
    kinds: ["memory"],
  },
  // 7. accounting
  {
    name: "continuation storm: capturing a 20,000-frame stack in a loop",
    src:
      "(define ks '()) (define (deep n) (if (= n 0) (let loop () (set! ks (cons (call/cc (lambda (k) k)) ks)) (loop)) (+ 1 (deep (- n 1))))) (deep 20000)",
    // ~1.1 s to reach the memory limit on an idle machine; the deadline leaves room for a
    // loaded one, since only the memory limit is the right answer here.
    limits: { timeoutMs: 10_000 },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "continuation re-entry storm",
    src: "(let ((k #f) (n 0)) (call/cc (lambda (c) (set! k c))) (set! n (+ n 1)) (k #f))",
    limits: { timeoutMs: 5000, fuel: 200_000 },
    kinds: ["fuel"],
  },
  {
    name: "string output port growing without end",
    src:
      "(define p (open-output-string)) (define s (make-string 1000000 #\\a)) (let loop () (write-string s p) (loop))",
    limits: { timeoutMs: 3000 },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "string-upcase past the string limit",
    src: "(string-upcase (make-string 600000 #\\xDF))",
    limits: { timeoutMs: T, maxStringLength: 1_000_000 },
    kinds: ["memory"],
  },
  {
    name: "vector->string past the string limit",
    src: "(vector->string (make-vector 2000000 #\\a))",
    limits: { timeoutMs: T, maxStringLength: 1_000_000 },
    kinds: ["memory"],
  },
  {
    name: "string->utf8 past the bytevector limit",
    src: "(string->utf8 (make-string 600000 #\\x20AC))",
    limits: { timeoutMs: T, maxVectorLength: 1_000_000 },
    kinds: ["memory"],
  },
  {
    name: "printer bomb: writing a shared tree with 2^40 leaves",
    src:
      "(define (grow n x) (if (= n 0) x (grow (- n 1) (cons x x)))) (define t (grow 40 'x)) (let loop () (write t (open-output-string)) (loop))",
    limits: { timeoutMs: T },
    kinds: ["memory", "deadline"],
    memoryBomb: true,
  },
  {
    name: "vectors allocated without end",
    src: "(let loop ((l '())) (loop (cons (make-vector 1000000 0) l)))",
    limits: { timeoutMs: 3000 },
    kinds: ["memory"],
    memoryBomb: true,
  },
  {
    name: "deep non-tail recursion",
    src: "(define (f n) (+ 1 (f n))) (f 1)",
    limits: { timeoutMs: 3000, maxDepth: 50_000 },
    kinds: ["depth"],
  },
  {
    name: "dynamic-wind nesting without end",
    src:
      "(let loop ((n 0)) (dynamic-wind (lambda () #f) (lambda () (loop (+ n 1))) (lambda () #f)))",
    limits: { timeoutMs: 3000, maxDepth: 20_000 },
    kinds: ["depth"],
  },
  {
    name: "escaping through 10,000 winds in a loop",
    src:
      "(define (deep n k) (if (= n 0) (k 0) (dynamic-wind (lambda () #f) (lambda () (deep (- n 1) k)) (lambda () #f)))) (let loop () (call/cc (lambda (k) (deep 10000 k))) (loop))",
    limits: { timeoutMs: T },
    kinds: ["deadline"],
  },
  // reader bombs
  {
    name: "reader: 1,000,000 nested quotes",
    src: "'".repeat(1_000_000) + "x",
    limits: { timeoutMs: T },
    kinds: ["depth"],
  },
  {
    name: "reader: 1,000,000 open parentheses",
    src: "(".repeat(1_000_000),
    limits: { timeoutMs: T },
    kinds: ["depth"],
  },
  {
    name: "reader: 500,000 nested datum comments",
    src: "#;".repeat(500_000) + "x",
    limits: { timeoutMs: T },
    kinds: ["depth"],
  },
  {
    name: "read from a string port: 1,000,000 nested vectors",
    src: "(read (open-input-string (make-string 1000000 #\\[)))",
    limits: { timeoutMs: T },
    kinds: ["depth"],
  },
  // bignum storms
  {
    name: "bignum storm: squaring until the integer limit",
    src: "(let loop ((x 3)) (loop (* x x)))",
    limits: { timeoutMs: T },
    kinds: ["memory"],
  },
  {
    name: "bignum storm: factorial of 1,000,000",
    src: "(let loop ((i 1) (acc 1)) (if (> i 1000000) acc (loop (+ i 1) (* acc i))))",
    limits: { timeoutMs: T },
    kinds: ["deadline", "memory", "fuel"],
  },
  {
    name: "bignum storm: expt of a rational",
    src: "(expt 7/3 100000000)",
    limits: { timeoutMs: T },
    kinds: ["memory"],
  },
  // embedding-free fuel/deadline basics
  {
    name: "infinite loop, fuel",
    src: "(let loop () (loop))",
    limits: { timeoutMs: 3000, fuel: 100_000 },
    kinds: ["fuel"],
  },
  {
    name: "infinite loop, deadline",
    src: "(let loop () (loop))",
    limits: { timeoutMs: 300 },
    kinds: ["deadline"],
  },
  {
    name: "guard catching its own limit in a loop",
    src: "(let loop () (guard (e (#t (loop))) (loop)))",
    limits: { timeoutMs: T },
    kinds: ["deadline", "depth"],
  },
];

/**
 * The hostile programs as the tests run them. Where the deadline is not an accepted outcome it
 * is only a backstop: it is raised to {@link BACKSTOP_MS}, so that on a loaded machine (wall time
 * stretched by other processes) the memory, depth or fuel limit the case is about still ends it.
 */
export const HOSTILE: HostileCase[] = CASES.map((c) =>
  c.kinds.includes("deadline")
    ? c
    : { ...c, limits: { ...c.limits, timeoutMs: Math.max(c.limits.timeoutMs, BACKSTOP_MS) } }
);

/**
 * How long a program may take to end on its limit: twice its deadline, or the deadline plus
 * 5 s on a loaded machine. A limit that is honoured ends well inside this; one that is not
 * checked (a primitive looping without accounting) runs on far longer or takes the host down.
 */
export function settleBoundMs(c: HostileCase): number {
  return Math.max(2 * c.limits.timeoutMs, c.limits.timeoutMs + 5000);
}
