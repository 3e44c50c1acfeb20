/**
 * `deno bench -A bench/scheme_bench.ts`: Harness Scheme side by side with BiwaScheme, LIPS and
 * plain JS on the same programs, plus the TS → Scheme → TS call round trip.
 *
 * @module
 */
import { biwa, harness, lips, WORKLOADS } from "./scheme_workloads.ts";

const hs = harness();
const bw = biwa();
const lp = await lips();

for (const w of WORKLOADS) {
  Deno.bench({
    name: `hs: ${w.name}`,
    group: w.name,
    baseline: true,
    fn: () => void hs.evaluateSync(w.expr),
  });
  Deno.bench({ name: `js: ${w.name}`, group: w.name, fn: () => void w.js() });
  if (w.portable) {
    // BiwaScheme takes seconds on the deep and looping workloads: one run each
    Deno.bench({
      name: `biwascheme: ${w.name}`,
      group: w.name,
      n: 2,
      warmup: 0,
      fn: () => void bw.evaluate(w.expr),
    });
  }
  if (lp.ok.has(w.name)) {
    Deno.bench({
      name: `lips: ${w.name}`,
      group: w.name,
      n: 1,
      warmup: 0,
      fn: async () => void await lp.exec(w.expr),
    });
  }
}

hs.evaluateSync("(define (inc x) (+ x 1))");
const inc = hs.lookup("inc");
Deno.bench({
  name: "hs: TS -> Scheme call (callSync)",
  group: "interop",
  fn: () => void hs.callSync(inc, 1),
});
Deno.bench({
  name: "hs: TS -> Scheme call (async call)",
  group: "interop",
  fn: async () => void await hs.call(inc, 1),
});
hs.definePrimitive("host-inc", (x) => (x as number) + 1);
hs.evaluateSync("(define (via-host x) (host-inc x))");
const viaHost = hs.lookup("via-host");
Deno.bench({
  name: "hs: TS -> Scheme -> TS -> Scheme return",
  group: "interop",
  fn: () => void hs.callSync(viaHost, 1),
});
