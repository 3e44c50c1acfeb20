// The hostile programs of hostile_cases.ts through `hs scheme FILE` (runSchemeCli with the limit
// flags): each ends with exit code 1 and an error naming the flag that raises its limit, within
// 2× its deadline.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { LimitKind } from "../../scheme/mod.ts";
import { runSchemeCli } from "../../scheme/cli/run.ts";
import { HOSTILE, type HostileCase, settleBoundMs } from "./hostile_cases.ts";

const FLAG: Record<LimitKind, string> = {
  fuel: "--fuel",
  deadline: "--timeout",
  memory: "--max-memory",
  depth: "--max-depth",
};

function cliArgs(c: HostileCase, file: string): string[] {
  const a = ["--timeout", String(c.limits.timeoutMs)];
  if (c.limits.fuel !== undefined) a.push("--fuel", String(c.limits.fuel));
  if (c.limits.maxDepth !== undefined) a.push("--max-depth", String(c.limits.maxDepth));
  if (c.limits.maxCells !== undefined) a.push("--max-memory", String(c.limits.maxCells));
  if (c.limits.maxStringLength !== undefined) {
    a.push("--max-string", String(c.limits.maxStringLength));
  }
  if (c.limits.maxVectorLength !== undefined) {
    a.push("--max-vector", String(c.limits.maxVectorLength));
  }
  return [...a, file];
}

Deno.test("hostile (hs scheme FILE): each program ends with its limit, reported with the flag", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const c of HOSTILE) {
      const file = `${dir}/hostile.scm`;
      await Deno.writeTextFile(file, c.src);
      let err = "";
      const t = performance.now();
      const code = await runSchemeCli(cliArgs(c, file), {
        stdin: new ReadableStream({ start: (ctl) => ctl.close() }),
        stdout: () => {},
        stderr: (s) => (err += s),
        isTerminal: false,
      });
      const ms = performance.now() - t;
      assertEquals(code, 1, c.name);
      ok(
        c.kinds.some((k) => err.includes(FLAG[k])),
        `${c.name}: stderr names none of ${c.kinds.map((k) => FLAG[k])}: ${err}`,
      );
      ok(ms <= settleBoundMs(c), `${c.name}: took ${ms.toFixed(0)} ms`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
