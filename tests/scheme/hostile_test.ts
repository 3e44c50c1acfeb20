// The hostile-program suite: every program of hostile_cases.ts must end with a SchemeLimitError of
// the right kind within 2× its deadline through the embedding API, and leave the host healthy
// (hostile_cli_test.ts runs them through `hs scheme FILE`, hostile_process_test.ts the memory bombs
// in child processes). Plus the escapes that must not be limits at all: compile-time walks,
// isolation, embedding re-entry.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  Interpreter,
  type LimitKind,
  SchemeError,
  SchemeLimitError,
  write,
} from "../../scheme/mod.ts";
import { HOSTILE, type HostileCase, settleBoundMs, sharedLiteral } from "./hostile_cases.ts";

function healthy(s: Interpreter): void {
  assertEquals(
    s.evaluateSync("(let loop ((i 0) (acc 0)) (if (= i 100) acc (loop (+ i 1) (+ acc i))))"),
    4950,
  );
  assertEquals(
    write(s.evaluateSync('(string->symbol "a-brand-new-identifier")')),
    "a-brand-new-identifier",
  );
}

async function limitKindOf(s: Interpreter, c: HostileCase): Promise<LimitKind> {
  try {
    await s.evaluate(c.src, { file: "hostile.scm" });
  } catch (e) {
    ok(e instanceof SchemeLimitError, `${c.name}: expected a limit error, got ${e}`);
    return e.kind;
  }
  throw new Error(`${c.name}: expected a limit error, the program returned`);
}

for (const c of HOSTILE) {
  Deno.test(`hostile (api): ${c.name}`, async () => {
    const s = new Interpreter({ limits: c.limits });
    const t = performance.now();
    const kind = await limitKindOf(s, c);
    const ms = performance.now() - t;
    ok(c.kinds.includes(kind), `${c.name}: ended with ${kind}, expected ${c.kinds.join("|")}`);
    ok(ms <= settleBoundMs(c), `${c.name}: took ${ms.toFixed(0)} ms`);
    healthy(s);
  });
}

Deno.test("hostile: walks over cyclic and shared literals finish at once", () => {
  const s = new Interpreter({ limits: { timeoutMs: 200, fuel: 1000 } });
  assertEquals(write(s.evaluateSync("(car '#0=(a b . #0#))")), "a");
  assertEquals(write(s.evaluateSync("(cadr '#0=(a #0# c))")), "#0=(a #0# c)");
  assertEquals(write(s.evaluateSync("(vector-ref '#0=#(1 #0#) 0)")), "1");
  assertEquals(s.evaluateSync(`(length '${sharedLiteral(60)})`), 2);
  // the same literals through a macro (aliases inside) and as syntax-rules input
  s.evaluateSync("(define-syntax q (syntax-rules () ((_ x) (quote (x x)))))", {
    limits: { fuel: 100_000 },
  });
  assertEquals(s.evaluateSync(`(length (q ${sharedLiteral(60)}))`), 2);
  assertEquals(write(s.evaluateSync("(caar (q #0=(a . #0#)))")), "a");
  healthy(s);
});

Deno.test("hostile: cyclic code is a syntax error, not a hang", () => {
  const s = new Interpreter({ limits: { timeoutMs: 500 } });
  for (const src of ["#0=(+ 1 . #0#)", "#0=(begin 1 . #0#)", "(let #0=((a 1) . #0#) a)"]) {
    try {
      s.evaluateSync(src);
      ok(false, src);
    } catch (e) {
      ok(e instanceof SchemeError && !(e instanceof SchemeLimitError), `${src}: ${e}`);
      ok(/circular|cyclic/.test(e.message), e.message);
    }
  }
  healthy(s);
});

Deno.test("hostile: quoted literals of the shared prelude are immutable", () => {
  const a = new Interpreter();
  const b = new Interpreter();
  const before = write(b.evaluateSync("(features)"));
  for (const src of ["(set-car! (features) 'x)", "(set-cdr! (features) '())"]) {
    try {
      a.evaluateSync(src);
      ok(false, src);
    } catch (e) {
      ok(e instanceof SchemeError && /immutable|literal/.test(e.message), String(e));
    }
  }
  assertEquals(write(b.evaluateSync("(features)")), before);
  // user literals too; fresh data stays mutable
  for (
    const src of ["(vector-set! '#(1 2) 0 9)", "(set-car! '(1 2) 9)", "(vector-fill! #(1 2) 0)"]
  ) {
    try {
      a.evaluateSync(src);
      ok(false, src);
    } catch (e) {
      ok(e instanceof SchemeError && /immutable|literal/.test(e.message), `${src}: ${e}`);
    }
  }
  assertEquals(write(a.evaluateSync("(let ((l (list 1 2))) (set-car! l 9) l)")), "(9 2)");
  assertEquals(write(a.evaluateSync("(let ((v (vector 1 2))) (vector-set! v 0 9) v)")), "#(9 2)");
});

