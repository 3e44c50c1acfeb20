/**
 * The repository's deno.json with some imports replaced, written into a temp directory: how a
 * test runs the real sources with one package swapped (a module that throws when loaded, a
 * recorder around the real one) to see what a run loads and uses.
 *
 * @module
 */
import { join } from "node:path";
import { runExe } from "./install.ts";
import { type CliRun, REPO } from "./workspace.ts";

/** The repository's `imports` (the specifiers the sources use → what they resolve to). */
export async function repoImports(): Promise<Record<string, string>> {
  return JSON.parse(await Deno.readTextFile(join(REPO, "deno.json"))).imports;
}

/**
 * Writes `dir/deno.json`: the repository's configuration (its `unstable` features and imports)
 * with `replaced` imports on top. Returns its path, for `deno run --no-lock --config PATH`.
 */
export async function configWith(dir: string, replaced: Record<string, string>): Promise<string> {
  const repo = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  const path = join(dir, "deno.json");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ unstable: repo.unstable, imports: { ...repo.imports, ...replaced } }),
  );
  return path;
}

/**
 * Runs `deno run -A main.ts <args>` of the repository under `config` (from {@link configWith}),
 * in a workspace's directory and environment, without a terminal.
 */
export function runMainWith(
  config: string,
  w: { ws: string; env: Record<string, string> },
  args: string[],
): Promise<CliRun> {
  return runExe(
    Deno.execPath(),
    ["run", "-A", "-q", "--no-lock", "--config", config, join(REPO, "main.ts"), ...args],
    { cwd: w.ws, env: w.env },
  );
}
