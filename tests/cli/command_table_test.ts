/**
 * `hs --help` is printed from cli/command_table.ts without loading a command: the table must
 * say what the commands register, the text must be commander's, and the run must load none of
 * the heavy modules (read from Deno's own module-load log, `-L debug`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Command } from "@commander-js/extra-typings";
import { BUILTINS, topLevelHelp } from "../../cli/command_table.ts";
import { buildProgram } from "../../cli/program.ts";
import * as Commands from "../../cli/commands/mod.ts";
import type { CliContext } from "../../cli/base/mod.ts";
import type { CommandContext } from "../../cli/harness/mod.ts";
import { makeWorkspace, REPO } from "../support/workspace.ts";

function context(): CommandContext {
  const cli = { stdout() {}, stderr() {}, env: {}, cwd: "/" } as unknown as CliContext;
  return { cli, run: async () => {}, done() {} };
}

Deno.test("the table lists each built-in as it registers: term, description, subcommands", async () => {
  const program = await buildProgram(context());
  const help = program.createHelp();
  assert.deepEqual(
    program.commands.map((c) => c.name()),
    BUILTINS.map((b) => b.name),
  );
  for (const c of program.commands) {
    const b = BUILTINS.find((x) => x.name === c.name())!;
    assert.equal(b.term, help.subcommandTerm(c as unknown as Command), c.name());
    assert.equal(b.description, c.description(), c.name());
    assert.deepEqual(
      [...b.subcommands],
      c.commands.flatMap((s) => [s.name(), ...s.aliases()]),
      c.name(),
    );
  }
});

Deno.test("the table names every command of cli/commands/mod.ts, no more", () => {
  // besides the registers: version's and help's extras, and a command's `quick` (<name>Quick)
  const registers = Object.keys(Commands).filter((k) =>
    !["versionText", "helpExternal"].includes(k) && !k.endsWith("Quick")
  );
  assert.deepEqual(registers.sort(), BUILTINS.map((b) => b.name).sort());
});

Deno.test("the table's help is commander's help of the whole program, at any width", async () => {
  const program = await buildProgram(context());
  for (const width of [80, 120, 60, 30]) {
    program.configureHelp({ helpWidth: width });
    assert.equal(topLevelHelp(width), program.helpInformation(), `width ${width}`);
  }
});

/** The modules a `deno run <entry> …` evaluated, from Deno's debug log. */
async function loadedModules(
  args: string[],
  entry = "main.ts",
  setup?: (ws: string) => Promise<void>,
): Promise<string[]> {
  const w = await makeWorkspace();
  try {
    await setup?.(w.ws);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-worker-options", "-L", "debug", join(REPO, entry), ...args],
      cwd: w.ws,
      env: w.env,
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0);
    const log = new TextDecoder().decode(out.stderr);
    return [...log.matchAll(/for ES module: (\S+?),? \[/g)].map((m) => m[1]);
  } finally {
    await w.cleanup();
  }
}

Deno.test("hs --help and hs version load no command, no npm package, no plugin, pack or Scheme", async () => {
  for (const args of [["--help"], ["help"], ["version"]]) {
    const mods = await loadedModules(args);
    assert.ok(mods.some((m) => m.endsWith("/main.ts")), `the log names modules: ${args}`);
    const heavy = mods.filter((m) =>
      m.startsWith("npm:") || m.includes("/node_modules/") || m.includes("registry.npmjs.org") ||
      /\/(cli\/commands|cli\/view|cli\/harness|plugins|scheme|core\/packs|core\/loop)\//.test(m)
    );
    assert.deepEqual(heavy, [], `hs ${args.join(" ")}`);
  }
});

Deno.test("the launcher answers hs version and hs --help itself: only the entry's own modules", async () => {
  for (const args of [["--help"], ["-h"], ["help"], ["version"], ["--version"]]) {
    const mods = await loadedModules(args, "launch.ts");
    assert.ok(mods.some((m) => m.endsWith("/launch.ts")), `the log names modules: ${args}`);
    const others = mods.filter((m) =>
      !m.endsWith("/launch.ts") && !/\/(core\/early|cli\/table)\/[a-z_]+\.ts$/.test(m)
    );
    assert.deepEqual(others, [], `hs ${args.join(" ")}: no grant, no worker, no Node layer`);
  }
});

Deno.test("hs --help with a commands/ directory goes to the harness, which lists them", async () => {
  const mods = await loadedModules(["--help"], "launch.ts", async (ws) => {
    await Deno.mkdir(join(ws, ".harness", "commands"), { recursive: true });
  });
  assert.ok(mods.some((m) => m.endsWith("/main.ts")), "the harness worker ran");
});

Deno.test("hs session list in its plain forms loads no npm package: no commander, no zod", async () => {
  for (const args of [["session", "list"], ["session", "list", "--all", "-n", "3"]]) {
    const mods = await loadedModules(args, "launch.ts");
    assert.ok(mods.some((m) => m.endsWith("/cli/commands/session.ts")), `ran: ${args}`);
    const npm = mods.filter((m) => m.includes("registry.npmjs.org") || m.startsWith("npm:"));
    assert.deepEqual(npm, [], `hs ${args.join(" ")}`);
  }
});
