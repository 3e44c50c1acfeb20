/**
 * The built-in commands as `hs --help` lists them — name, usage term, description, the
 * subcommands a typo may mean — and where each command's module is. The top-level help is
 * printed from this table, in commander's layout, without loading any command;
 * tests/cli/command_table_test.ts holds it equal to what the commands register.
 *
 * @module
 */

/** One built-in command. */
export interface BuiltinCommand {
  readonly name: string;
  /** The usage term of the `Commands:` section, as commander prints it. */
  readonly term: string;
  readonly description: string;
  /** Subcommand names and aliases (for "did you mean"). */
  readonly subcommands: readonly string[];
  /** The command's module, relative to cli/ (loaded when the command runs). */
  readonly module: string;
}

const c = (
  name: string,
  term: string,
  description: string,
  subcommands: string[] = [],
  module = `./commands/${name}.ts`,
): BuiltinCommand => ({ name, term, description, subcommands, module });

/** The built-in commands, in the order `hs help` lists them. */
export const BUILTINS: readonly BuiltinCommand[] = [
  c(
    "init",
    "init [options]",
    "set this project up: a provider .conf and settings.conf, trusted, checked with one request",
  ),
  c(
    "agent",
    "agent [options] [words...]",
    "run the agent headless: hs agent [session-id] <message…>",
  ),
  c("repl", "repl [options] [session-id]", "interactive session (the default on a terminal)"),
  c(
    "resume",
    "resume [options] [words...]",
    "continue this workspace's latest session (REPL, or one message)",
  ),
  c("session", "session", "list and inspect sessions; export and import them as archives", [
    "list",
    "show",
    "dir",
    "turns",
    "rewind",
    "fork",
    "export",
    "import",
  ]),
  c("tools", "tools [options]", "list the tools the model can call, and rejected ones"),
  c("hooks", "hooks [options] [stage]", "list hooks per stage (built-in and executable)"),
  c("skills", "skills [options]", "list skills (the catalog the model sees)"),
  c(
    "plugins",
    "plugins [options]",
    "list runtime plugins: state, contributions, and why one failed",
  ),
  c(
    "providers",
    "providers [options] [name]",
    "list providers and .conf variants, their readiness and which one is used",
  ),
  c(
    "packs",
    "packs [options]",
    "list behavior packs, their bots and load errors (exits 1 when a pack has a load error); " +
      "approve their guards",
    ["approve", "state", "call", "propose", "command", "log", "test"],
    "./commands/packs/mod.ts",
  ),
  c("auth", "auth", "store API keys for providers (0600 .auth.json; never printed)", [
    "set",
    "list",
    "rm",
  ]),
  c("doctor", "doctor [options]", "explain what was discovered, and why something was skipped"),
  c(
    "floor",
    "floor [options]",
    "show the effect floor: what tools may read, write, reach, run and see, and why",
  ),
  c(
    "trust",
    "trust [options] [path]",
    "trust a workspace's .harness/ executables and .mcp.json servers (stored in HARNESS_HOME)",
  ),
  c(
    "scheme",
    "scheme [args...]",
    "run a Scheme file, or a REPL / form-by-form evaluation of stdin",
  ),
  c(
    "acp",
    "acp [options]",
    "serve the Agent Client Protocol on stdin/stdout (editors such as Zed; see docs/acp.md)",
  ),
  c(
    "web",
    "web [options]",
    "serve sessions, /context, /plugins and plugin pages in a browser (loopback, per-run token)",
  ),
  c("version", "version", "print the version"),
  c("help", "help [command]", "show help, the executable commands and the tools"),
];

/** The program's description (the second paragraph of `hs --help`). */
export const PROGRAM_DESCRIPTION =
  "hs — an LLM agent harness you extend with executables, TypeScript plugins and Scheme";

const PROGRAM_OPTIONS: [string, string][] = [
  ["-v, --version", "output the version number"],
  ["-h, --help", "display help for command"],
];

/** The built-in command of a name. */
export function builtinCommand(name: string): BuiltinCommand | undefined {
  return BUILTINS.find((b) => b.name === name);
}

/** Commander's word wrap (Help.boxWrap): whole words, lines at most `width` wide. */
function boxWrap(str: string, width: number): string {
  if (width < 40) return str;
  const out: string[] = [];
  for (const line of str.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      out.push("");
      continue;
    }
    let sum = [chunks.shift()!];
    let sumWidth = sum[0].length;
    for (const chunk of chunks) {
      if (sumWidth + chunk.length <= width) {
        sum.push(chunk);
        sumWidth += chunk.length;
        continue;
      }
      out.push(sum.join(""));
      const next = chunk.trimStart();
      sum = [next];
      sumWidth = next.length;
    }
    out.push(sum.join(""));
  }
  return out.join("\n");
}

/** Commander's item layout (Help.formatItem): the term padded, the description wrapped. */
function formatItem(term: string, termWidth: number, description: string, width: number): string {
  const rest = width - termWidth - 2 - 2;
  const text = rest < 40
    ? description
    : boxWrap(description, rest).replace(/\n/g, "\n" + " ".repeat(termWidth + 2));
  return "  " + term.padEnd(termWidth) + "  " + text.replace(/\n/g, "\n  ");
}

/**
 * `hs --help` as commander prints it for the program with every built-in registered,
 * `width` columns wide (80 unless standard output is a terminal).
 */
export function topLevelHelp(width = 80): string {
  const terms = [...PROGRAM_OPTIONS.map(([t]) => t), ...BUILTINS.map((b) => b.term)];
  const termWidth = Math.max(...terms.map((t) => t.length));
  const item = (t: string, d: string) => formatItem(t, termWidth, d, width);
  return [
    "Usage: hs [options] [command]",
    "",
    boxWrap(PROGRAM_DESCRIPTION, width),
    "",
    "Options:",
    ...PROGRAM_OPTIONS.map(([t, d]) => item(t, d)),
    "",
    "Commands:",
    ...BUILTINS.map((b) => item(b.term, b.description)),
    "",
  ].join("\n");
}

/** The ways to give the agent a message, after the commands in `hs --help`. */
export const USAGE =
  "\nUsage: hs <message…>        run the agent on a message (a first word that is not a command\n" +
  "                              starts one, unless it is a command's typo; see docs/cli.md)\n" +
  "       hs -- <message…>     the words as a message, whatever the first one is\n" +
  "       hs <session-id> <msg>  continue a session\n" +
  "       echo msg | hs          message on stdin\n" +
  "       hs                     the REPL, on a terminal\n";

/** The last line of `hs --help`. */
export const DOCS_LINE = "\nDocs: README.md and docs/ in the repository.\n";
