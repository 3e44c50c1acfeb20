/**
 * Benchmark workloads shared by `scheme_bench.ts` (deno bench) and `scheme_medians.ts`
 * (median table for docs/scheme.md): the same programs in Harness Scheme, BiwaScheme, LIPS and
 * plain JS.
 *
 * @module
 */
// deno-lint-ignore no-import-prefix -- bench-only dependency, kept out of deno.json on purpose
import BiwaScheme from "npm:biwascheme@0.8.3";
// deno-lint-ignore no-import-prefix -- bench-only dependency, kept out of deno.json on purpose
import lipsModule from "npm:@jcubic/lips@0.20.3";
import process from "node:process";
import { Interpreter } from "../scheme/mod.ts";

/** One workload: setup definitions, the measured expression, and a JS equivalent. */
export interface Workload {
  /** Name. */
  name: string;
  /** Scheme definitions (portable R7RS). */
  defs: string;
  /** Scheme expression measured. */
  expr: string;
  /** Plain JS equivalent. */
  js: () => unknown;
  /** Whether other Schemes run it (dicts are a Harness extension). */
  portable: boolean;
  /** Whether LIPS can run it (it has no proper tail calls and a small stack). */
  lips?: boolean;
  /** What the plain-JS column measures, when it is not the same algorithm written in JS. */
  jsNote?: string;
}

function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function tak(x: number, y: number, z: number): number {
  return !(y < x) ? z : tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}
function ack(m: number, n: number): number {
  return m === 0 ? n + 1 : n === 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, n - 1));
}
/** Non-tail recursion 10^6 deep: plain JS overflows its stack, so it keeps an explicit one. */
function deepJs(n: number): number {
  const stack: number[] = [];
  while (n > 0) stack.push(n--);
  let r = 0;
  while (stack.length) {
    stack.pop();
    r += 1;
  }
  return r;
}
function* counter(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}
type Expr = number | string | Expr[];
function deriv(a: Expr): Expr {
  if (!Array.isArray(a)) return a === "x" ? 1 : 0;
  const [op, ...args] = a;
  if (op === "+") return ["+", ...args.map(deriv)];
  if (op === "-") return ["-", ...args.map(deriv)];
  if (op === "*") return ["*", a, ["+", ...args.map((x) => ["/", deriv(x), x])]];
  throw new Error("no derivation for " + String(op));
}

function queens(n: number): number {
  const ok = (row: number, dist: number, placed: number[]): boolean =>
    placed.length === 0 ||
    (placed[0] !== row + dist && placed[0] !== row - dist && ok(row, dist + 1, placed.slice(1)));
  const go = (k: number, placed: number[]): number => {
    if (k === 0) return 1;
    let c = 0;
    for (let r = 1; r <= n; r++) {
      if (ok(r, 1, placed) && !placed.includes(r)) c += go(k - 1, [r, ...placed]);
    }
    return c;
  };
  return go(n, []);
}

