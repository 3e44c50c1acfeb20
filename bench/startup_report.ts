/**
 * Whole-process start-up through the README's entry, `deno task hs` (the
 * permission-scoped launcher): `hs version`, `hs --help` and a one-tool turn
 * against a loopback server, with wall time and the CPU of the whole process
 * tree (deno task, launcher, harness, children), next to the floor that
 * Deno itself sets here (`deno run` and `deno task` of an empty program).
 * Medians of N runs; prints a markdown table.
 *
 * Run:  deno run -A bench/startup_report.ts [--runs N] [--repo DIR]
 * `--repo` measures another checkout (e.g. an older commit, for before/after).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "../plugins/scripted/mod.ts";
import { median } from "./_stats.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}

const RUNS = Number(arg("--runs", "15"));
const REPO = arg("--repo", HERE);

/** Runs a command under /usr/bin/time; returns wall and user+sys seconds of the whole tree. */
async function measure(argv: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "TIME %e %U %S", ...argv],
    cwd,
    env,
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(text);
  if (!m || !out.success) throw new Error(`${argv.join(" ")} failed:\n${text}`);
  return { wall: Number(m[1]) * 1000, cpu: (Number(m[2]) + Number(m[3])) * 1000 };
}

async function series(
  name: string,
  argv: () => Promise<string[]> | string[],
  cwd: string,
  env: Record<string, string>,
) {
  const walls: number[] = [];
  const cpus: number[] = [];
  await measure(await argv(), cwd, env); // warm caches
  for (let i = 0; i < RUNS; i++) {
    const r = await measure(await argv(), cwd, env);
    walls.push(r.wall);
    cpus.push(r.cpu);
  }
  return { name, wall: median(walls), cpu: median(cpus) };
}

const root = await Deno.makeTempDir({ prefix: "hs-startup-" });
const ws = join(root, "ws");
const home = join(root, "home");
await Deno.mkdir(join(ws, ".harness/providers"), { recursive: true });
await Deno.mkdir(home, { recursive: true });
await Deno.writeTextFile(join(ws, "notes.txt"), "hello\n");
await Deno.writeTextFile(join(root, "empty.ts"), "");
await Deno.writeTextFile(
  join(root, "deno.json"),
  JSON.stringify({ tasks: { empty: "deno run empty.ts" } }),
);
await Deno.writeTextFile(
  join(home, "trust.json"),
  JSON.stringify({ version: 1, trusted: { [root]: { at: "bench" } } }),
);
const script = Array.from({ length: 2 * (RUNS + 1) }, () => [
  { toolCalls: [{ id: "t1", name: "read_file", input: { path: "notes.txt" } }] },
  { text: "done" },
]).flat();
const server = await startScriptedServer(script);
await Deno.writeTextFile(
  join(ws, ".harness/providers/loop.conf"),
  `protocol=anthropic\nurl=${server.url}/v1/messages\nmodel=m\n`,
);
await Deno.writeTextFile(join(ws, ".harness/settings.conf"), "provider=loop\n");
const env: Record<string, string> = {
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  HOME: root,
  HARNESS_HOME: home,
  NO_COLOR: "1",
  DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
};
const deno = Deno.execPath();
const task = [deno, "task", "-q", "--config", join(REPO, "deno.json")];
const rows = [
  await series(
    "deno run of an empty file (Deno's own floor)",
    () => [
      deno,
      "run",
      join(root, "empty.ts"),
    ],
    root,
    env,
  ),
  await series(
    "`deno task` running an empty file",
    () => [
      deno,
      "task",
      "-q",
      "--config",
      join(root, "deno.json"),
      "empty",
    ],
    root,
    env,
  ),
  await series("`deno task hs version`", () => [...task, "hs", "version"], ws, env),
  await series("`deno task hs --help`", () => [...task, "hs", "--help"], ws, env),
  await series("one-tool turn, `deno task hs go`", () => [...task, "hs", "go"], ws, env),
  await series(
    "`deno run -A main.ts version` (no launcher)",
    () => [
      deno,
      "run",
      "-A",
      join(REPO, "main.ts"),
      "version",
    ],
    ws,
    env,
  ),
  await series(
    "one-tool turn, `deno run -A main.ts go` (no launcher)",
    () => [
      deno,
      "run",
      "-A",
      join(REPO, "main.ts"),
      "go",
    ],
    ws,
    env,
  ),
];
await server.close();
await Deno.remove(root, { recursive: true });

console.log(`checkout: ${REPO}, ${RUNS} runs each, medians\n`);
console.log("| command | wall | CPU (whole tree) |\n| --- | --- | --- |");
for (const r of rows) {
  console.log(`| ${r.name} | ${r.wall.toFixed(0)} ms | ${r.cpu.toFixed(0)} ms |`);
}
