/**
 * Test support: `deno task install` / `uninstall` run as the README says, and the installed
 * `hs` run with a clean environment.
 *
 * @module
 */
import { join } from "node:path";
import { type CliRun, REPO } from "./workspace.ts";

/** Runs `deno task install|uninstall --bin DIR` the way the README says, from the checkout. */
export async function installTask(
  what: "install" | "uninstall",
  bin: string,
  env: Record<string, string>,
): Promise<CliRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", join(REPO, "deno.json"), what, "--bin", bin],
    cwd: REPO,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Runs an executable with a clean environment. */
export async function runExe(
  exe: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<CliRun> {
  const out = await new Deno.Command(exe, {
    args,
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}
