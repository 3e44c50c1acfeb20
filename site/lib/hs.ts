/**
 * Spawning the real `hs` CLI from source, deterministically: a fresh temporary
 * HOME / HARNESS_HOME, `NO_COLOR=1`, and the npm cache of this process.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "./paths.ts";

/** The argv that runs `hs` from source (`deno run -A main.ts`) with the repository's config. */
export function hsArgv(): string[] {
  return [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    "--config",
    join(REPO, "deno.json"),
    join(REPO, "main.ts"),
  ];
}

/**
 * An environment for a spawned `hs` whose home is `home`: HOME and HARNESS_HOME point
 * there, colours are off, and DENO_DIR keeps this process's npm cache (HOME moved).
 */
export function hsEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    HARNESS_HOME: join(home, ".harness"),
    HARNESS_LOG: join(home, "harness.log"),
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
  };
  for (const k of ["XDG_CACHE_HOME", "NPM_CONFIG_REGISTRY", "npm_config_registry"]) {
    const v = Deno.env.get(k);
    if (v) env[k] = v;
  }
  return { ...env, ...extra };
}

/** Output of one `hs` run. */
export interface HsResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hs args…` in `cwd` with the environment `env` (no stdin) and collects its output. */
export async function runHs(
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<HsResult> {
  const [cmd, ...pre] = hsArgv();
  const out = await new Deno.Command(cmd, {
    args: [...pre, ...args],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** True when bubblewrap can sandbox child processes here (else `hs` needs HARNESS_UNSANDBOXED=1). */
export function bwrapWorks(): boolean {
  try {
    return new Deno.Command(Deno.env.get("HARNESS_BWRAP") ?? "bwrap", {
      args: ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "/bin/true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Extra environment so `hs` runs child processes where bubblewrap is missing. */
export function sandboxEnv(): Record<string, string> {
  return bwrapWorks() ? {} : { HARNESS_UNSANDBOXED: "1" };
}
