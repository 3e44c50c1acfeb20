/**
 * Medians of the Scheme guard overhead (bench/packs_bench.ts measures the same with deno
 * bench): the dispatch time with one pass-through TypeScript guard and with one Scheme
 * guard, interleaved, 20,000 calls each after a warm-up.
 *
 * Run: deno run -A bench/packs_report.ts
 *
 * @module
 */
import { join } from "node:path";
import { Dispatcher, type EffectCall, type Guard, textResult } from "../core/mod.ts";
import { loadProgram, seamGuard } from "../stdlib-harness/mod.ts";

const root = Deno.makeTempDirSync({ prefix: "hs-packs-report-" });
Deno.writeTextFileSync(
  join(root, "g.scm"),
  `(guard/shell :match "git *" :middleware (lambda (raw invoke) (invoke raw)))`,
);
const p = await loadProgram({ file: join(root, "g.scm"), root });
const places = { workspace: root, home: root, userHome: root };
const scheme = seamGuard(p.interpreter, p.registrations.guards[0], {
  appliesTo: () => true,
  places,
  owner: "r",
});
const ts: Guard = { id: "ts", point: "shell", middleware: (raw, invoke) => invoke(raw) };
const d = (g: Guard) =>
  new Dispatcher({
    guards: () => [g],
    hooks: () => [],
    floor: { decide: () => ({ decision: "allow", rule: "r" }) },
    audit: () => {},
  });
const call: EffectCall = {
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core-tools" },
  principal: "main",
  callId: "c",
  input: { command: "git status" },
};
const core = () => Promise.resolve(textResult("ok"));
const a = d(ts), b = d(scheme);
const tsT: number[] = [], scT: number[] = [];
for (let i = 0; i < 22_000; i++) {
  let t = performance.now();
  await a.dispatch(call, core);
  if (i >= 2000) tsT.push(performance.now() - t);
  t = performance.now();
  await b.dispatch(call, core);
  if (i >= 2000) scT.push(performance.now() - t);
}
const med = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] * 1000;
console.log(
  `TypeScript guard: ${med(tsT).toFixed(2)} µs, Scheme guard: ${med(scT).toFixed(2)} µs, ` +
    `overhead ${(med(scT) - med(tsT)).toFixed(2)} µs (median)`,
);
Deno.removeSync(root, { recursive: true });
