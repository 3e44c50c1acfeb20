/**
 * `deno run -A bench/scheme_ratios.ts [workload names...]`: a quick, load-tolerant comparison of
 * Harness Scheme against plain JS (and, with `HS_BASELINE=/path/to/old/scheme/mod.ts`, against an
 * earlier build), the variants interleaved round by round in one process so machine load hits
 * them alike. Prints medians and ratios. `ROUNDS` sets the number of rounds (default 7); `BIWA=1`
 * adds BiwaScheme (portable workloads) to the rounds.
 *
 * Times are the CPU time of the process (see `cpuMs`) when it can be read, else wall time: on a
 * shared machine, CPU time does not count the time spent waiting for a core, so the figures stay comparable under load (`CLOCK=wall` forces wall time).
 *
 * @module
 */
import { baseline, biwa, cpuMs, harness, WORKLOADS } from "./scheme_workloads.ts";
import { median } from "./_stats.ts";

const cpu = Deno.env.get("CLOCK") !== "wall" && cpuMs() !== null;
const now = cpu ? () => cpuMs()! : () => performance.now();

function once(fn: () => unknown): number {
  const t = now();
  fn();
  return now() - t;
}

const rounds = Number(Deno.env.get("ROUNDS") ?? 7);
const names = Deno.args;
const selected = names.length ? WORKLOADS.filter((w) => names.includes(w.name)) : WORKLOADS;
const hs = harness();
const before = await baseline();
const bw = Deno.env.get("BIWA") === "1" ? biwa() : null;
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));
console.log(`clock: ${cpu ? "process CPU time" : "wall time"}, ${rounds} rounds\n`);
console.log(
  `| workload | hs ms |${before ? " before ms | before / hs |" : ""}${
    bw ? " BiwaScheme ms | BiwaScheme / hs |" : ""
  } JS ms | hs / JS |`,
);
console.log(`|---|---|${before ? "---|---|" : ""}${bw ? "---|---|" : ""}---|---|`);
for (const w of selected) {
  const h: number[] = [], b: number[] = [], j: number[] = [], bws: number[] = [];
  const withBiwa = bw !== null && w.portable;
  hs.evaluateSync(w.expr);
  before?.evaluateSync(w.expr);
  if (withBiwa) bw.evaluate(w.expr);
  w.js();
  for (let r = 0; r < rounds; r++) {
    h.push(once(() => hs.evaluateSync(w.expr)));
    if (before) b.push(once(() => before.evaluateSync(w.expr)));
    if (withBiwa) bws.push(once(() => bw.evaluate(w.expr)));
    // JS is fast: time batches of 20
    j.push(
      once(() => {
        for (let i = 0; i < 20; i++) w.js();
      }) / 20,
    );
  }
  const mh = median(h), mj = median(j);
  const mb = before ? median(b) : NaN;
  const mw = withBiwa ? median(bws) : NaN;
  console.log(
    `| ${w.name} | ${fmt(mh)} |${before ? ` ${fmt(mb)} | ${(mb / mh).toFixed(2)}× |` : ""}${
      bw ? (withBiwa ? ` ${fmt(mw)} | ${(mw / mh).toFixed(2)}× |` : " n/a | n/a |") : ""
    } ${fmt(mj)} | ${(mh / mj).toFixed(1)}× |`,
  );
}
