/**
 * The `hs` command line (PROTOCOLS "Commands and CLI"): routing of the first
 * word — a built-in command, an executable or plugin command (which may also
 * replace a built-in of its name), or the start of a message to the agent —
 * and the commander program with one file per built-in command.
 *
 * A run loads the one command it runs (cli/command_table.ts says where each is) and
 * `hs --help` none: the top-level help is printed from the table, and commander, the
 * harness and the views load only on the paths that use them (cli/lazy.ts).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "./base/mod.ts";
import type * as Harness from "./harness/mod.ts";
import type { CommandContext, RegisterCommand } from "./harness/mod.ts";
import type * as Launch from "./launch/mod.ts";
import type * as External from "./external/mod.ts";
import type * as View from "./view/mod.ts";
import type * as Commands from "./commands/mod.ts";
import {
  type BuiltinCommand,
  BUILTINS,
  DOCS_LINE,
  PROGRAM_DESCRIPTION,
  topLevelHelp,
  USAGE,
} from "./command_table.ts";
import { loadLate } from "./lazy.ts";

/** Names of the built-in commands. */
export const BUILTIN_COMMANDS: readonly string[] = BUILTINS.map((b) => b.name);

const harnessRoom = () => loadLate<typeof Harness>("./harness/mod.ts");
const launchRoom = () => loadLate<typeof Launch>("./launch/mod.ts");
const externalRoom = () => loadLate<typeof External>("./external/mod.ts");
const viewRoom = () => loadLate<typeof View>("./view/mod.ts");

/** A built-in command's registration, its module loaded now. */
async function registerOf(b: BuiltinCommand): Promise<RegisterCommand> {
  return (await loadLate<{ register: RegisterCommand }>(b.module)).register;
}

/** The version line (`hs version`). */
async function versionText(): Promise<string> {
  const m = await loadLate<{ versionText: typeof Commands.versionText }>("./commands/version.ts");
  return m.versionText();
}

/**
 * The commander program with the built-in commands registered: every one, or those
 * `only` names (what a run needs; the others are not loaded). With `held`, a usage error is
 * kept there instead of printed.
 */
export async function buildProgram(
  ctx: CommandContext,
  only?: string[],
  held?: { usage?: string },
): Promise<Command> {
  const { Command } = await import("@commander-js/extra-typings");
  const { usageErrorText } = await viewRoom();
  const program = new Command("hs")
    .description(PROGRAM_DESCRIPTION)
    .version((await versionText()).trim().slice(3), "-v, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.cli.stdout(s),
      writeErr: (s) => ctx.cli.stderr(s),
      outputError: (s, write) => held ? held.usage = s : write(usageErrorText(s)),
    });
  const wanted = BUILTINS.filter((b) => !only || only.includes(b.name));
  const registers = await Promise.all(wanted.map(registerOf));
  for (const register of registers) register(program as unknown as Command, ctx);
  return program as unknown as Command;
}

