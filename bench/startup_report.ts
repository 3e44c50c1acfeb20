/**
 * Whole-process start-up through the README's entry, `deno task hs` (the
 * permission-scoped launcher), where users feel it: `hs version`, `hs --help`,
 * `hs tools`, `hs session list`, `hs scheme one.scm` and a one-tool turn against
 * a loopback server. Each figure is given as a **ratio to an empty `deno run`**
 * timed side by side: the two commands run in turn (A B A B …), the ratio is
 * taken pair by pair and its median printed, so a machine whose speed drifts
 * (other jobs) moves both sides alike. CPU is user + sys of the whole process
 * tree (deno task, launcher, harness, children); peak RSS is the largest
 * process's. Each sample is four runs in a row (time's figures come in 10 ms steps). Prints a
 * markdown table with the load average.
 *
 * Run:  deno run -A bench/startup_report.ts [--runs N] [--repo DIR] [--only NAME] [--peer DIR]
 *                                           [--bundle FILE]
 * `--repo` measures another checkout (e.g. an older commit, for before/after);
 * `--bundle` the release bundle instead of `deno task hs` (FILE: its entry, `dist/hs/hs.js` after
 * `deno task bundle`, or an older build's `dist/hs.js`), run as a user runs it: `deno run` with
 * the baked flags (scripts/build.ts `BAKED`, taken from `--repo`);
 * `--only` one row (by the start of its name: "version", "turn", …);
 * `--peer` the same one-tool turn by the reference harness (DIR: a wedow/harness v0.2.0
 * checkout; needs bash, jq and curl), {@link PEER_RUNS} runs, and the CPU ratio per turn.
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

const RUNS = Number(arg("--runs", "9"));
const REPEAT = 4;
const REPO = arg("--repo", HERE);
const ONLY = arg("--only", "");
const PEER = arg("--peer", "");
const BUNDLE = arg("--bundle", "");
/** Runs of the reference's turn (each ~10 s of CPU: one is well above time's 10 ms steps). */
const PEER_RUNS = 3;

/**
 * One sample under /usr/bin/time: the command run {@link REPEAT} times in a row (time's
 * figures have 10 ms steps, an empty `deno run` takes ~20 ms); wall and user+sys ms of the
 * whole tree per run, peak RSS (the largest process) in MB.
 */
async function measure(argv: string[], cwd: string, env: Record<string, string>) {
  const loop = `for i in $(seq ${REPEAT}); do "$@" || exit 1; done`;
  const all = await measureOnce(["sh", "-c", loop, "sh", ...argv], cwd, env);
  return { wall: all.wall / REPEAT, cpu: all.cpu / REPEAT, rss: all.rss };
}

/** One run of `argv` under /usr/bin/time (for the reference's turn, ~10 s each). */
async function measureOnce(argv: string[], cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "TIME %e %U %S %M", ...argv],
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(text);
  if (!m || !out.success) throw new Error(`${argv.join(" ")} failed:\n${text}`);
  return {
    wall: Number(m[1]) * 1000,
    cpu: (Number(m[2]) + Number(m[3])) * 1000,
    rss: Number(m[4]) / 1024,
  };
}

/** `argv` and the empty `deno run` in turn; medians of each and of the pairwise ratios. */
async function paired(name: string, argv: string[], cwd: string, env: Record<string, string>) {
  const a: Awaited<ReturnType<typeof measure>>[] = [];
  const ratios = { wall: [] as number[], cpu: [] as number[] };
  await measure(argv, cwd, env); // warm caches
  await measure(EMPTY, root, env);
  for (let i = 0; i < RUNS; i++) {
    const x = await measure(argv, cwd, env);
    const y = await measure(EMPTY, root, env);
    a.push(x);
    ratios.wall.push(x.wall / y.wall);
    ratios.cpu.push(x.cpu / y.cpu);
    floor.push(y);
  }
  return {
    name,
    wall: median(a.map((r) => r.wall)),
    cpu: median(a.map((r) => r.cpu)),
    rss: median(a.map((r) => r.rss)),
    wallRatio: median(ratios.wall),
    cpuRatio: median(ratios.cpu),
  };
}

