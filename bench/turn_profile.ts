/**
 * Where a one-tool turn's time goes: runs `hs go` once (`deno run -A main.ts`, the harness
 * process without the launcher) under `--cpu-prof` against a loopback Anthropic server and
 * prints the profile's self time grouped by where the code lives — an npm package, a folder of
 * this repository, Deno's own runtime (`ext:`), or V8's (program = compiling and loading
 * modules, garbage collector, idle). Every thread's profile is summed (the file worker is one).
 *
 * Run:  deno run -A bench/turn_profile.ts [--top N] [--keep DIR] [-- <hs arguments>]
 * Without hs arguments the turn is `go` (read_file, then an answer). `--keep DIR` leaves the
 * .cpuprofile files there (open them in Chrome DevTools → Performance, or speedscope).
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "../plugins/scripted/mod.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}
const TOP = Number(arg("--top", "25"));
const KEEP = arg("--keep", "");
const dash = Deno.args.indexOf("--");
const HS_ARGS = dash >= 0 ? Deno.args.slice(dash + 1) : ["go"];

interface Profile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The group a frame's code belongs to. */
function groupOf(url: string, fn: string): string {
  if (!url) return `(${fn || "anonymous"})`;
  const npm = /registry\.npmjs\.org\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (npm) return `npm:${npm[1]}`;
  if (url.startsWith("ext:")) return url.split("/").slice(0, 2).join("/");
  if (url.startsWith("node:")) return url;
  const i = url.indexOf(REPO);
  if (i >= 0) return url.slice(i + REPO.length + 1).split("/").slice(0, 2).join("/");
  return url.slice(0, 60);
}

const root = await Deno.makeTempDir({ prefix: "hs-profile-" });
const ws = join(root, "ws");
const home = join(root, "home");
const profDir = KEEP || join(root, "prof");
await Deno.mkdir(join(ws, ".harness/providers"), { recursive: true });
await Deno.mkdir(home, { recursive: true });
await Deno.mkdir(profDir, { recursive: true });
await Deno.writeTextFile(join(ws, "notes.txt"), "hello\n");
await Deno.writeTextFile(
  join(home, "trust.json"),
  JSON.stringify({ version: 1, trusted: { [root]: { at: "profile" } } }),
);
const server = await startScriptedServer([
  { toolCalls: [{ id: "t1", name: "read_file", input: { path: "notes.txt" } }] },
  { text: "done" },
]);
await Deno.writeTextFile(
  join(ws, ".harness/providers/loop.conf"),
  `protocol=anthropic\nurl=${server.url}/v1/messages\nmodel=m\n`,
);
await Deno.writeTextFile(join(ws, ".harness/settings.conf"), "provider=loop\n");
const out = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--cpu-prof", `--cpu-prof-dir=${profDir}`, join(REPO, "main.ts"), ...HS_ARGS],
  cwd: ws,
  env: {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    HARNESS_HOME: home,
    NO_COLOR: "1",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  },
  clearEnv: true,
  stdout: "null",
  stderr: "piped",
}).output();
await server.close();
if (!out.success) console.error(new TextDecoder().decode(out.stderr));

const byGroup = new Map<string, number>();
let total = 0;
for (const f of Deno.readDirSync(profDir)) {
  if (!f.name.endsWith(".cpuprofile")) continue;
  const p = JSON.parse(await Deno.readTextFile(join(profDir, f.name))) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  p.samples.forEach((id, i) => {
    const n = nodes.get(id)!;
    const g = groupOf(n.callFrame.url, n.callFrame.functionName);
    const dt = p.timeDeltas[i] / 1000;
    byGroup.set(g, (byGroup.get(g) ?? 0) + dt);
    total += dt;
  });
}
if (!KEEP) await Deno.remove(root, { recursive: true });
else console.log(`profiles kept in ${profDir}`);

// a thread waiting (V8's idle, a worker blocked for its next message) is not on the CPU
const WAITING = ["((idle))", "(op_worker_maybe_wait_for_debugger)"];
const busy = total - WAITING.reduce((n, g) => n + (byGroup.get(g) ?? 0), 0);
console.log(
  `hs ${HS_ARGS.join(" ")}: ${busy.toFixed(0)} ms on CPU in the profiles (waiting left out)\n`,
);
console.log("| where | self time | share of busy |\n| --- | --- | --- |");
for (
  const [g, ms] of [...byGroup].filter(([g]) => !WAITING.includes(g)).sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
) {
  console.log(`| ${g} | ${ms.toFixed(1)} ms | ${(100 * ms / busy).toFixed(0)}% |`);
}
