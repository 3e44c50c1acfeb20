/**
 * A sandboxed child's spawn through hs's own path next to a bare `bwrap` with the same
 * mounts, interleaved in one run (issue 23's budget: ≤ 1.2×).
 *
 * - `hs`: `runExecutable("/bin/true")` with the effect floor's OS sandbox — the policy's
 *   bubblewrap arguments computed per call (`prepare`), `setsid`, the pipes and stdin.
 * - `bare`: `bwrap <the same arguments> -- /bin/true`, spawned directly.
 * - `bare, no power flags`: the same minus `--unshare-user --cap-drop ALL --new-session`
 *   (what the sandbox cost before the child lost its powers).
 *
 * `deno run -A bench/sandbox_spawn_report.ts [rounds]` (default 150). Prints medians, p90
 * and the ratio hs / bare.
 *
 * @module
 */
import { join } from "node:path";
import { EffectFloor, probeBwrap, runExecutable } from "../core/mod.ts";
import { median, quantile } from "./_stats.ts";

const rounds = Number(Deno.args[0] ?? 150);
const probe = await probeBwrap(Deno.env.toObject());
if (!probe.ok) {
  console.log(`no bubblewrap here: ${probe.reason}`);
  Deno.exit(0);
}

const root = Deno.makeTempDirSync({ prefix: "hs-bench-" });
const ws = join(root, "ws");
Deno.mkdirSync(ws, { recursive: true });
const floor = EffectFloor.build({ warn: () => {} }, {
  workspace: ws,
  home: join(root, "home"),
  userHome: root,
  env: Deno.env.toObject(),
  isTrusted: () => true,
});
const env = { PATH: "/usr/bin:/bin" };
const spec = await floor.sandbox.prepare({ command: "/bin/true", args: [], env, cwd: ws }, "bench");
if ("refused" in spec) throw new Error(spec.refused);
const POWER = new Set(["--unshare-user", "--new-session"]);
const unpowered = spec.args.filter((a, i, all) =>
  !POWER.has(a) && a !== "--cap-drop" && all[i - 1] !== "--cap-drop"
);

const bare = (args: string[]) => () =>
  new Deno.Command(spec.command, { args, env: spec.env, clearEnv: true, cwd: ws }).output();
const variants: [string, () => Promise<unknown>][] = [
  [
    "hs: runExecutable under the floor's sandbox",
    () => runExecutable("/bin/true", { env, cwd: ws, timeoutMs: 10_000, sandbox: floor.sandbox }),
  ],
  ["bare bwrap, the same arguments", bare(spec.args)],
  ["bare bwrap, without the power flags", bare(unpowered)],
];

const times = variants.map(() => [] as number[]);
for (let r = -10; r < rounds; r++) { // 10 warm-up rounds
  for (let v = 0; v < variants.length; v++) {
    const t0 = performance.now();
    await variants[v][1]();
    if (r >= 0) times[v].push(performance.now() - t0);
  }
}
floor.close();
Deno.removeSync(root, { recursive: true });

const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(
  `sandboxed spawn of /bin/true, ${rounds} interleaved rounds, ${spec.args.length} bwrap ` +
    `arguments, user namespace: ${probe.userns ? "yes" : "no"}, uid ${Deno.uid()}`,
);
console.log("| spawn | median | p90 |\n| --- | --- | --- |");
variants.forEach(([name], v) =>
  console.log(`| ${name} | ${ms(median(times[v]))} | ${ms(quantile(times[v], 0.9))} |`)
);
const ratio = median(times[0]) / median(times[1]);
console.log(`ratio hs / bare (medians): ${ratio.toFixed(3)} (budget ≤ 1.2)`);
console.log(`ratio power flags (medians): ${(median(times[1]) / median(times[2])).toFixed(3)}`);