/** The width commander wraps help to: the terminal's, or 80. */
function helpWidth(cli: CliContext): number {
  if (!cli.stdoutIsTerminal) return 80;
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

/** `hs help` / `hs --help`: the table's help, then the commands of the workspace and plugins. */
async function topHelp(ctx: CommandContext): Promise<void> {
  const cli = ctx.cli;
  cli.stdout(topLevelHelp(helpWidth(cli)));
  cli.stdout(USAGE);
  if ((await externalRoom()).mayHaveCommands(cli)) {
    const help = await loadLate<{ listExternal: typeof Commands.helpExternal }>(
      "./commands/help.ts",
    );
    await help.listExternal(ctx, undefined, [...BUILTIN_COMMANDS]);
  }
  cli.stdout(DOCS_LINE);
}

/** Parses argv and runs; resolves to the exit code. */
export async function dispatch(argv: string[], cli: CliContext): Promise<number> {
  let code = 0;
  /** A word only a plugin may answer: looked up in the harness the agent makes (one, not two). */
  let pluginWord: { word: string; rest: string[] } | undefined;
  const ctx: CommandContext = {
    cli,
    async run(flags, fn) {
      const { withHarness } = await harnessRoom();
      const asked = pluginWord;
      if (!asked) return void (code = await withHarness(cli, flags, fn));
      const external = await externalRoom();
      code = await withHarness(cli, flags, async (h) => {
        const c = external.externalCommands(h).get(asked.word);
        if (c) return await external.runExternal(h, c, asked.rest);
        const typo = (await launchRoom()).typoError(asked.word, asked.rest, known(external, cli));
        if (typo) throw typo;
        return await fn(h);
      });
    },
    done(c) {
      code = c;
    },
  };
  // a `bin/harness` shim sourced by a command named like a built-in asks for the built-in
  const forced = cli.env.HS_RUN_BUILTIN
    ? (await externalRoom()).takeBuiltinRequest(cli)
    : undefined;
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    // `hs --version` is `hs version`: a commands/version replaces both (PROTOCOLS "Commands")
    if (forced === "version" || !(await externalRoom()).mayBeExternal("version", cli, false)) {
      cli.stdout(await versionText());
      return 0;
    }
    argv = ["version"];
  }
  if (argv[0] === "--help" || argv[0] === "-h") argv = ["help", ...argv.slice(1)];
  if (argv.length === 1 && argv[0] === "help") {
    await topHelp(ctx);
    return code;
  }
  const { scanArgs, typoError } = await launchRoom();
  const { leading, word, rest } = scanArgs(argv);
  let command: string;
  if (argv[leading.length] === "--") {
    command = "agent";
    argv = ["agent", ...argv]; // `hs -- <words>`: a message, whatever its first word
  } else if (word === undefined) {
    command = cli.stdinIsTerminal ? "repl" : "agent";
    argv = [command, ...argv];
  } else {
    // An executable or plugin command of this name; an executable may replace a built-in
    // (built-ins are the lowest source), a plugin command may not.
    const builtin = BUILTIN_COMMANDS.includes(word);
    const external = await externalRoom();
    if (forced !== word && external.mayBeExternal(word, cli, !builtin)) {
      if (builtin || external.executableCommandNames(cli).includes(word)) {
        const ran = await tryExternal(word, leading, rest, cli, builtin);
        if (ran !== undefined) return ran;
      } else pluginWord = { word, rest }; // only a plugin may have it: the agent's harness tells
    }
    const typo = builtin || pluginWord ? undefined : typoError(word, rest, known(external, cli));
    if (typo) throw typo;
    command = builtin ? word : "agent";
    argv = builtin
      ? [word, ...leading, ...rest] // global flags may come first: `hs --trust-workspace tools`
      : ["agent", ...argv];
  }
  // a command's plain forms may be answered without commander (its module's `quick`)
  const quick = !pluginWord && leading.length === 0
    ? await quickAnswer(command, argv.slice(1), ctx)
    : undefined;
  if (quick !== undefined) return quick === "ran" ? code : quick;
  // `hs help <name>` shows another command's help: every command is registered for it
  const held: { usage?: string } | undefined = pluginWord ? {} : undefined;
  const program = await buildProgram(ctx, command === "help" ? undefined : [command], held);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (!pluginWord || held?.usage === undefined) throw err;
    // the words were no message the agent takes: a plugin command's own flags, perhaps
    const ran = await tryExternal(pluginWord.word, leading, rest, cli, false);
    if (ran !== undefined) return ran;
    const typo = typoError(pluginWord.word, rest, known(await externalRoom(), cli));
    if (typo) throw typo;
    cli.stderr((await viewRoom()).usageErrorText(held.usage));
    throw err;
  }
  return code;
}

/**
 * A command module's own answer to its plain forms (`quick`), if it has one and they are: the
 * exit status, or "ran" when it ran through the context (whose `done`/`run` set the status).
 */
async function quickAnswer(
  command: string,
  args: string[],
  ctx: CommandContext,
): Promise<number | "ran" | undefined> {
  const b = BUILTINS.find((x) => x.name === command);
  if (!b) return undefined;
  type Quick = (
    args: readonly string[],
    cli: CliContext,
    ctx: CommandContext,
  ) => number | "ran" | undefined | Promise<number | "ran" | undefined>;
  const m = await loadLate<{ quick?: Quick }>(b.module);
  return await m.quick?.(args, ctx.cli, ctx);
}

/** The built-in commands with their subcommands, and the executable commands on the walk. */
function known(external: typeof External, cli: CliContext): Launch.KnownCommand[] {
  const known: Launch.KnownCommand[] = BUILTINS.map((b) => ({
    name: b.name,
    subcommands: [...b.subcommands],
  }));
  for (const name of external.executableCommandNames(cli)) known.push({ name, subcommands: [] });
  return known;
}

/** Runs `hs <word> …` as an external command when there is one; undefined otherwise. */
async function tryExternal(
  word: string,
  leading: string[],
  rest: string[],
  cli: CliContext,
  builtin: boolean,
): Promise<number | undefined> {
  const { withHarness, harnessFlagsOf } = await harnessRoom();
  const { externalCommands, runExternal, scopeFlags } = await externalRoom();
  let found = false;
  const code = await withHarness(cli, harnessFlagsOf(leading), async (h) => {
    const c = externalCommands(h).get(word);
    if (!c || (builtin && c.kind !== "executable")) return 0;
    found = true;
    return await runExternal(h, c, rest, scopeFlags(leading));
  });
  return found ? code : undefined;
}
