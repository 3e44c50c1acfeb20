/**
 * `deno run -A scheme/cli/main.ts [options] [file]`: `hs scheme` without the harness, for measuring
 * the whole-process start of the Scheme command and for running programs in a child process.
 *
 * @module
 */
import { runSchemeCli } from "./run.ts";

const enc = new TextEncoder();
function writeAll(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const b = enc.encode(s);
  for (let o = 0; o < b.length;) o += w.writeSync(b.subarray(o));
}

const code = await runSchemeCli(Deno.args, {
  get stdin() {
    return Deno.stdin.readable; // built only if the program reads standard input
  },
  stdout: (s) => writeAll(Deno.stdout, s),
  stderr: (s) => writeAll(Deno.stderr, s),
  isTerminal: Deno.stdin.isTerminal(),
});
Deno.exit(code);
