// `hs scheme`: file mode, pipe mode (error per form, continue), REPL mode.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runSchemeCli } from "../../scheme/cli/run.ts";

function stream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

async function run(args: string[], input: string, isTerminal = false) {
  let out = "";
  let err = "";
  const code = await runSchemeCli(args, {
    stdin: stream(input),
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    isTerminal,
  });
  return { code, out, err };
}

Deno.test("cli: pipe mode evaluates each form and reports errors with locations", async () => {
  const r = await run([], '(display "a")\n(car 1)\n(display "b")\n(undefined-var)\n');
  assertEquals(r.out, "ab");
  assertEquals(r.code, 1);
  ok(r.err.includes("car: expected pair, got 1"), r.err);
  ok(r.err.includes("<stdin>:2:1"), r.err);
  ok(r.err.includes("unbound variable: undefined-var"), r.err);
  const good = await run([], "(define x 2)\n(display (* x 21))");
  assertEquals(good, { code: 0, out: "42", err: "" });
});

Deno.test("cli: REPL mode prints values and a prompt", async () => {
  const r = await run([], "(+ 1 2)\n(define y 5)\n(list y\n 'z)\n(car '())\n", true);
  ok(r.out.startsWith("scheme> 3\nscheme> scheme> (5 z)\nscheme> "), JSON.stringify(r.out));
  ok(r.err.includes("car: expected pair"), r.err);
  assertEquals(r.code, 1);
});

Deno.test("cli: file mode", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const f = `${dir}/prog.scm`;
    await Deno.writeTextFile(f, "(define (sq x) (* x x))\n(display (sq 7))\n");
    assertEquals(await run([f], ""), { code: 0, out: "49", err: "" });
    await Deno.writeTextFile(f, "(display 1)\n(vector-ref (vector) 0)\n");
    const bad = await run([f], "");
    assertEquals(bad.code, 1);
    ok(bad.err.includes("prog.scm:2:1"), bad.err);
    const missing = await run([`${dir}/nope.scm`], "");
    assertEquals(missing.code, 1);
    assertEquals((await run(["--bogus"], "")).code, 2);
    assertEquals((await run(["--fuel"], "")).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: (import (chibi test)) provides a test library for suites", async () => {
  const r = await run(
    [],
    '(import (scheme base) (chibi test))\n(test-begin "s")\n(test 2 (+ 1 1))\n(test-values (values 1 2) (values 1 2))\n(test-error (car 1))\n(test-assert (pair? (list 1)))\n(test 0.3333333 (/ 1.0 3))\n(test 3 (+ 1 1))\n(test-end)\n',
  );
  ok(r.out.includes("FAIL: (+ 1 1): expected 3 but got 2"), r.out);
  ok(r.out.includes("5 tests passed, 1 failed"), r.out);
  assertEquals(r.code, 1);
  const clean = await run([], "(import (srfi 64))\n(test-begin)\n(test-equal 1 1)\n(test-end)\n");
  assertEquals(clean, { code: 0, out: "1 tests passed, 0 failed\n", err: "" });
});
