/**
 * Medians of the pack-state benchmarks (bench/packs_state_bench.ts measures the same with
 * deno bench): the `call/method` round trip (a bot tool's one query, and the per-call time of
 * 100 queries in one tool call), a durable command, and reopening a 10,000-entry project log.
 *
 * Run: deno run -A bench/packs_state_report.ts
 *
 * @module
 */
import { freshStates, stateBench, writeProjectLog } from "./packs_state_setup.ts";
import { median, timeMany as time } from "./_stats.ts";

const b = await stateBench();
try {
  const zero = b.tool("zero");
  const one = b.tool("one");
  const many = b.tool("many");
  const add = b.tool("add");
  const ctx = {} as never;
  await time(2_000, () => one.execute({}, ctx)); // warm-up
  await time(2_000, () => zero.execute({}, ctx));
  // interleaved, so both see the same machine load
  const [base, withCall]: [number[], number[]] = [[], []];
  for (let i = 0; i < 20_000; i++) {
    base.push(...await time(1, () => zero.execute({}, ctx)));
    withCall.push(...await time(1, () => one.execute({}, ctx)));
  }
  const single = median(withCall) * 1000;
  const baseline = median(base) * 1000;
  await time(20, () => many.execute({ n: 100 }, ctx));
  const batch = median(await time(200, () => many.execute({ n: 100 }, ctx))) * 1000 / 100;
  const cmd = median(await time(200, () => add.execute({}, ctx)));
  writeProjectLog(b, 10_000);
  await time(3, () => freshStates(b).instance("nb", "project"));
  const reopen = median(await time(21, () => freshStates(b).instance("nb", "project")));
  console.log(`a Scheme tool call that calls nothing (baseline): ${baseline.toFixed(1)} µs median`);
  console.log(`call/method round trip, one query in a tool call: ${single.toFixed(1)} µs median`);
  console.log(`call/method's own share: ${(single - baseline).toFixed(1)} µs`);
  console.log(
    `call/method round trip, per call of 100 in one tool call: ${batch.toFixed(1)} µs median`,
  );
  console.log(`command appending to a durable (fsync) log: ${cmd.toFixed(2)} ms median`);
  console.log(`reopen a 10,000-entry project log (read + fold): ${reopen.toFixed(1)} ms median`);
} finally {
  await b.close();
}
