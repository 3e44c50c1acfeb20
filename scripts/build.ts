/**
 * Release builds: `deno task compile [target…]` makes single executables
 * (linux x64/arm64, macOS x64/arm64) and `deno task bundle` the JavaScript
 * release (`dist/hs/`, entry `dist/hs/hs.js`), both from `release.ts` (the
 * launcher and the harness in one module)
 * with the git revision baked into `--version`. The permissions and worker
 * options a release runs with are {@link BAKED}: compiled in by
 * `deno compile`, and passed to `deno run` for the bundle. They are the
 * launcher's: the harness runs in a worker holding only the run's grant.
 *
 * Usage: deno run -A scripts/build.ts compile [--target <triple>]… | bundle | flags
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { V8_FLAGS } from "../core/base/mod.ts";

/** V8's flags of every run of hs (core/base/paths.ts): the release's too. */
export { V8_FLAGS };

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const INFO = `${ROOT}/core/early/build_info.ts`;

/**
 * Deno flags of a release: no -A, no ffi, no prompt (a prompt would let a worker ask for
 * more than its grant). The launcher holds them; the harness worker holds the run's grant
 * and the floor narrows tools further.
 */
export const BAKED = [
  "--unstable-worker-options",
  "--no-prompt",
  // nothing is fetched at run time, not even a plugin's own `import "https://…"`
  "--no-remote",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
  V8_FLAGS,
];

/** The four release targets. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
];

async function git(...args: string[]): Promise<string> {
  try {
    const out = await new Deno.Command("git", { args, cwd: ROOT, stderr: "null" }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : "";
  } catch {
    return "";
  }
}

/** Runs `fn` with the revision written into core/early/build_info.ts, then restores it. */
async function withRevision(fn: () => Promise<void>): Promise<void> {
  const rev = Deno.env.get("HS_REVISION") || await git("rev-parse", "--short=12", "HEAD") ||
    "unknown";
  const dirty = (await git("status", "--porcelain")).length > 0 ? "-dirty" : "";
  const original = await Deno.readTextFile(INFO);
  await Deno.writeTextFile(
    INFO,
    original.replace(/REVISION: string = "[^"]*"/, `REVISION: string = "${rev}${dirty}"`),
  );
  try {
    await fn();
  } finally {
    await Deno.writeTextFile(INFO, original);
  }
}

async function deno(args: string[]): Promise<void> {
  console.error(`$ deno ${args.join(" ")}`);
  const st = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).spawn().status;
  if (!st.success) throw new Error(`deno ${args[0]} failed (exit ${st.code})`);
}

/** The bundle's folder and its entry (what `deno run <BAKED> …` starts). */
export const BUNDLE_DIR = "dist/hs";
/** The bundle's entry module, in {@link BUNDLE_DIR}. */
export const BUNDLE_ENTRY = `${BUNDLE_DIR}/hs.js`;

/**
 * The bundle: one module per lazily loaded room (`--code-splitting`), minified. A single file made every process parse and compile all 3.9 MB of it — V8's code cache
 * does not cover a bundle's lazily run functions — so `hs.js version` took ~390 ms of CPU; split,
 * a command compiles the chunks it reaches (docs/performance.md "The release bundle").
 */
async function bundle(): Promise<void> {
  const dir = `${ROOT}/${BUNDLE_DIR}`;
  // no chunk of an older build is left beside this one's, nor the single-file bundle of before
  await Deno.remove(dir, { recursive: true }).catch(notFound);
  await Deno.remove(`${ROOT}/dist/hs.js`).catch(notFound);
  await deno([
    "bundle",
    "-q",
    "--code-splitting",
    // not --keep-names: it wraps named functions in a helper, and the file worker's code is a
    // function's own text run alone (core/sandbox/fs_worker.ts) — no error names come from it
    "--minify",
    "--outdir",
    BUNDLE_DIR,
    "release.ts",
  ]);
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".js") || e.name === "release.js") continue;
    const path = `${dir}/${e.name}`;
    const text = await Deno.readTextFile(path);
    // the entry is named after its source; no chunk imports it (it starts itself as the worker)
    if (text.includes("release.js")) {
      throw new Error(`${BUNDLE_DIR}/${e.name} imports the entry: it cannot be renamed hs.js`);
    }
    const lazy = lazyNodeRequire(text);
    if (lazy !== text) await Deno.writeTextFile(path, lazy);
  }
  await Deno.rename(`${dir}/release.js`, `${ROOT}/${BUNDLE_ENTRY}`);
}

const DENO_REQUIRE =
  /import\{createRequire as __deno_internal_createRequire\} from "node:module";var ([\w$]+)=__deno_internal_createRequire\(import\.meta\.url\);/;

/**
 * `deno bundle` gives the chunk of esbuild's helpers a `require` for the CommonJS packages'
 * `require("node:…")` through a static `import … from "node:module"` — which starts Deno's
 * Node layer in every process, `hs version` too (~40 ms of CPU). The same `require`, made on
 * its first call. A form this does not know is an error, not a slower release.
 */
export function lazyNodeRequire(chunk: string): string {
  const m = DENO_REQUIRE.exec(chunk);
  if (!m) {
    if (chunk.includes("__deno_internal_createRequire")) {
      throw new Error(
        "deno bundle's require of node:module has a form scripts/build.ts does not know",
      );
    }
    return chunk;
  }
  const made = `(r??=process.getBuiltinModule("node:module").createRequire(u))`;
  const lazy = `var ${m[1]}=((u,r)=>Object.assign((id)=>${made}(id),` +
    `{resolve:(id,o)=>${made}.resolve(id,o)}))(import.meta.url);`;
  return chunk.replace(DENO_REQUIRE, () => lazy);
}

function notFound(e: unknown): void {
  if (!(e instanceof Deno.errors.NotFound)) throw e;
}

async function main(args: string[]): Promise<void> {
  const [cmd, ...rest] = args;
  if (cmd === "flags") {
    console.log(BAKED.join(" "));
    return;
  }
  await Deno.mkdir(`${ROOT}/dist`, { recursive: true });
  if (cmd === "bundle") {
    await withRevision(bundle);
    return;
  }
  if (cmd === "compile") {
    const targets: string[] = [];
    for (let i = 0; i < rest.length; i++) if (rest[i] === "--target") targets.push(rest[++i]);
    await withRevision(async () => {
      for (const t of targets.length ? targets : TARGETS) {
        // cli/ is included whole: the CLI imports its commands by a variable (cli/lazy.ts), and
        // main.ts its rooms (so does the launcher), plugins/harness.ts the packs' runtime
        await deno([
          "compile",
          ...BAKED,
          "--include",
          "cli",
          ...[
            "core/early/mod.ts",
            "scheme/cli/mod.ts",
            "scheme/mod.ts",
            "plugins/mod.ts",
            "stdlib-harness/mod.ts",
          ]
            .flatMap((m) => ["--include", m]),
          "--target",
          t,
          "-o",
          `dist/hs-${t}`,
          "release.ts",
        ]);
      }
    });
    return;
  }
  console.error("usage: scripts/build.ts compile [--target <triple>]… | bundle | flags");
  Deno.exit(2);
}

if (import.meta.main) await main(Deno.args);
