/**
 * `deno run -A bench/scheme_medians.ts`: measures median run times of the workloads in
 * Harness Scheme, BiwaScheme, LIPS and plain JS, and prints the Markdown table kept in
 * docs/scheme.md ("Performance").
 *
 * @module
 */
import { biwa, harness, lips, WORKLOADS } from "./scheme_workloads.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(runs: number, fn: () => unknown): Promise<number> {
  await fn(); // warm-up
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

const hs = harness();
const bw = biwa();
const lp = await lips();
const fmt = (ms: number) =>
  (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3)) + " ms";
const rows = [
  "| workload | hs | plain JS | BiwaScheme | LIPS | hs vs JS | BiwaScheme / hs | LIPS / hs |",
  "|---|---|---|---|---|---|---|---|",
];
for (const w of WORKLOADS) {
  const h = await time(9, () => hs.evaluateSync(w.expr));
  const j = await time(21, () => w.js());
  const b = w.portable ? await time(3, () => bw.evaluate(w.expr)) : NaN;
  let l = NaN;
  if (lp.ok.has(w.name)) {
    try {
      l = await time(1, () => lp.exec(w.expr));
    } catch {
      l = NaN;
    }
  }
  const na = (x: number, f: (x: number) => string) => (Number.isNaN(x) ? "n/a" : f(x));
  rows.push(
    `| ${w.name} | ${fmt(h)} | ${fmt(j)} | ${na(b, fmt)} | ${na(l, fmt)} | ${
      (h / j).toFixed(1)
    }× slower | ${na(b, (x) => (x / h).toFixed(1) + "×")} | ${
      na(l, (x) => (x / h).toFixed(1) + "×")
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
console.log(rows.join("\n"));
console.log(
  "\nn/a: not supported by that implementation (LIPS 0.20: no proper tail calls at 10^6 iterations, and it raises an unbound-variable error on nqueens/string building; dicts are a Harness extension).",
);
console.log(
  `\nTS → Scheme call (callSync): ${
    callUs.toFixed(2)
  } µs; TS → Scheme → TS host primitive → back: ${viaUs.toFixed(2)} µs`,
);
