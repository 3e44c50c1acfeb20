// Sandbox: limits stop runaway programs with distinguishable errors; the host stays healthy.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Interpreter, type LimitKind, SchemeLimitError } from "../../scheme/mod.ts";

function limitOf(s: Interpreter, src: string): LimitKind {
  try {
    s.evaluateSync(src, { file: "sandbox.scm" });
  } catch (e) {
    ok(e instanceof SchemeLimitError, `expected a limit error, got ${e}`);
    return e.kind;
  }
  throw new Error("expected a limit error from " + src);
}

function healthy(s: Interpreter): void {
  assertEquals(
    s.evaluateSync("(let loop ((i 0) (acc 0)) (if (= i 100) acc (loop (+ i 1) (+ acc i))))"),
    4950,
  );
}

Deno.test("no ambient authority: no JS globals, I/O, clock or randomness", () => {
  const s = new Interpreter();
  for (
    const name of [
      "globalThis",
      "Deno",
      "eval-js",
      "fetch",
      "current-time",
      "random",
      "open-input-file",
      "load",
      "system",
    ]
  ) {
    ok(s.lookup(name) === undefined || name === "eval-js", name);
  }
  // the time procedures exist but read only a clock the host grants
  for (const proc of ["current-second", "current-jiffy"]) {
    assertEquals(
      s.evaluateSync(`(guard (e (#t (error-object-message e))) (${proc}))`),
      `${proc}: no clock granted by the host`,
    );
  }
  assertEquals(
    s.evaluateSync(
      '(list (null? (command-line)) (null? (get-environment-variables)) (get-environment-variable "HOME"))',
    ),
    s.evaluateSync("(list #t #t #f)"),
  );
});

Deno.test("infinite loop is stopped by fuel", () => {
  const s = new Interpreter({ limits: { fuel: 200_000 } });
  assertEquals(limitOf(s, "(let loop () (loop))"), "fuel");
  assertEquals(limitOf(s, "(define (f) (f)) (f)"), "fuel");
  assertEquals(limitOf(s, "(do () (#f))"), "fuel");
  healthy(s);
});

Deno.test("infinite loop is stopped by the deadline", () => {
  const s = new Interpreter({ limits: { timeoutMs: 50 } });
  const t = Date.now();
  assertEquals(limitOf(s, "(let loop () (loop))"), "deadline");
  ok(Date.now() - t < 2000);
  healthy(s);
});

Deno.test("guard cannot catch limit errors", () => {
  const s = new Interpreter({ limits: { fuel: 100_000 } });
  assertEquals(limitOf(s, "(guard (e (#t 'caught)) (let loop () (loop)))"), "fuel");
  assertEquals(
    limitOf(s, "(with-exception-handler (lambda (e) 'caught) (lambda () (let loop () (loop))))"),
    "fuel",
  );
  assertEquals(limitOf(s, "(let loop () (guard (e (#t (loop))) (loop)))"), "fuel");
  healthy(s);
});

Deno.test("unbounded allocation is stopped by the memory limit", () => {
  const s = new Interpreter({ limits: { maxCells: 100_000 } });
  assertEquals(limitOf(s, "(let loop ((l '())) (loop (cons 1 l)))"), "memory");
  assertEquals(limitOf(s, "(make-vector 1000000000)"), "memory");
  assertEquals(limitOf(s, "(make-string 1000000000 #\\a)"), "memory");
  assertEquals(limitOf(s, '(let loop ((s "ab")) (loop (string-append s s)))'), "memory");
  assertEquals(limitOf(s, "(let loop ((v (vector 1))) (loop (vector-append v v)))"), "memory");
  assertEquals(
    limitOf(s, "(let loop ((d (dict))) (loop (dict-set d (number->string (dict-count d)) 1)))"),
    "memory",
  );
  healthy(s);
});

Deno.test("10,000-deep non-tail recursion works; 10^7 deep raises a depth error", () => {
  const s = new Interpreter();
  s.evaluateSync("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))");
  assertEquals(s.evaluateSync("(deep 10000)"), 10000);
  assertEquals(
    s.evaluateSync("(length (let build ((n 10000)) (if (= n 0) '() (cons n (build (- n 1))))))"),
    10000,
  );
  assertEquals(s.evaluateSync("(length (map (lambda (x) x) (make-list 10000 1)))"), 10000);
  const t = Date.now();
  const small = new Interpreter({ limits: { maxDepth: 20_000 } });
  small.evaluateSync("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))");
  assertEquals(limitOf(small, "(deep 10000000)"), "depth");
  ok(Date.now() - t < 20_000);
  healthy(small);
  healthy(s);
});

