/**
 * The `hs` command line (PROTOCOLS "Commands and CLI"): routing of the first
 * word — a built-in command, an executable or plugin command (which may also
 * replace a built-in of its name), or the start of a message to the agent —
 * and the commander program with one file per built-in command.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import type { CliContext } from "./base/mod.ts";
import {
  type CommandContext,
  harnessFlagsOf,
  type RegisterCommand,
  withHarness,
} from "./harness/mod.ts";
import { type KnownCommand, scanArgs, typoError } from "./launch/mod.ts";
import {
  executableCommandNames,
  externalCommands,
  mayBeExternal,
  runExternal,
  scopeFlags,
  takeBuiltinRequest,
} from "./external/mod.ts";
import { usageErrorText } from "./view/mod.ts";
import {
  acp,
  agent,
  auth,
  doctor,
  floor,
  help,
  hooks,
  init,
  packs,
  plugins,
  providers,
  repl,
  resume,
  scheme,
  session,
  skills,
  tools,
  trust,
  version,
  versionText,
  web,
} from "./commands/mod.ts";

/** The built-in commands, in the order `hs help` lists them. */
const COMMANDS: [string, RegisterCommand][] = [
  ["init", init],
  ["agent", agent],
  ["repl", repl],
  ["resume", resume],
  ["session", session],
  ["tools", tools],
  ["hooks", hooks],
  ["skills", skills],
  ["plugins", plugins],
  ["providers", providers],
  ["packs", packs],
  ["auth", auth],
  ["doctor", doctor],
  ["floor", floor],
  ["trust", trust],
  ["scheme", scheme],
  ["acp", acp],
  ["web", web],
  ["version", version],
  ["help", help],
];

/** Names of the built-in commands. */
export const BUILTIN_COMMANDS: readonly string[] = COMMANDS.map(([n]) => n);

/** The commander program with every built-in command registered. */
export function buildProgram(ctx: CommandContext): Command {
  const program = new Command("hs")
    .description(
      "hs — an LLM agent harness you extend with executables, TypeScript plugins and Scheme",
    )
    .version(versionText().trim().slice(3), "-v, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.cli.stdout(s),
      writeErr: (s) => ctx.cli.stderr(s),
      outputError: (s, write) => write(usageErrorText(s)),
    });
  for (const [, register] of COMMANDS) register(program as unknown as Command, ctx);
  return program as unknown as Command;
}

/** Parses argv and runs; resolves to the exit code. */
export async function dispatch(argv: string[], cli: CliContext): Promise<number> {
  let code = 0;
  const ctx: CommandContext = {
    cli,
    async run(flags, fn) {
      code = await withHarness(cli, flags, fn);
    },
    done(c) {
      code = c;
    },
  };
  const forced = takeBuiltinRequest(cli);
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    // `hs --version` is `hs version`: a commands/version replaces both (PROTOCOLS "Commands")
    if (forced === "version" || !mayBeExternal("version", cli, false)) {
      cli.stdout(versionText());
      return 0;
    }
    argv = ["version"];
  }
  if (argv[0] === "--help" || argv[0] === "-h") argv = ["help", ...argv.slice(1)];
  const { leading, word, rest } = scanArgs(argv);
  const program = buildProgram(ctx);
  if (argv[leading.length] === "--") {
    argv = ["agent", ...argv]; // `hs -- <words>`: a message, whatever its first word
  } else if (word === undefined) {
    argv = [cli.stdinIsTerminal ? "repl" : "agent", ...argv];
  } else {
    // An executable or plugin command of this name; an executable may replace a built-in
    // (built-ins are the lowest source), a plugin command may not.
    const builtin = BUILTIN_COMMANDS.includes(word);
    if (forced !== word && mayBeExternal(word, cli, !builtin)) {
      const ran = await tryExternal(word, leading, rest, cli, builtin);
      if (ran !== undefined) return ran;
    }
    const typo = builtin ? undefined : typoError(word, rest, knownCommands(program, cli));
    if (typo) throw typo;
    argv = builtin
      ? [word, ...leading, ...rest] // global flags may come first: `hs --trust-workspace tools`
      : ["agent", ...argv];
  }
  await program.parseAsync(argv, { from: "user" });
  return code;
}

/** The built-in commands with their subcommands, and the executable commands on the walk. */
function knownCommands(program: Command, cli: CliContext): KnownCommand[] {
  const known: KnownCommand[] = program.commands.map((c) => ({
    name: c.name(),
    subcommands: c.commands.flatMap((s) => [s.name(), ...s.aliases()]),
  }));
  for (const name of executableCommandNames(cli)) known.push({ name, subcommands: [] });
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
  let found = false;
  const code = await withHarness(cli, harnessFlagsOf(leading), async (h) => {
    const c = externalCommands(h).get(word);
    if (!c || (builtin && c.kind !== "executable")) return 0;
    found = true;
    return await runExternal(h, c, rest, scopeFlags(leading));
  });
  return found ? code : undefined;
}
