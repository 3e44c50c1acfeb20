/**
 * Medians of the kernel budgets (issue 2), including whole-process figures
 * that `deno bench` cannot take: `hs version` wall time and the peak RSS of a
 * one-tool turn through the real CLI. Prints a markdown table.
 *
 * Run: deno run -A bench/kernel_report.ts
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Discovery, Session } from "../core/mod.ts";
import { getAdapter } from "../plugins/providers/mod.ts";
import { bigSession, serverStats, startBenchServer, workspace } from "./support.ts";
import { median, timeMany } from "./_stats.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

const rows: [string, string, string][] = [];
const server = startBenchServer();

for (const observers of [false, true]) {
  const { h } = await workspace(server.url, observers);
  await h.run({ message: "warm", provider: "bench" });
  const per: number[] = [];
  for (let i = 0; i < 40; i++) {
    const before = serverStats.ms;
    const t0 = performance.now();
    const r = await h.run({ message: "go", provider: "bench" });
    per.push(performance.now() - t0 - (serverStats.ms - before));
    if (r.error) throw new Error(r.message);
  }
  await h.close();
  rows.push([
    observers ? "one-tool turn, 5 executable observer hooks" : "one-tool turn, built-in hooks only",
    `${median(per).toFixed(1)} ms`,
    observers ? "≤ 60 ms" : "≤ 25 ms",
  ]);
}

{
  const { h, root } = await workspace(server.url, true);
  await h.close();
  const d = new Discovery({
    cwd: join(root, "ws"),
    home: join(root, "home"),
    isTrusted: () => true,
  });
  d.current();
  const xs = await timeMany(3000, () => d.current());
  rows.push([
    "discovery re-check, nothing changed",
    `${(median(xs) * 1000).toFixed(0)} µs`,
    "≤ 0.5 ms",
  ]);
}

const adapter = getAdapter("anthropic");
{
  const s = Session.open(await bigSession(1000));
  const xs = await timeMany(50, () => {
    s.refresh(false);
    adapter.buildMessages(s.messages());
  });
  rows.push([
    "assemble a round of a 1,000-message session",
    `${median(xs).toFixed(2)} ms`,
    "≤ 20 ms",
  ]);
}
{
  const dir = await bigSession(10000);
  const xs = await timeMany(7, () => adapter.buildMessages(Session.open(dir).messages()));
  rows.push(["resume a 10,000-message session", `${median(xs).toFixed(0)} ms`, "≤ 500 ms"]);
}

{
  const xs: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(REPO, "main.ts"), "version"],
      stdout: "null",
    }).output();
    xs.push(performance.now() - t0);
  }
  rows.push(["`hs version`, whole process (deno run)", `${median(xs).toFixed(0)} ms`, "≤ 60 ms"]);
}

{
  // Peak RSS of a one-tool turn through the real CLI (GNU time's %M).
  const { root } = await workspace(server.url, false);
  const ws = join(root, "ws");
  const rss: number[] = [];
  for (let i = 0; i < 5; i++) {
    const out = await new Deno.Command("/usr/bin/time", {
      args: [
        "-f",
        "RSS %M",
        Deno.execPath(),
        "run",
        "-A",
        "--quiet",
        join(REPO, "main.ts"),
        "-p",
        "bench",
        "go",
      ],
      cwd: ws,
      env: { HOME: root, HARNESS_HOME: join(root, "home"), HARNESS_LOG: join(root, "log") },
      stdout: "null",
      stderr: "piped",
    }).output().catch(() => undefined);
    const m = out && /RSS (\d+)/.exec(new TextDecoder().decode(out.stderr));
    if (m) rss.push(Number(m[1]) / 1024);
  }
  rows.push([
    "peak RSS of a one-tool turn (`hs` process)",
    rss.length ? `${median(rss).toFixed(0)} MB` : "n/a (/usr/bin/time missing)",
    "≤ 100 MB",
  ]);
}
await server.close();

console.log(
  `machine: ${Deno.build.target}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}\n`,
);
console.log("| measurement | median | budget |\n| --- | --- | --- |");
for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