Deno.test("deep recursion works inside a Worker too", async () => {
  const code = `
    import { Interpreter } from ${
    JSON.stringify(new URL("../../scheme/mod.ts", import.meta.url).href)
  };
    const s = new Interpreter({ limits: { maxDepth: 20000 } });
    s.evaluateSync("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))");
    const a = s.evaluateSync("(deep 10000)");
    let kind = "none";
    try { s.evaluateSync("(deep 10000000)"); } catch (e) { kind = e.kind; }
    self.postMessage({ a, kind });
  `;
  const url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
  const w = new Worker(url, { type: "module" });
  const result = await new Promise<{ a: number; kind: string }>((resolve, reject) => {
    w.onmessage = (e) => resolve(e.data);
    w.onerror = (e) => reject(e);
  });
  w.terminate();
  URL.revokeObjectURL(url);
  assertEquals(result, { a: 10000, kind: "depth" });
});

Deno.test("exponential macro expansion is stopped", () => {
  const s = new Interpreter({ limits: { maxCells: 200_000, fuel: 1_000_000 } });
  const k = limitOf(s, "(define-syntax dup (syntax-rules () ((_ x) (dup (x x))))) (dup 1)");
  ok(k === "memory" || k === "fuel" || k === "depth", k);
  const k2 = limitOf(
    s,
    "(define-syntax forever (syntax-rules () ((_ x) (forever x)))) (forever 1)",
  );
  ok(k2 === "fuel" || k2 === "depth" || k2 === "memory", k2);
  const k3 = limitOf(
    s,
    "(define-syntax grow (syntax-rules () ((_ x ...) (grow x ... x ...)))) (grow 1)",
  );
  ok(k3 === "memory" || k3 === "fuel" || k3 === "depth", k3);
  healthy(s);
});

Deno.test("expensive primitives in a loop still meet the deadline", () => {
  const s = new Interpreter({ limits: { timeoutMs: 200 } });
  const t = Date.now();
  assertEquals(
    limitOf(
      s,
      "(define big (make-string 2000000 #\\a)) (let loop () (string-set! big 0 #\\b) (loop))",
    ),
    "deadline",
  );
  assertEquals(
    limitOf(s, "(define l (make-list 200000 1)) (let loop () (memq 2 l) (loop))"),
    "deadline",
  );
  ok(Date.now() - t < 3000);
  healthy(s);
});

Deno.test("huge integers are bounded (size and time)", () => {
  const s = new Interpreter({ limits: { timeoutMs: 500 } });
  assertEquals(limitOf(s, "(expt 2 10000000)"), "memory");
  assertEquals(limitOf(s, "(let loop ((x (expt 2 100000))) (loop (* x x)))"), "memory");
  assertEquals(limitOf(s, "(string->number (make-string 2000000 #\\7))"), "memory");
  assertEquals(limitOf(s, "(gcd (expt 3 600000) (expt 6 300000))"), "deadline");
  assertEquals(s.evaluateSync("(exact-integer-sqrt (expt 10 400))") !== undefined, true);
  healthy(s);
});

Deno.test("reader fed 1 MB of '(' stops cleanly", () => {
  const s = new Interpreter();
  assertEquals(limitOf(s, "(".repeat(1_000_000)), "depth");
  assertEquals(limitOf(s, "#(".repeat(100_000)), "depth");
  healthy(s);
});

Deno.test("deep data structures do not crash printing or equal?", () => {
  const s = new Interpreter();
  const v = s.evaluateSync(
    "(let loop ((i 0) (x '())) (if (= i 100000) x (loop (+ i 1) (list x))))",
  );
  ok(v !== undefined);
  try {
    s.evaluateSync(
      "(let ((a (let loop ((i 0) (x '())) (if (= i 100000) x (loop (+ i 1) (list x)))))) (equal? a a) (equal? a (list-copy a)))",
    );
  } catch (e) {
    ok(e instanceof SchemeLimitError && e.kind === "depth");
  }
  healthy(s);
});

Deno.test("async primitives are bounded by the deadline", async () => {
  const s = new Interpreter({
    limits: { timeoutMs: 50 },
    primitives: { hang: () => new Promise(() => {}) },
  });
  try {
    await s.evaluate("(hang)");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeLimitError && e.kind === "deadline");
  }
  healthy(s);
});
