/**
 * Release builds: `deno task compile [target…]` makes single executables
 * (linux x64/arm64, macOS x64/arm64) and `deno task bundle` one JavaScript
 * file, both from `release.ts` (the launcher and the harness in one module)
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

async function main(args: string[]): Promise<void> {
  const [cmd, ...rest] = args;
  if (cmd === "flags") {
    console.log(BAKED.join(" "));
    return;
  }
  await Deno.mkdir(`${ROOT}/dist`, { recursive: true });
  if (cmd === "bundle") {
    await withRevision(() => deno(["bundle", "-q", "release.ts", "-o", "dist/hs.js"]));
    return;
  }
  if (cmd === "compile") {
    const targets: string[] = [];
    for (let i = 0; i < rest.length; i++) if (rest[i] === "--target") targets.push(rest[++i]);
    await withRevision(async () => {
      for (const t of targets.length ? targets : TARGETS) {
        // cli/ is included whole: the CLI imports its commands by a variable (cli/lazy.ts), and
        // main.ts its rooms (so does the launcher)
        await deno([
          "compile",
          ...BAKED,
          "--include",
          "cli",
          ...["core/early/mod.ts", "scheme/cli/mod.ts", "scheme/mod.ts", "plugins/mod.ts"]
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
