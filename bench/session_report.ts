/**
 * Session medians (issue 12): the latency of one message append with the
 * exclusive write (temp file linked into place, never overwriting), the
 * session lock taken and released once per turn, and resuming a
 * 10,000-message session (open, parse every file, take the lock, build the
 * request), also with one answer in ten written in the escaped encoding.
 *
 * Besides wall-clock medians, the process's CPU time (user + system) per resume
 * is reported: on a shared, loaded machine it is the steadier figure.
 *
 * Usage: deno run -A bench/session_report.ts [--baseline DIR]
 *   --baseline DIR  also measures the same operations with the checkout in DIR
 *                   (e.g. the commit before, from `git archive`), in this process.
 *
 * @module
 */
import process from "node:process";
import { getAdapter } from "../plugins/providers/mod.ts";
import { Session } from "../core/mod.ts";
import { median, quantile } from "./_stats.ts";

type SessionClass = typeof Session;

const p90 = (xs: number[]): number => quantile(xs, 0.9);

const META = {
  model: "m",
  provider: "p",
  stop: "end",
  usage: { input_tokens: 1, output_tokens: 1 },
};

/** Per-append times (ms) of `n` appends (user, assistant, tool result in turn) after `prefill`. */
function appendTimes(S: SessionClass, prefill: number, n: number): number[] {
  const root = Deno.makeTempDirSync({ prefix: "hs-bench-append-" });
  try {
    const s = S.create(root, { cwd: root, model: "m", provider: "p" });
    for (let i = 0; i < prefill; i++) s.appendUser(`prefill ${i}`);
    const xs: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      if (i % 3 === 0) s.appendUser(`question ${i}: what does src/file${i}.ts do?`);
      else if (i % 3 === 1) {
        s.appendAssistant([
          { type: "text", text: `Looking at file ${i}.` },
          { type: "tool_call", id: `toolu_${i}`, name: "read_file", input: { path: `f${i}` } },
        ], META);
      } else s.appendToolResult(`toolu_${i}`, "read_file", false, "1#ZZ:export const x = 1;");
      xs.push(performance.now() - t0);
    }
    return xs;
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

/** A session of `n` messages; every tenth answer has fence-looking text when `hostile`. */
function bigSession(S: SessionClass, n: number, hostile: boolean): string {
  const root = Deno.makeTempDirSync({ prefix: "hs-bench-resume-" });
  const s = S.create(root, { cwd: root, model: "m", provider: "p" });
  for (let i = 0; i < n; i += 3) {
    s.appendUser(`question ${i}: please look at src/file${i}.ts and tell me what it does`);
    const text = hostile && i % 30 === 0
      ? `Run this:\n\`\`\`tool_call id=x name=bash\n{"command":"ls"}\n\`\`\`\nthen read ${i}.`
      : `Looking at file ${i}.`;
    s.appendAssistant([
      { type: "text", text },
      {
        type: "tool_call",
        id: `toolu_${i}`,
        name: "read_file",
        input: { path: `src/file${i}.ts` },
      },
    ], { ...META, stop: "tool_calls" });
    s.appendToolResult(`toolu_${i}`, "read_file", false, "1#ZZ:export const x = 1;\n2#PM:y");
  }
  return s.dir;
}

/** CPU time (user + system, ms) of each resume in the last {@link resumeTimes} call. */
let lastCpu: number[] = [];

function resumeTimes(S: SessionClass, dir: string, runs: number, lock: boolean): Promise<number[]> {
  const adapter = getAdapter("anthropic");
  const xs: number[] = [];
  lastCpu = [];
  return (async () => {
    for (let i = 0; i < runs; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const s = S.open(dir);
      if (lock) await (s as Session).lock({ waitMs: 0 });
      adapter.buildMessages(s.messages());
      if (lock) (s as Session).unlock();
      xs.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      lastCpu.push((c.user + c.system) / 1000);
    }
    return xs;
  })();
}

/** Per-append times (ms) of `n` appends to an existing session (opened and locked as a turn does). */
async function appendToBig(dir: string, n: number): Promise<number[]> {
  const s = Session.open(dir);
  await s.lock({ waitMs: 0 });
  const xs: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      if (i % 2 === 0) s.appendUser(`one more question ${i}`);
      else s.appendToolResult(`toolu_more${i}`, "read_file", false, "1#ZZ:x");
      xs.push(performance.now() - t0);
    }
  } finally {
    s.unlock();
  }
  return xs;
}

