// Seeded bounded fuzzing: random token streams and random well-formed programs never produce a
// host exception (only values or SchemeErrors), and the interpreter stays healthy.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Interpreter, SchemeError } from "../../scheme/mod.ts";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  "(",
  "(",
  "(",
  ")",
  ")",
  ")",
  "[",
  "]",
  "'",
  "`",
  ",",
  ",@",
  "#(",
  "#u8(",
  ".",
  "#;",
  "#|",
  "|#",
  '"str"',
  '"\\x41;"',
  "#\\a",
  "#\\space",
  "#\\x",
  "1",
  "-2",
  "3.5",
  "1/3",
  "#e1.5",
  "#x1F",
  "+inf.0",
  "#t",
  "#f",
  "x",
  "y",
  "f",
  "lambda",
  "define",
  "let",
  "let*",
  "letrec",
  "if",
  "cond",
  "case",
  "else",
  "=>",
  "begin",
  "set!",
  "quote",
  "quasiquote",
  "unquote",
  "define-syntax",
  "syntax-rules",
  "...",
  "_",
  "call/cc",
  "dynamic-wind",
  "guard",
  "raise",
  "error",
  "car",
  "cdr",
  "cons",
  "list",
  "vector",
  "+",
  "-",
  "*",
  "/",
  "<",
  "=",
  "apply",
  "map",
  "string-append",
  "make-vector",
  "make-string",
  "vector-ref",
  "string-ref",
  "values",
  "call-with-values",
  "delay",
  "force",
  ":kw",
  "dict",
  "#0=",
  "#0#",
  "|a b|",
  "do",
  "when",
  "unless",
  "parameterize",
  "make-parameter",
  "eval",
  "expt",
  "with-exception-handler",
  "exact",
  "inexact",
  "#!fold-case",
  ";c\n",
  "\n",
  " ",
];

Deno.test("fuzz: random token streams", () => {
  const s = new Interpreter({
    limits: { fuel: 20_000, timeoutMs: 500, maxCells: 200_000, maxDepth: 2_000 },
  });
  const r = rng(42);
  let errors = 0;
  for (let i = 0; i < 400; i++) {
    const n = 1 + Math.floor(r() * 40);
    let src = "";
    for (let j = 0; j < n; j++) src += TOKENS[Math.floor(r() * TOKENS.length)] + " ";
    try {
      s.evaluateSync(src, { file: "fuzz.scm" });
    } catch (e) {
      ok(e instanceof SchemeError, `host exception ${e} for: ${src}`);
      errors++;
    }
  }
  ok(errors > 0);
  assertEquals(s.evaluateSync("(+ 1 2)"), 3);
});

function genExpr(r: () => number, depth: number, vars: string[]): string {
  const leaf = () => {
    const k = r();
    if (k < 0.3 && vars.length) return vars[Math.floor(r() * vars.length)];
    if (k < 0.5) return String(Math.floor(r() * 20) - 5);
    if (k < 0.6) return ["#t", "#f", "'()", "'a", '"s"', "#\\c", "1.5", "1/2"][Math.floor(r() * 8)];
    if (k < 0.7) return ["car", "+", "list", "vector", "f", "g"][Math.floor(r() * 6)];
    return String(Math.floor(r() * 3));
  };
  if (depth <= 0 || r() < 0.2) return leaf();
  const sub = () => genExpr(r, depth - 1, vars);
  const v = `v${Math.floor(r() * 4)}`;
  switch (Math.floor(r() * 22)) {
    case 0:
      return `(if ${sub()} ${sub()} ${sub()})`;
    case 1:
      return `(let ((${v} ${sub()})) ${genExpr(r, depth - 1, [...vars, v])})`;
    case 2:
      return `(lambda (${v}) ${genExpr(r, depth - 1, [...vars, v])})`;
    case 3:
      return `(${sub()} ${sub()})`;
    case 4:
      return `(+ ${sub()} ${sub()})`;
    case 5:
      return `(cons ${sub()} ${sub()})`;
    case 6:
      return `(car ${sub()})`;
    case 7:
      return `(begin ${sub()} ${sub()})`;
    case 8:
      return `(call/cc (lambda (k) ${genExpr(r, depth - 1, [...vars, "k"])}))`;
    case 9:
      return `(guard (e (#t ${sub()})) ${sub()})`;
    case 10:
      return `(vector-ref ${sub()} ${sub()})`;
    case 11:
      return `(let loop ((${v} ${sub()})) (if (and (number? ${v}) (< ${v} 10)) (loop (+ ${v} 1)) ${v}))`;
    case 12:
      return `(dynamic-wind (lambda () ${sub()}) (lambda () ${sub()}) (lambda () ${sub()}))`;
    case 13:
      return `(apply ${sub()} (list ${sub()}))`;
    case 14:
      return `(string-append ${sub()} "x")`;
    case 15:
      return `(f ${sub()})`;
    case 16:
      return `(cond (${sub()} => (lambda (x) x)) (else ${sub()}))`;
    case 17:
      return `(raise ${sub()})`;
    case 18:
      return `(with-exception-handler (lambda (e) ${sub()}) (lambda () ${sub()}))`;
    case 19:
      return `(call-with-values (lambda () (values ${sub()} ${sub()})) list)`;
    case 20:
      return `\`(1 ,${sub()} ,@(list ${sub()}))`;
    default:
      return `(* ${sub()} ${sub()})`;
  }
}

Deno.test("fuzz: random well-formed programs", () => {
  const s = new Interpreter({
    limits: { fuel: 50_000, timeoutMs: 500, maxCells: 500_000, maxDepth: 5_000 },
  });
  s.evaluateSync(
    "(define (f x) (if (number? x) (if (> x 0) (f (- x 1)) x) x)) (define (g . xs) xs)",
  );
  const r = rng(7);
  let values = 0;
  for (let i = 0; i < 400; i++) {
    const src = genExpr(r, 6, []);
    try {
      s.evaluateSync(src, { file: "gen.scm" });
      values++;
    } catch (e) {
      ok(e instanceof SchemeError, `host exception ${e} for: ${src}`);
    }
  }
  ok(values > 50, `only ${values} programs produced values`);
  assertEquals(s.evaluateSync("(f 10)"), 0);
});
