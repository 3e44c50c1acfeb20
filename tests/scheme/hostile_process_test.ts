// The memory bombs of the hostile suite, each run as a whole process (`scheme/cli/main.ts`, the
// `hs scheme FILE` command without the harness) under the default limits and a capped V8 heap:
// a sandbox that lets a program exhaust the heap would crash the child (exit 133), not end it
// with the limit error.
import { ok } from "node:assert/strict";
import { HOSTILE, type HostileCase } from "./hostile_cases.ts";

const MAIN = new URL("../../scheme/cli/main.ts", import.meta.url).pathname;
const HEAP_MB = 1536;

async function runChild(c: HostileCase, dir: string, i: number): Promise<string | null> {
  const file = `${dir}/bomb${i}.scm`;
  await Deno.writeTextFile(file, c.src);
  const t = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-check",
      `--v8-flags=--max-old-space-size=${HEAP_MB}`,
      MAIN,
      "--timeout",
      String(c.limits.timeoutMs),
      file,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  const ms = performance.now() - t;
  if (out.code !== 1) return `${c.name}: exit ${out.code} after ${ms.toFixed(0)} ms\n${err}`;
  if (!/a sandbox limit: raise it with --/.test(err)) return `${c.name}: ${err}`;
  return null;
}

Deno.test("hostile (process): memory bombs end with a limit error under default limits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const bombs = HOSTILE.filter((c) => c.memoryBomb);
    ok(bombs.length >= 5);
    const failures: string[] = [];
    for (let i = 0; i < bombs.length; i += 2) {
      const batch = bombs.slice(i, i + 2).map((c, j) => runChild(c, dir, i + j));
      for (const r of await Promise.all(batch)) if (r) failures.push(r);
    }
    ok(failures.length === 0, failures.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
