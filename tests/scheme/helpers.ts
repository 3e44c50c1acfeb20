/**
 * Shared helpers for the Scheme tests.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Interpreter, type InterpreterOptions, write } from "../../scheme/mod.ts";

/** Creates an interpreter capturing standard output into `out`. */
export function make(opts: InterpreterOptions = {}): { s: Interpreter; out: string[] } {
  const out: string[] = [];
  const s = new Interpreter({ stdout: (x) => out.push(x), ...opts });
  return { s, out };
}

/** Evaluates `src` synchronously in `s` and returns the `write` form of the result. */
export function ev(s: Interpreter, src: string): string {
  return write(s.evaluateSync(src, { file: "test.scm" }));
}

/** Asserts each `[source, expected write form]` pair, in one interpreter (in order). */
export function table(cases: [string, string][], s: Interpreter = make().s): void {
  for (const [src, expected] of cases) {
    let got: string;
    try {
      got = ev(s, src);
    } catch (e) {
      got = `ERROR: ${(e as Error).message}`;
    }
    assertEquals(got, expected, `evaluating ${src}`);
  }
}

/** Evaluates `src` and returns the error message it raises (or fails). */
export function errorOf(s: Interpreter, src: string): Error {
  try {
    s.evaluateSync(src, { file: "test.scm" });
  } catch (e) {
    return e as Error;
  }
  throw new Error(`expected an error from ${src}`);
}