/** The workloads. */
export const WORKLOADS: Workload[] = [
  {
    name: "fib 25",
    defs: "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))",
    expr: "(fib 25)",
    js: () => fib(25),
    portable: true,
  },
  {
    name: "tak 18 12 6",
    defs:
      "(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))",
    expr: "(tak 18 12 6)",
    js: () => tak(18, 12, 6),
    portable: true,
  },
  {
    name: "ack 3 7",
    defs:
      "(define (ack m n) (cond ((= m 0) (+ n 1)) ((= n 0) (ack (- m 1) 1)) (else (ack (- m 1) (ack m (- n 1))))))",
    expr: "(ack 3 7)",
    js: () => ack(3, 7),
    portable: true,
    lips: false,
  },
  {
    name: "deep recursion 1e6",
    defs: "(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))",
    expr: "(deep 1000000)",
    js: () => deepJs(1_000_000),
    portable: true,
    lips: false,
    jsNote: "explicit stack (JS recursion overflows)",
  },
  {
    name: "call/cc generator 1e4",
    defs: `(define (make-gen n)
  (define return #f)
  (define resume #f)
  (define (start)
    (let loop ((i 0))
      (if (< i n)
          (begin (call/cc (lambda (k) (set! resume k) (return i))) (loop (+ i 1)))))
    (return 'done))
  (lambda () (call/cc (lambda (r) (set! return r) (if resume (resume #f) (start))))))
(define (gen-sum n)
  (let ((g (make-gen n)))
    (let loop ((acc 0))
      (let ((v (g))) (if (eq? v 'done) acc (loop (+ acc v)))))))`,
    expr: "(gen-sum 10000)",
    js: () => {
      let acc = 0;
      for (const v of counter(10000)) acc += v;
      return acc;
    },
    portable: true,
    lips: false,
    jsNote: "function* generator",
  },
  {
    name: "deriv 2e4",
    defs: `(define (deriv a)
  (cond ((not (pair? a)) (if (eq? a 'x) 1 0))
        ((eq? (car a) '+) (cons '+ (map deriv (cdr a))))
        ((eq? (car a) '-) (cons '- (map deriv (cdr a))))
        ((eq? (car a) '*)
         (list '* a (cons '+ (map (lambda (a) (list '/ (deriv a) a)) (cdr a)))))
        (else (error "no derivation for" (car a)))))
(define (deriv-bench n)
  (let loop ((i 0) (r #f))
    (if (= i n) r (loop (+ i 1) (deriv '(+ (* 3 x x) (* a x x) (* b x) 5))))))`,
    expr: "(deriv-bench 20000)",
    js: () => {
      let r: Expr = 0;
      for (let i = 0; i < 20000; i++) {
        r = deriv(["+", ["*", 3, "x", "x"], ["*", "a", "x", "x"], ["*", "b", "x"], 5]);
      }
      return r;
    },
    portable: true,
  },
  {
    name: "tail loop 1e6",
    defs: "(define (count-to n) (let loop ((i 0)) (if (< i n) (loop (+ i 1)) i)))",
    expr: "(count-to 1000000)",
    js: () => {
      let i = 0;
      while (i < 1000000) i++;
      return i;
    },
    portable: true,
    lips: false,
  },
  {
    name: "nqueens 8",
    defs: `(define (queens board-size)
  (define (ok? row dist placed)
    (or (null? placed)
        (and (not (= (car placed) (+ row dist)))
             (not (= (car placed) (- row dist)))
             (ok? row (+ dist 1) (cdr placed)))))
  (define (try k placed)
    (if (= k 0) 1
        (let loop ((r 1) (c 0))
          (if (> r board-size) c
              (loop (+ r 1)
                    (if (and (ok? r 1 placed) (not (memv r placed)))
                        (+ c (try (- k 1) (cons r placed)))
                        c))))))
  (try board-size '()))`,
    expr: "(queens 8)",
    js: () => queens(8),
    portable: true,
  },
  {
    name: "string building",
    defs: `(define (build n)
  (let loop ((i 0) (acc '()))
    (if (= i n)
        (string-length (apply string-append (reverse acc)))
        (loop (+ i 1) (cons (number->string i) acc)))))`,
    expr: "(build 20000)",
    js: () => {
      const acc: string[] = [];
      for (let i = 0; i < 20000; i++) acc.push(String(i));
      return acc.join("").length;
    },
    portable: true,
  },
  {
    name: "dict-heavy",
    defs: `(define (dict-bench n)
  (let loop ((i 0) (d (dict)) (sum 0))
    (if (= i n)
        (+ sum (dict-count d))
        (let* ((k (number->string (modulo i 64)))
               (d2 (dict-set d k i)))
          (loop (+ i 1) d2 (+ sum (dict-ref d2 k)))))))`,
    expr: "(dict-bench 20000)",
    js: () => {
      let d = new Map<string, number>();
      let sum = 0;
      for (let i = 0; i < 20000; i++) {
        const k = String(i % 64);
        d = new Map(d).set(k, i);
        sum += d.get(k)!;
      }
      return sum + d.size;
    },
    portable: false,
  },
];

/**
 * CPU time of this process in ms (user + system, all threads: the collector's and the
 * compiler's work counts), or null where it cannot be read. Unlike wall time it leaves out the
 * time spent waiting for a core, so it stays comparable on a loaded machine.
 */
export function cpuMs(): number | null {
  try {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  } catch {
    return null;
  }
}

const HS_LIMITS = { fuel: 1e10, timeoutMs: 600_000, maxDepth: 3_000_000, maxCells: 1e9 };

/** A Harness interpreter with all workloads defined. */
export function harness(): Interpreter {
  const s = new Interpreter({ limits: HS_LIMITS });
  for (const w of WORKLOADS) s.evaluateSync(w.defs);
  return s;
}

/**
 * The same workloads in another build of Harness Scheme (`HS_BASELINE`: path of its mod.ts, e.g.
 * a checkout of an earlier commit), for before/after figures measured in one run.
 */
export async function baseline(): Promise<{ evaluateSync: (s: string) => unknown } | null> {
  const path = Deno.env.get("HS_BASELINE");
  if (!path) return null;
  const mod = await import(path);
  const s = new mod.Interpreter({ limits: HS_LIMITS });
  for (const w of WORKLOADS) {
    try {
      s.evaluateSync(w.defs);
    } catch {
      // a workload the baseline cannot define is reported n/a
    }
  }
  return s;
}

/** A BiwaScheme interpreter with the portable workloads defined. */
export function biwa(): { evaluate: (s: string) => unknown } {
  const b = new BiwaScheme.Interpreter();
  for (const w of WORKLOADS) if (w.portable) b.evaluate(w.defs);
  return b;
}

/** LIPS (promise-based) with the portable workloads it supports defined. */
export async function lips(): Promise<{ exec: (s: string) => Promise<unknown>; ok: Set<string> }> {
  // deno-lint-ignore no-explicit-any
  const L: any = (lipsModule as any).default ?? lipsModule;
  const ok = new Set<string>();
  for (const w of WORKLOADS) {
    if (!w.portable || w.lips === false) continue;
    try {
      await L.exec(w.defs);
      const r = await L.exec(w.expr.replace(/\d+/, (d) => String(Math.min(Number(d), 5))));
      if (r !== undefined) ok.add(w.name);
    } catch {
      // unsupported by LIPS 0.20
    }
  }
  return { exec: (s: string) => L.exec(s), ok };
}
