/**
 * `deno run -A bench/scheme_startup.ts [--runs N] [--base DIR]`: whole-process start-up of
 * `hs scheme` running a file that prints `1`, next to an empty `deno run` (the floor Deno sets),
 * each variant in a fresh process, the variants interleaved run by run so machine load hits them
 * alike. `--base` is another checkout (e.g. main, for before/after in the same run). Prints
 * medians of wall time and of CPU time of the whole process tree (`perf stat -e task-clock`:
 * every thread and child, e.g. the launcher's Scheme process); without perf, CPU is omitted.
 *
 * Variants per checkout: `scheme/cli/main.ts` (the interpreter alone; `scheme/main.ts` in a
 * checkout from before the Scheme's rooms), `main.ts scheme`, `deno task
 * hs scheme` (the launcher) and the bundle (`deno task bundle` of that checkout, into its dist/:
 * `dist/hs/hs.js`, or `dist/hs.js` in a checkout from before the split bundle) run with the
 * release's baked flags (`scripts/build.ts flags`): the closest to the compiled executable that
 * can be run here.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./_stats.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
}
const RUNS = Number(arg("--runs", "15"));
const BASE = arg("--base", "");

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const tmp = await Deno.makeTempDir({ prefix: "hs-scheme-startup-" });
const empty = join(tmp, "empty.ts");
const one = join(tmp, "one.scm");
await Deno.writeTextFile(empty, "");
await Deno.writeTextFile(one, "(display 1)\n");

let perf = true;
try {
  await new Deno.Command("perf", { args: ["--version"], stdout: "null", stderr: "null" }).output();
} catch {
  perf = false;
}

interface Variant {
  name: string;
  args: string[];
  cwd: string;
}
const variants: Variant[] = [{
  name: "`deno run -A empty.ts`",
  args: ["run", "-A", empty],
  cwd: tmp,
}];
const builds: [string, string][] = [
  ["hs", HERE],
  ...(BASE ? [["main", BASE] as [string, string]] : []),
];
async function denoOut(args: string[], cwd: string): Promise<string | undefined> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  if (!out.success) {
    console.error(`deno ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
}

for (const [label, dir] of builds) {
  // what `deno task bundle` builds: dist/hs/ split by room (a single dist/hs.js before)
  const built = await denoOut(["run", "-A", "scripts/build.ts", "bundle"], dir);
  const bundle = exists(join(dir, "dist/hs/hs.js"))
    ? join(dir, "dist/hs/hs.js")
    : join(dir, "dist/hs.js");
  const flags = await denoOut(["run", "-A", "scripts/build.ts", "flags"], dir);
  if (built !== undefined && flags !== undefined) {
    variants.push({
      name: `bundle: \`deno run <baked flags> hs.js scheme one.scm\` (${label})`,
      args: ["run", ...flags.split(/\s+/), bundle, "scheme", one],
      cwd: tmp,
    });
  }
  // scheme/main.ts moved to scheme/cli/main.ts with the Scheme's rooms (an older --base has it)
  const schemeMain = exists(join(dir, "scheme/cli/main.ts"))
    ? "scheme/cli/main.ts"
    : "scheme/main.ts";
  variants.push(
    {
      name: `\`deno run -A ${schemeMain} one.scm\` (${label})`,
      args: ["run", "-A", join(dir, schemeMain), one],
      cwd: tmp,
    },
    {
      name: `\`deno run -A main.ts scheme one.scm\` (${label})`,
      args: ["run", "-A", join(dir, "main.ts"), "scheme", one],
      cwd: tmp,
    },
    {
      name: `\`deno task hs scheme one.scm\` (${label})`,
      args: ["task", "-q", "--config", join(dir, "deno.json"), "hs", "scheme", one],
      cwd: tmp,
    },
  );
}

async function once(v: Variant): Promise<{ wall: number; cpu: number }> {
  const t = performance.now();
  const cmd = perf
    ? new Deno.Command("perf", {
      args: ["stat", "-x,", "-e", "task-clock", Deno.execPath(), ...v.args],
      cwd: v.cwd,
      stdout: "piped",
      stderr: "piped",
    })
    : new Deno.Command(Deno.execPath(), {
      args: v.args,
      cwd: v.cwd,
      stdout: "piped",
      stderr: "piped",
    });
  const out = await cmd.output();
  const wall = performance.now() - t;
  const stdout = new TextDecoder().decode(out.stdout);
  if (!v.name.includes("empty") && stdout !== "1") {
    throw new Error(`${v.name}: printed ${JSON.stringify(stdout)}`);
  }
  const m = /([\d.]+),msec,task-clock/.exec(new TextDecoder().decode(out.stderr));
  return { wall, cpu: m ? Number(m[1]) : NaN };
}

const loadBefore = Deno.loadavg()[0];
for (const v of variants) await once(v); // warm the caches
const walls = variants.map(() => [] as number[]);
const cpus = variants.map(() => [] as number[]);
for (let r = 0; r < RUNS; r++) {
  for (let i = 0; i < variants.length; i++) {
    const x = await once(variants[i]);
    walls[i].push(x.wall);
    cpus[i].push(x.cpu);
  }
}
await Deno.remove(tmp, { recursive: true });
const floor = median(cpus[0]);
console.log(
  `${RUNS} runs each, interleaved; medians; load average ${loadBefore.toFixed(2)} before, ${
    Deno.loadavg()[0].toFixed(2)
  } after\n`,
);
console.log("| command | wall | CPU | CPU over an empty `deno run` |");
console.log("|---|---|---|---|");
variants.forEach((v, i) => {
  const cpu = median(cpus[i]);
  console.log(
    `| ${v.name} | ${median(walls[i]).toFixed(0)} ms | ${perf ? cpu.toFixed(0) + " ms" : "n/a"} | ${
      i === 0 ? "—" : perf ? `+${(cpu - floor).toFixed(0)} ms` : "n/a"
    } |`,
  );
});
