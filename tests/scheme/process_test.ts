// Process context and time: a sandbox view (empty by default) and a clock only if the host grants
// one; `exit` ends the evaluation with a SchemeExit the host reads; the CLI limit flags.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Interpreter, SchemeExit, write } from "../../scheme/mod.ts";
import { runSchemeCli } from "../../scheme/cli/run.ts";

Deno.test("process context answers from the host's view", () => {
  const s = new Interpreter({
    processContext: { commandLine: ["prog.scm", "-v"], environment: { LANG: "C", HOME: "/h" } },
  });
  assertEquals(write(s.evaluateSync("(command-line)")), '("prog.scm" "-v")');
  assertEquals(write(s.evaluateSync('(get-environment-variable "LANG")')), '"C"');
  assertEquals(s.evaluateSync('(get-environment-variable "PATH")'), false);
  assertEquals(
    write(s.evaluateSync("(get-environment-variables)")),
    '(("LANG" . "C") ("HOME" . "/h"))',
  );
});

Deno.test("time reads the granted clock", () => {
  let now = 1_000_000;
  const s = new Interpreter({ clock: () => now });
  assertEquals(s.evaluateSync("(jiffies-per-second)"), 1_000_000);
  const j0 = s.evaluateSync("(current-jiffy)") as number;
  now += 2.5;
  assertEquals((s.evaluateSync("(current-jiffy)") as number) - j0, 2500);
  assertEquals(write(s.evaluateSync("(current-second)")), "1000.0025");
  assertEquals(s.evaluateSync("(exact-integer? (current-jiffy))"), true);
});

Deno.test("exit ends the evaluation after the dynamic-wind exits; guard cannot catch it", () => {
  const out: string[] = [];
  const s = new Interpreter({ stdout: (x) => out.push(x) });
  for (const [src, code] of [["(exit)", 0], ["(exit 3)", 3], ["(exit #f)", 1]] as const) {
    try {
      s.evaluateSync(src);
      ok(false);
    } catch (e) {
      ok(e instanceof SchemeExit);
      assertEquals(e.code, code);
    }
  }
  try {
    s.evaluateSync(
      '(guard (e (#t \'caught)) (dynamic-wind (lambda () #f) (lambda () (exit 2)) (lambda () (display "after"))))',
    );
    ok(false);
  } catch (e) {
    ok(e instanceof SchemeExit && e.code === 2);
  }
  assertEquals(out.join(""), "after");
});

async function cli(args: string[], input = "") {
  let out = "", err = "";
  const code = await runSchemeCli(args, {
    stdin: new ReadableStream({
      start: (c) => {
        c.enqueue(new TextEncoder().encode(input));
        c.close();
      },
    }),
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    isTerminal: false,
  });
  return { code, out, err };
}

Deno.test("hs scheme: --help teaches the limit flags; the flags raise the limits", async () => {
  const help = await cli(["--help"]);
  assertEquals(help.code, 0);
  for (const f of ["--fuel", "--timeout", "--max-depth", "--max-memory"]) {
    ok(help.out.includes(f), f);
  }
  const deep = "(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1))))) (display (d 300000))";
  const low = await cli([], deep);
  assertEquals(low.code, 1);
  ok(low.err.includes("recursion depth exceeded") && low.err.includes("--max-depth"), low.err);
  const high = await cli(["--max-depth", "400000"], deep);
  assertEquals(high, { code: 0, out: "300000", err: "" });
  const fuel = await cli(["--fuel=1000"], "(let loop () (loop))");
  ok(fuel.err.includes("fuel exhausted") && fuel.err.includes("--fuel"), fuel.err);
  const env = await cli(["--env", "A=1"], '(display (get-environment-variable "A")) (exit 4)');
  assertEquals(env, { code: 4, out: "1", err: "" });
  const jiffy = await cli([], "(display (exact-integer? (current-jiffy)))");
  assertEquals(jiffy.out, "#t");
});
