/**
 * `deno run -A bench/scheme_medians.ts`: median run times of the workloads in Harness Scheme,
 * BiwaScheme, LIPS and plain JS, measured in one process and printed as the Markdown table kept
 * in docs/scheme.md ("Performance"). With `HS_BASELINE=/path/to/old/scheme/mod.ts` a column for
 * that earlier build of Harness Scheme is added (before/after in the same run). Times are
 * process CPU time (`CLOCK=wall` for wall time). The workloads run in table order,
 * so those after the deep recursions show any slowdown a deep recursion leaves behind (see
 * `scheme_cliff.ts`).
 *
 * @module
 */
import { baseline, biwa, cpuMs, harness, lips, WORKLOADS } from "./scheme_workloads.ts";
import { median } from "./_stats.ts";

// process CPU time where it can be read (comparable under load), else wall time
const cpu = Deno.env.get("CLOCK") !== "wall" && cpuMs() !== null;
const now = cpu ? () => cpuMs()! : () => performance.now();

async function time(runs: number, fn: () => unknown): Promise<number> {
  // warm-up: at least one run, more while they are short (up to 5 runs or 300 ms): hs compiles a
  // procedure body to JS after 1,000 calls and V8 then optimizes the new function, which a
  // single 2 ms warm-up run (tak) does not see through
  const start = now();
  for (let i = 0; i < 5 && (i === 0 || now() - start < 300); i++) await fn();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = now();
    await fn();
    ts.push(now() - t);
  }
  return median(ts);
}

async function timeOrNaN(runs: number, fn: () => unknown): Promise<number> {
  try {
    return await time(runs, fn);
  } catch {
    return NaN;
  }
}

const hs = harness();
const before = await baseline();
const fmt = (ms: number) =>
  (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3)) + " ms";
const na = (x: number, f: (x: number) => string) => (Number.isNaN(x) ? "n/a" : f(x));
const ratio = (x: number) => (x >= 10 ? x.toFixed(0) : x.toFixed(1)) + "×";
const rows = [
  `| workload | hs |${
    before ? " hs before |" : ""
  } plain JS | BiwaScheme | LIPS | hs / JS | BiwaScheme / hs | LIPS / hs |`,
  `|---|---|${before ? "---|" : ""}---|---|---|---|---|---|`,
];
// hs, its baseline and JS first, for every workload, then the other Schemes: CPU time counts the
// engine's background threads, and the JIT work BiwaScheme and LIPS leave running (LIPS's
// promise chains especially) would otherwise be charged to the next hs workload — short ones
// like tak read 3–4× slower that way
const own = new Map<string, { h: number; old: number; j: number }>();
for (const w of WORKLOADS) {
  const h = await time(9, () => hs.evaluateSync(w.expr));
  const old = before ? await timeOrNaN(5, () => before.evaluateSync(w.expr)) : NaN;
  const j = await time(21, () => w.js());
  own.set(w.name, { h, old, j });
}
const bw = biwa();
const lp = await lips();
for (const w of WORKLOADS) {
  const { h, old, j } = own.get(w.name)!;
  const b = w.portable ? await timeOrNaN(3, () => bw.evaluate(w.expr)) : NaN;
  const l = lp.ok.has(w.name) ? await timeOrNaN(1, () => lp.exec(w.expr)) : NaN;
  rows.push(
    `| ${w.name} | ${fmt(h)} |${before ? ` ${na(old, fmt)} |` : ""} ${fmt(j)}${
      w.jsNote ? ` (${w.jsNote})` : ""
    } | ${na(b, fmt)} | ${na(l, fmt)} | ${ratio(h / j)} | ${na(b / h, ratio)} | ${
      na(l / h, ratio)
    } |`,
  );
}
hs.evaluateSync("(define (inc x) (+ x 1))");
const inc = hs.lookup("inc");
const n = 100_000;
const callUs = await time(5, () => {
  for (let i = 0; i < n; i++) hs.callSync(inc, i);
}) * 1000 / n;
hs.definePrimitive("host-inc", (x) => (x as number) + 1);
hs.evaluateSync("(define (via-host x) (host-inc x))");
const via = hs.lookup("via-host");
const viaUs = await time(5, () => {
  for (let i = 0; i < n; i++) hs.callSync(via, i);
}) * 1000 / n;
console.log(`clock: ${cpu ? "process CPU time" : "wall time"}\n`);
console.log(rows.join("\n"));
console.log(
  "\nn/a: not run by that implementation (LIPS 0.20 has no proper tail calls and overflows its stack on deep recursion, raises an unbound-variable error on nqueens/string building, and its call/cc does not re-enter; dicts are a Harness extension).",
);
console.log(
  `\nTS → Scheme call (callSync): ${
    callUs.toFixed(2)
  } µs; TS → Scheme → TS host primitive → back: ${viaUs.toFixed(2)} µs`,
);
