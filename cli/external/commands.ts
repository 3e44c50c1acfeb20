/**
 * Commands besides the built-ins: `commands/<name>` executables of the
 * `.harness/` walk (most local wins; an executable also replaces a built-in
 * of the same name, since built-ins are the lowest source) and commands
 * registered by runtime plugins (`ctx.commands.register`).
 *
 * An executable command gets the terminal (stdin, stdout, stderr) and the
 * filtered child environment; Ctrl-C is its to handle.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import type { CommandDefinition, FrontEnd } from "../../core/mod.ts";
import {
  childKind,
  dirEntries,
  harnessHome,
  ownerLabel,
  readTextOrUndefined,
  statOrUndefined,
} from "../../core/base/mod.ts";
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import { runExecutable, unconfined } from "../../core/exec/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { DescribeCache } from "./describe_cache.ts";

/** A command `hs <name>` may run besides the built-ins. */
export type ExternalCommand =
  | { name: string; kind: "executable"; path: string }
  | { name: string; kind: "plugin"; command: CommandDefinition; owner: string };

/**
 * True when `hs <name>` could be an external command: a `commands/<name>` exists on the
 * walk (trusted or not), or `plugins.json` lists plugins that may register one. Cheap: no
 * harness is made.
 */
export function mayBeExternal(name: string, cli: CliContext, pluginsToo = true): boolean {
  const home = harnessHome(cli.env);
  if (walkHarnessDirs(cli.cwd, home).some((d) => statOrUndefined(join(d.dir, "commands", name)))) {
    return true;
  }
  return pluginsToo && hasUserPlugins(home);
}

/** The names of every `commands/<name>` on the walk (trusted or not): what a typo may mean. */
export function executableCommandNames(cli: CliContext): string[] {
  const home = harnessHome(cli.env);
  const names = new Set<string>();
  for (const d of walkHarnessDirs(cli.cwd, home)) {
    for (const n of dirEntries(join(d.dir, "commands"))?.names ?? []) {
      if (!n.startsWith(".")) names.add(n);
    }
  }
  return [...names];
}

/**
 * True when some `.harness/` of the walk (or a pack in one) has a `commands/` directory,
 * or `plugins.json` lists plugins: only then can `hs help` have more to list.
 */
export function mayHaveCommands(cli: CliContext): boolean {
  const home = harnessHome(cli.env);
  for (const d of walkHarnessDirs(cli.cwd, home)) {
    if (childKind(d.dir, "commands") === "dir") return true;
    for (const pack of dirEntries(join(d.dir, "plugins"))?.dirs ?? []) {
      if (childKind(join(d.dir, "plugins", pack), "commands") === "dir") return true;
    }
  }
  return hasUserPlugins(home);
}

/** True when `$HARNESS_HOME/plugins.json` lists at least one enabled runtime plugin. */
export function hasUserPlugins(home: string): boolean {
  const text = readTextOrUndefined(join(home, "plugins.json"));
  if (text === undefined) return false;
  try {
    const list = (JSON.parse(text) as { runtimePlugins?: unknown }).runtimePlugins;
    return Array.isArray(list) && list.some((e) => (e as { enabled?: unknown })?.enabled !== false);
  } catch {
    return true; // let the harness report the broken file
  }
}

/** Every external command of a harness: executables win over plugin commands of a name. */
export function externalCommands(h: FrontEnd): Map<string, ExternalCommand> {
  const out = new Map<string, ExternalCommand>();
  for (const e of h.catalog.commands()) {
    out.set(e.name, {
      name: e.name,
      kind: "plugin",
      command: e.command,
      owner: ownerLabel(e.owner),
    });
  }
  for (const [name, f] of h.catalog.snapshot().commands) {
    out.set(name, { name, kind: "executable", path: f.path });
  }
  return out;
}

/**
 * One-line description of a command (`--describe`, run in the floor's sandbox); with a
 * `cache`, an executable unchanged since its line was read is not run again.
 */
export async function describeCommand(
  h: FrontEnd,
  c: ExternalCommand,
  cache?: DescribeCache,
): Promise<string> {
  if (c.kind === "plugin") return c.command.describe.split("\n")[0];
  const known = cache?.get(c.path);
  if (known !== undefined) return known;
  const r = await runExecutable(c.path, {
    args: ["--describe"],
    env: h.catalog.childEnv({ stage: "command" }),
    cwd: h.where.cwd,
    timeoutMs: 5000,
    sandbox: h.admin.floor?.sandbox ?? unconfined,
    what: `command ${c.path}`,
  });
  const line = r.code === 0 ? r.stdout.trim().split("\n")[0] ?? "" : "";
  cache?.set(c.path, line);
  return line;
}

/** Leading flags that scope a run (what it may touch, whom it trusts, which bot runs it). */
const SCOPE_VALUE_FLAGS = /^--(floor|bot|(allow|deny)-(read|write|net|run|env))$/;
const SCOPE_BOOL_FLAGS = new Set(["--trust-workspace", "--unsandboxed", "--yes"]);

/**
 * The scope flags among a command line's leading flags, in order (`--floor read`,
 * `--deny-read=/x`, `--trust-workspace`, …): what `$HARNESS_ROOT/bin/harness` gives the hs
 * it starts, so that hs runs under the caller's floor and trust, never wider.
 */
export function scopeFlags(leading: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < leading.length; i++) {
    const a = leading[i];
    const name = a.split("=")[0];
    if (SCOPE_VALUE_FLAGS.test(name)) {
      if (a.includes("=")) out.push(a);
      else if (i + 1 < leading.length) out.push(a, leading[++i]);
    } else if (SCOPE_BOOL_FLAGS.has(a)) out.push(a);
    else if (VALUE_FLAGS_OTHER.has(a)) i++;
  }
  return out;
}

/** Other leading flags that take a value (skipped with it). */
const VALUE_FLAGS_OTHER = new Set(["-p", "--provider", "-m", "--model", "-n", "--limit"]);

/** `words` as one shell-quoted line (bash `eval "a=(…)"` reads it back). */
export function shellWords(words: string[]): string {
  return words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
}

/**
 * The built-in this run must run whatever replaces it: `$HARNESS_ROOT/bin/harness`, sourced
 * by a command named like a built-in, starts hs with `HS_RUN_BUILTIN=<name>` — the command
 * itself must not be picked again. The variable is taken out, so hs's children never see it.
 */
export function takeBuiltinRequest(cli: CliContext): string | undefined {
  const named = cli.env.HS_RUN_BUILTIN;
  delete cli.env.HS_RUN_BUILTIN;
  return named || undefined;
}

/**
 * Runs a command with the remaining arguments; resolves to its exit code. `scope`: the
 * scope flags of this run (`scopeFlags`), handed to the command in `HS_SCOPE` for
 * `$HARNESS_ROOT/bin/harness`.
 */
export async function runExternal(
  h: FrontEnd,
  c: ExternalCommand,
  args: string[],
  scope: string[] = [],
): Promise<number> {
  if (c.kind === "plugin") return await c.command.run(args);
  // The command owns the terminal: Ctrl-C is for it, not for hs.
  const ignore = () => {};
  Deno.addSignalListener("SIGINT", ignore);
  try {
    const child = new Deno.Command(c.path, {
      args,
      cwd: h.where.cwd,
      env: { ...h.catalog.childEnv({ stage: "command" }), HS_SCOPE: shellWords(scope) },
      clearEnv: true,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await child.status;
    return status.signal ? 128 + (status.signal === "SIGINT" ? 2 : 15) : status.code;
  } finally {
    Deno.removeSignalListener("SIGINT", ignore);
  }
}