const root = await Deno.makeTempDir({ prefix: "hs-startup-" });
const ws = join(root, "ws");
const home = join(root, "home");
await Deno.mkdir(join(ws, ".harness/providers"), { recursive: true });
await Deno.mkdir(home, { recursive: true });
await Deno.writeTextFile(join(ws, "notes.txt"), "hello\n");
await Deno.writeTextFile(join(ws, "one.scm"), "(display (+ 1 2))\n");
await Deno.writeTextFile(join(root, "empty.ts"), "");
await Deno.writeTextFile(
  join(home, "trust.json"),
  JSON.stringify({ version: 1, trusted: { [root]: { at: "bench" } } }),
);
const turns = (RUNS + 2) * REPEAT + (PEER ? PEER_RUNS : 0);
const script = Array.from({ length: turns }, () => [
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
const EMPTY = [deno, "run", join(root, "empty.ts")];
const floor: Awaited<ReturnType<typeof measure>>[] = [];
const baked = BUNDLE ? await bakedFlags() : [];
const hs = (...args: string[]) =>
  BUNDLE
    ? [deno, "run", ...baked, BUNDLE, ...args]
    : [deno, "task", "-q", "--config", join(REPO, "deno.json"), "hs", ...args];
const ENTRY = BUNDLE ? `\`deno run <baked flags> ${BUNDLE}\`` : "`deno task hs`";

/** The release's baked `deno run` flags (`scripts/build.ts flags`). */
async function bakedFlags(): Promise<string[]> {
  const out = await new Deno.Command(deno, {
    args: ["run", "-A", join(REPO, "scripts/build.ts"), "flags"],
    stdout: "piped",
  }).output();
  if (!out.success) throw new Error("scripts/build.ts flags failed");
  return new TextDecoder().decode(out.stdout).trim().split(/\s+/);
}
const CASES: [string, string[]][] = [
  ["`hs version`", hs("version")],
  ["`hs --help`", hs("--help")],
  ["`hs tools`", hs("tools")],
  ["`hs session list`", hs("session", "list")],
  ["`hs scheme one.scm`", hs("scheme", "one.scm")],
  ["one-tool turn, `hs go`", hs("go")],
];
const rows = [];
for (const [name, argv] of CASES) {
  if (ONLY && !name.replace(/[`]/g, "").startsWith(ONLY)) continue;
  rows.push(await paired(name, argv, ws, env));
}
const peer = PEER && (!ONLY || "one-tool turn".startsWith(ONLY)) ? await peerTurn() : undefined;
await server.close();
await Deno.remove(root, { recursive: true });

/**
 * The reference's `hs go` in a workspace of its own (the same notes.txt, no `.harness/`), its
 * anthropic provider pointed at the same loopback server: medians of {@link PEER_RUNS} runs.
 */
async function peerTurn() {
  const peerWs = join(root, "peer-ws");
  const peerHome = join(root, "peer-home");
  await Deno.mkdir(peerWs, { recursive: true });
  await Deno.mkdir(peerHome, { recursive: true });
  await Deno.writeTextFile(join(peerWs, "notes.txt"), "hello\n");
  const peerEnv = {
    ...env,
    HARNESS_HOME: peerHome,
    HARNESS_PROVIDER: "anthropic",
    HARNESS_MODEL: "m",
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_API_URL: `${server.url}/v1/messages`,
  };
  const runs = [];
  for (let i = 0; i < PEER_RUNS; i++) {
    runs.push(await measureOnce([join(PEER, "bin", "hs"), "go"], peerWs, peerEnv));
  }
  return {
    wall: median(runs.map((r) => r.wall)),
    cpu: median(runs.map((r) => r.cpu)),
    rss: median(runs.map((r) => r.rss)),
  };
}

const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?")).split(" ")
  .slice(0, 3).join(" ");
console.log(
  `checkout: ${REPO}, ${RUNS} pairs of ${REPEAT} runs each (A = the command, B = an empty \`deno run\`, in turn), ` +
    `medians; load average ${load}; the empty \`deno run\`: ` +
    `${median(floor.map((r) => r.wall)).toFixed(0)} ms wall, ` +
    `${median(floor.map((r) => r.cpu)).toFixed(0)} ms CPU\n`,
);
console.log(
  `| command (through ${ENTRY}) | wall | CPU (whole tree) | × empty \`deno run\` (CPU) | × (wall) | peak RSS |`,
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.wall.toFixed(0)} ms | ${r.cpu.toFixed(0)} ms | **${
      r.cpuRatio.toFixed(1)
    }×** | ${r.wallRatio.toFixed(1)}× | ${r.rss.toFixed(0)} MB |`,
  );
}
const turn = rows.find((r) => r.name.startsWith("one-tool turn"));
if (peer) {
  console.log(
    `| peer: the reference's \`hs go\` (wedow/harness, ${PEER_RUNS} runs of 1) | ` +
      `${peer.wall.toFixed(0)} ms | ${peer.cpu.toFixed(0)} ms | — | — | ${
        peer.rss.toFixed(0)
      } MB |`,
  );
  if (turn) {
    console.log(
      `\nCPU per one-tool turn: the reference ${peer.cpu.toFixed(0)} ms, hs ${
        turn.cpu.toFixed(0)
      } ms ` +
        `(whole tree, through ${ENTRY}): **${(peer.cpu / turn.cpu).toFixed(1)}× lower**`,
    );
  }
}
