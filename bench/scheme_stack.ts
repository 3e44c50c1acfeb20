/**
 * `deno run -A bench/scheme_stack.ts [cold|cold-jit|hot]`: how much JS stack one level of Scheme recursion
 * takes, path by path (plain calls, nested operands, `let` bodies, callbacks from `map`,
 * `vector-map`, `for-each`, `dynamic-wind`, handlers, parameters, a predicate passed to `assoc`,
 * `list-sort` …). It is what the stack probes' margin (see docs/scheme.md, "Stack probes") has
 * to cover: each probe verifies ~85 KB of room for the next 40 levels (~2.1 KB a level).
 *
 * Method: a host primitive `(room)` records the free JS stack exactly, by a binary search on the
 * length of one spread call (V8 checks the room before it pushes the arguments), once at the top
 * and once at the bottom of a recursion 150 levels deep; the difference over the depth reached
 * (the interpreter's own depth counter, read where `(room)` runs) is the bytes per level. `cold` measures each path on its
 * first recursion, each path in a fresh process (the engine's interpreter: the biggest frames);
 * `cold-jit` the same with every body compiled to JS on its first call (scheme/jit/); `hot`
 * after 300 warm-up runs (by then the bodies are compiled).
 *
 * @module
 */
import { Interpreter } from "../scheme/mod.ts";
import { R } from "../scheme/base/mod.ts";

const sink = (..._a: unknown[]) => 0;
const big: unknown[] = new Array(200_000).fill(0);
/** Free JS stack in bytes below the caller, to 8 bytes. */
function room(): number {
  let lo = 0, hi = 150_000;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    big.length = mid;
    try {
      Reflect.apply(sink, null, big);
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo * 8;
}
for (let i = 0; i < 20; i++) room();

const PATHS: [string, string][] = [
  ["plain call", `(define (f n) (if (= n 0) (room) (+ 1 (f (- n 1)))))`],
  [
    "call under 2 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (f (- n 1))))))`,
  ],
  [
    "call under 3 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (f (- n 1)))))))`,
  ],
  [
    "call under 4 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (+ 1 (f (- n 1))))))))`,
  ],
  [
    "call under 5 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (f (- n 1)))))))))`,
  ],
  [
    "call under 6 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (f (- n 1))))))))))`,
  ],
  [
    "call under 8 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (f (- n 1))))))))))))`,
  ],
  [
    "call under 12 nested operands",
    `(define (f n) (if (= n 0) (room) (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (f (- n 1))))))))))))))))`,
  ],
  [
    "call in nested let bodies",
    `(define (f n) (if (= n 0) (room) (let ((a 1)) (let ((b 2)) (+ a b (f (- n 1)))))))`,
  ],
  ["apply", `(define (f n) (if (= n 0) (room) (+ 1 (apply f (list (- n 1))))))`],
  ["map callback", `(define (f n) (if (= n 0) (room) (car (map (lambda (x) (f (- n 1))) '(1)))))`],
  [
    "vector-map callback",
    `(define (f n) (if (= n 0) (room) (vector-ref (vector-map (lambda (x) (f (- n 1))) #(1)) 0)))`,
  ],
  [
    "for-each callback",
    `(define (f n) (if (= n 0) (room) (let ((r 0)) (for-each (lambda (x) (set! r (f (- n 1)))) '(1)) r)))`,
  ],
  [
    "string-for-each callback",
    `(define (f n) (if (= n 0) (room) (let ((r 0)) (string-for-each (lambda (c) (set! r (f (- n 1)))) "a") r)))`,
  ],
  [
    "dynamic-wind thunk",
    `(define (f n) (if (= n 0) (room) (dynamic-wind (lambda () #f) (lambda () (f (- n 1))) (lambda () #f))))`,
  ],
  [
    "with-exception-handler thunk",
    `(define (f n) (if (= n 0) (room) (with-exception-handler (lambda (e) 0) (lambda () (f (- n 1))))))`,
  ],
  ["guard body", `(define (f n) (if (= n 0) (room) (guard (e (#t 0)) (f (- n 1)))))`],
  [
    "parameterize body",
    `(define p (make-parameter 1)) (define (f n) (if (= n 0) (room) (parameterize ((p n)) (f (- n 1)))))`,
  ],
  [
    "call-with-values producer",
    `(define (f n) (if (= n 0) (room) (call-with-values (lambda () (f (- n 1))) (lambda (x) x))))`,
  ],
  [
    "assoc predicate",
    `(define (f n) (if (= n 0) (room) (cdr (assoc 1 '((1 . 1)) (lambda (a b) (f (- n 1)) #t)))))`,
  ],
  [
    "list-sort predicate",
    `(define (f n) (if (= n 0) (room) (car (list-sort (lambda (a b) (f (- n 1)) #f) '(1 2)))))`,
  ],
];

const mode = Deno.args[0] === "hot" ? "hot" : Deno.args[0] === "cold-jit" ? "cold-jit" : "cold";
const only = Deno.args[1] === undefined ? undefined : Number(Deno.args[1]);
const N = 150;

/** Measures path number `i`: bytes per recursion step and interpreter levels per step. */
function measure(i: number): [number, number] {
  const def = PATHS[i][1];
  const it = new Interpreter({
    limits: { maxDepth: 1_000_000 },
    jit: mode === "cold-jit" ? 1 : undefined,
  });
  // `(room)` records the free stack and the depth where it is called (the paths' own values
  // do not carry it back: a predicate's result is a boolean)
  let depthAt = 0, roomAt = 0;
  it.definePrimitive("room", () => {
    depthAt = R.depth;
    roomAt = room();
    return 0;
  });
  it.evaluateSync(def);
  if (mode === "hot") { for (let k = 0; k < 300; k++) it.evaluateSync("(f 40)"); }
  it.evaluateSync("(room)");
  const top = roomAt, d0 = depthAt;
  it.evaluateSync(`(f ${N})`);
  return [(top - roomAt) / N, (depthAt - d0) / N];
}

if (only !== undefined) {
  // one path in this process (cold: nothing else has run here)
  console.log(JSON.stringify(measure(only)));
} else {
  console.log(
    `JS stack per level of Scheme recursion (${mode}, each path in a fresh process; free stack ` +
      `at the top: ${(room() / 1024).toFixed(0)} KB)\n`,
  );
  console.log(
    "| path | bytes per recursion step | interpreter levels per step | bytes per level |",
  );
  console.log("|---|---|---|---|");
  const self = new URL(import.meta.url).pathname;
  for (let i = 0; i < PATHS.length; i++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", self, mode, String(i)],
      stdout: "piped",
    }).output();
    const [perStep, levels] = JSON.parse(new TextDecoder().decode(out.stdout)) as number[];
    console.log(
      `| ${PATHS[i][0]} | ${perStep.toFixed(0)} | ${levels.toFixed(1)} | ${
        (perStep / levels).toFixed(0)
      } |`,
    );
  }
}