Deno.test("hostile: symbols are per interpreter and do not outlive it", () => {
  const a = new Interpreter({ limits: { timeoutMs: 5000, maxCells: 2_000_000 } });
  try {
    a.evaluateSync("(let loop ((i 0)) (string->symbol (number->string i)) (loop (+ i 1)))");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeLimitError && e.kind === "memory", String(e));
  }
  // another interpreter (and the first one) still intern new identifiers
  const b = new Interpreter();
  assertEquals(write(b.evaluateSync('(string->symbol "zz-new")')), "zz-new");
  assertEquals(b.evaluateSync("(define never-seen-before 1) never-seen-before"), 1);
  assertEquals(b.evaluateSync('(eq? \'abc (string->symbol "abc"))'), true);
  healthy(a);
  // a symbol interned in one interpreter is not in the other's table
  a.evaluateSync("(define only-in-a 'only-in-a-sym)");
  assertEquals(b.symbolCount() < a.symbolCount(), true);
});

Deno.test("hostile: host → callSync → Scheme nested deep ends with a depth error, not a spin", () => {
  const s = new Interpreter({ limits: { timeoutMs: 5000 } });
  s.definePrimitive("host-call", (f, x) => s.callSync(f, x));
  s.evaluateSync("(define (f n) (if (= n 0) 0 (+ 1 (host-call f (- n 1)))))");
  assertEquals(s.evaluateSync("(f 100)"), 100);
  const t = performance.now();
  try {
    s.evaluateSync("(f 100000)");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeLimitError && e.kind === "depth", String(e));
  }
  ok(performance.now() - t < 5000);
  healthy(s);
});

Deno.test("hostile: a continuation captured in a callSync callback cannot silently end the evaluation", () => {
  const s = new Interpreter({ limits: { timeoutMs: 2000 } });
  s.definePrimitive("host-call", (f) => s.callSync(f));
  s.evaluateSync("(define saved #f)");
  try {
    s.evaluateSync(
      "(define r (host-call (lambda () (call/cc (lambda (k) (set! saved k) 1))))) (if (< r 3) (saved (+ r 1))) (list 'after r)",
    );
    ok(false, "re-entering a finished callback's continuation must raise");
  } catch (e) {
    ok(e instanceof SchemeError && /callback|re-?enter/.test(e.message), String(e));
  }
  // escaping from a callback to the outer evaluation still works
  assertEquals(
    s.evaluateSync("(call/cc (lambda (out) (host-call (lambda () (out 'escaped))) 'not-escaped))"),
    s.evaluateSync("'escaped"),
  );
  healthy(s);
});

Deno.test("hostile: JS RangeErrors, internal procedures and bad labels give clear errors", () => {
  // the deadline is a backstop here (these are not limit tests): room for a loaded machine
  const s = new Interpreter({ limits: { timeoutMs: 30_000 } });
  assertEquals(s.evaluateSync("(apply + (make-list 1000000 1))"), 1000000);
  assertEquals(s.evaluateSync("(vector-length (apply vector (make-list 1000000 1)))"), 1000000);
  for (const src of ["(%promise-value 5)", "(%record-accessor 1 2)", "(%make-parameter 1 2)"]) {
    try {
      s.evaluateSync(src);
      ok(false, src);
    } catch (e) {
      ok(e instanceof SchemeError && /unbound variable/.test(e.message), `${src}: ${e}`);
    }
  }
  try {
    s.evaluateSync("'#0=#0#");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError && /label/.test(e.message), String(e));
  }
  try {
    s.evaluateSync("(list-copy (let ((l (list 1 2))) (set-cdr! (cdr l) l) l))");
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError && /circular|cyclic/.test(e.message), String(e));
  }
  healthy(s);
});

Deno.test("hostile: error messages are formatted lazily and capped", () => {
  const s = new Interpreter();
  try {
    s.evaluateSync('(error "big" (make-vector 1000000 12345))');
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeError);
    ok(e.message.length < 5000, `message of ${e.message.length} chars`);
    ok(e.message.startsWith("big #(12345 12345"), e.message.slice(0, 40));
  }
});
