/**
 * What an entry (launch.ts, main.ts, release.ts) answers before loading anything else:
 * `hs version`, and whether the workspace may hold commands of its own (then `hs --help`
 * must list them, and only the CLI can). Reads a few directory entries; loads nothing.
 *
 * @module
 */
import { versionLine } from "./build_info.ts";
import { dirname, join } from "./path.ts";
import { VERSION } from "./version.ts";

/** True when `path` exists (without following a final symlink's target). */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** `$HARNESS_HOME` and every `.harness` at or above `cwd`: where commands are found. */
function commandSources(env: Record<string, string | undefined>, cwd: string): string[] {
  const home = env.HARNESS_HOME || join(env.HOME ?? "/", ".harness");
  const dirs = [home];
  for (let d = cwd;; d = dirname(d)) {
    dirs.push(join(d, ".harness"));
    if (dirname(d) === d) break;
  }
  return dirs;
}

/** The `plugins/*` packs of a source directory. */
function packsOf(dir: string): string[] {
  try {
    return [...Deno.readDirSync(join(dir, "plugins"))].map((e) => e.name);
  } catch {
    return []; // no packs here
  }
}

/**
 * True when some `commands/<name>` may replace a built-in: in `$HARNESS_HOME`, or in a
 * `.harness/` (or one of its `plugins/*` packs) at or above `cwd`. Trusted or not — this is
 * the cheap test that sends `hs version` past the launcher's own answer to the CLI, which
 * runs the command only when its source is trusted (the same-basename rule of PROTOCOLS
 * "Discovery" holds for every built-in).
 */
export function commandMayBeReplaced(
  name: string,
  env: Record<string, string | undefined>,
  cwd: string,
): boolean {
  for (const dir of commandSources(env, cwd)) {
    if (exists(join(dir, "commands", name))) return true;
    if (packsOf(dir).some((p) => exists(join(dir, "plugins", p, "commands", name)))) return true;
  }
  return false;
}

/**
 * True when this run may have commands beyond the built-ins: a `commands/` in a source
 * directory or one of its packs, or a `plugins.json` (its plugins may add commands). A
 * superset of what the CLI lists: when false, `hs --help` is the built-ins' help alone.
 */
export function commandsMayExist(env: Record<string, string | undefined>, cwd: string): boolean {
  const home = env.HARNESS_HOME || join(env.HOME ?? "/", ".harness");
  if (exists(join(home, "plugins.json"))) return true;
  for (const dir of commandSources(env, cwd)) {
    if (exists(join(dir, "commands"))) return true;
    if (packsOf(dir).some((p) => exists(join(dir, "plugins", p, "commands")))) return true;
  }
  return false;
}

/**
 * The line an entry prints for `hs version` / `--version` / `-v` before loading anything
 * else, or undefined when it must not answer itself: another command is asked for, or a
 * `commands/version` may replace the built-in (the CLI then runs it when its source is
 * trusted) — unless the `bin/harness` shim asked for the built-in (`HS_RUN_BUILTIN`).
 */
export function builtinVersionAnswer(
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): string | undefined {
  if (args.length !== 1 || !["version", "--version", "-v"].includes(args[0])) return undefined;
  if (env.HS_RUN_BUILTIN !== "version" && commandMayBeReplaced("version", env, cwd)) {
    return undefined;
  }
  return `hs ${versionLine(VERSION)}`;
}
