/**
 * `deno run -A bench/scheme_guile.ts [workload names...]`: Harness Scheme against GNU Guile
 * (compiled, as `guile FILE` runs a program: auto-compiled to bytecode) on the portable
 * workloads of `scheme_workloads.ts`. Both sides report CPU time per run (hs: this process's CPU
 * time; Guile: `get-internal-run-time`, timed inside Guile so its start-up and compilation are
 * left out), medians of `ROUNDS` runs (default 9) after one warm-up run. Needs `guile` on PATH
 * (Debian: `apt-get install guile-3.0`); prints why and exits 0 without it.
 *
 * @module
 */
import { join } from "node:path";
import { cpuMs, harness, WORKLOADS } from "./scheme_workloads.ts";
import { median } from "./_stats.ts";

const rounds = Number(Deno.env.get("ROUNDS") ?? 9);
const names = Deno.args;
const selected = WORKLOADS.filter((w) => w.portable && (!names.length || names.includes(w.name)));

let version = "";
try {
  const out = await new Deno.Command("guile", { args: ["--version"], stdout: "piped" }).output();
  version = new TextDecoder().decode(out.stdout).split("\n")[0];
} catch {
  console.log("guile is not installed (apt-get install guile-3.0): nothing to compare");
  Deno.exit(0);
}

const tmp = await Deno.makeTempDir({ prefix: "hs-guile-bench-" });
const cache = join(tmp, "cache");

/** Runs `w` in Guile: `rounds` CPU times in ms (after a warm-up run). */
async function guile(defs: string, expr: string): Promise<number[]> {
  const file = join(tmp, "w.scm");
  await Deno.writeTextFile(
    file,
    `${defs}
(define (run-once)
  (let ((t (get-internal-run-time)))
    ${expr}
    (/ (* 1000.0 (- (get-internal-run-time) t)) internal-time-units-per-second)))
(run-once)
(let loop ((i 0))
  (when (< i ${rounds})
    (display (run-once)) (newline)
    (loop (+ i 1))))
`,
  );
  const out = await new Deno.Command("guile", {
    args: [file],
    env: { XDG_CACHE_HOME: cache, GUILE_WARN_DEPRECATED: "no" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr).slice(0, 400));
  return new TextDecoder().decode(out.stdout).trim().split("\n").map(Number);
}

const hs = harness();
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(2));
console.log(`${version}; CPU time, medians of ${rounds} runs after one warm-up\n`);
console.log("| workload | hs ms | Guile ms | Guile / hs |");
console.log("|---|---|---|---|");
for (const w of selected) {
  hs.evaluateSync(w.expr);
  const h: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = cpuMs()!;
    hs.evaluateSync(w.expr);
    h.push(cpuMs()! - t);
  }
  let g: number[];
  try {
    g = await guile(w.defs, w.expr);
  } catch (e) {
    console.log(`| ${w.name} | ${fmt(median(h))} | error: ${String(e).split("\n")[0]} | — |`);
    continue;
  }
  const hm = median(h), gm = median(g);
  console.log(`| ${w.name} | ${fmt(hm)} | ${fmt(gm)} | ${(gm / hm).toFixed(2)}× |`);
}
await Deno.remove(tmp, { recursive: true });
