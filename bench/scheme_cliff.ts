/**
 * `deno run -A bench/scheme_cliff.ts`: the "cliff late in a run". Times allocation-heavy
 * workloads (tail loop, deriv) in one interpreter before and after a 10^6-deep recursion, in
 * process CPU time (see `cpuMs`). With `HS_BASELINE=/path/to/old/scheme/mod.ts` the
 * same is run, in a child process of its own, for that build (a fresh V8 heap each). Before the
 * fix, V8 pretenured the call frames' allocation sites during the deep recursion and the
 * workloads after it ran 3–8× slower.
 *
 * @module
 */
import { cpuMs, WORKLOADS } from "./scheme_workloads.ts";

const now = () => cpuMs() ?? performance.now();
const LIMITS = { fuel: 1e10, timeoutMs: 600_000, maxDepth: 3_000_000, maxCells: 1e9 };

async function measure(modPath: string): Promise<string> {
  const mod = await import(modPath);
  const hs = new mod.Interpreter({ limits: LIMITS });
  for (const w of WORKLOADS) hs.evaluateSync(w.defs);
  const med = (e: string, n: number) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = now();
      hs.evaluateSync(e);
      xs.push(now() - t);
    }
    return xs.sort((a, b) => a - b)[n >> 1];
  };
  med("(count-to 1000000)", 3);
  med("(deriv-bench 20000)", 3);
  const tailA = med("(count-to 1000000)", 7), derivA = med("(deriv-bench 20000)", 5);
  med("(deep 1000000)", 1);
  med("(deriv-bench 20000)", 2);
  const tailB = med("(count-to 1000000)", 7), derivB = med("(deriv-bench 20000)", 5);
  const f = (x: number) => x.toFixed(0) + " ms";
  return `tail loop ${f(tailA)} → ${f(tailB)} (${(tailB / tailA).toFixed(1)}×), deriv ${
    f(derivA)
  } → ${f(derivB)} (${(derivB / derivA).toFixed(1)}×)`;
}

if (Deno.args[0] === "--child") {
  console.log(await measure(Deno.args[1]));
} else {
  const self = new URL(import.meta.url).pathname;
  const run = async (path: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", self, "--child", path],
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  const runs = Number(Deno.env.get("RUNS") ?? 3);
  const base = Deno.env.get("HS_BASELINE");
  console.log("before → after a 10^6-deep recursion (medians, process CPU time):");
  for (let i = 0; i < runs; i++) {
    console.log(`hs:      ${await run(new URL("../scheme/mod.ts", import.meta.url).pathname)}`);
    if (base) console.log(`before:  ${await run(base)}`);
  }
}