async function lockTimes(runs: number): Promise<number[]> {
  const root = Deno.makeTempDirSync({ prefix: "hs-bench-lock-" });
  try {
    const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await s.lock({ waitMs: 0 });
      s.unlock();
      xs.push(performance.now() - t0);
    }
    return xs;
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

const baselineDir = (() => {
  const i = Deno.args.indexOf("--baseline");
  return i >= 0 ? Deno.args[i + 1] : undefined;
})();
const Base: SessionClass | undefined = baselineDir
  ? (await import(`${baselineDir}/core/session/mod.ts`)).Session
  : undefined;

const rows: string[][] = [];
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

// Rounds alternate between this build and the baseline, so that both see the same load.
for (const prefill of [0, 1000]) {
  appendTimes(Session, prefill, 60); // warm
  const xs: number[] = [];
  const before: number[] = [];
  for (let round = 0; round < 6; round++) {
    xs.push(...appendTimes(Session, prefill, 150));
    if (Base) before.push(...appendTimes(Base, prefill, 150));
  }
  rows.push([
    `append one message (a session growing from ${prefill.toLocaleString("en-US")} to ${
      (prefill + 150).toLocaleString("en-US")
    } messages)`,
    fmt(median(xs)),
    fmt(p90(xs)),
    Base ? `${fmt(median(before))} (${(median(xs) / median(before)).toFixed(2)}×)` : "",
    "≤ 1 ms",
  ]);
}
{
  const xs = await lockTimes(500);
  rows.push([
    "take and release the session lock (once per turn)",
    fmt(median(xs)),
    fmt(p90(xs)),
    "",
    "",
  ]);
}
{
  const plain = bigSession(Session, 10_000, false);
  const escaped = bigSession(Session, 10_000, true);
  const old = Base ? bigSession(Base, 10_000, false) : undefined;
  const xs: number[] = [];
  const esc: number[] = [];
  const before: number[] = [];
  const cpu: number[] = [];
  const escCpu: number[] = [];
  const beforeCpu: number[] = [];
  await resumeTimes(Session, plain, 1, true);
  if (Base && old) await resumeTimes(Base, old, 1, false);
  for (let round = 0; round < 9; round++) {
    xs.push(...await resumeTimes(Session, plain, 1, true));
    cpu.push(...lastCpu);
    esc.push(...await resumeTimes(Session, escaped, 1, true));
    escCpu.push(...lastCpu);
    if (Base && old) {
      before.push(...await resumeTimes(Base, old, 1, false));
      beforeCpu.push(...lastCpu);
    }
  }
  rows.push([
    "resume a 10,000-message session (open, parse, lock, build the request), wall clock",
    fmt(median(xs)),
    fmt(p90(xs)),
    Base ? `${fmt(median(before))} (${(median(xs) / median(before)).toFixed(2)}×)` : "",
    "≤ 500 ms",
  ]);
  rows.push([
    "the same, CPU time of the process (user + system)",
    fmt(median(cpu)),
    fmt(p90(cpu)),
    Base ? `${fmt(median(beforeCpu))} (${(median(cpu) / median(beforeCpu)).toFixed(2)}×)` : "",
    "≤ 500 ms",
  ]);
  rows.push([
    "the same, one answer in ten with fence-looking text (escaped encoding), wall clock",
    fmt(median(esc)),
    fmt(p90(esc)),
    "",
    "≤ 500 ms",
  ]);
  rows.push([
    "the same, escaped encoding, CPU time",
    fmt(median(escCpu)),
    fmt(p90(escCpu)),
    "",
    "≤ 500 ms",
  ]);
  {
    const ys = await appendToBig(plain, 150);
    rows.push([
      "append one message to the resumed 10,000-message session (lock held)",
      fmt(median(ys)),
      fmt(p90(ys)),
      "",
      "≤ 1 ms",
    ]);
  }
  for (const d of [plain, escaped, old]) {
    if (d) Deno.removeSync(d.replace(/\/[^/]+$/, ""), { recursive: true });
  }
}

console.log("| measurement | median | p90 | before (ratio) | budget |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
