/**
 * The names of hs's built-in commands, as a leaf every room may read (the command table itself,
 * cli/program.ts, imports every command): the harness is created with them reserved, so a
 * runtime plugin's command of one of these names is refused when it registers — it would be
 * listed in `--help` and never run (issue 27 point 13). tests/cli checks the list against the
 * command table.
 */
export const BUILTIN_COMMAND_NAMES: readonly string[] = [
  "init",
  "agent",
  "repl",
  "resume",
  "session",
  "tools",
  "hooks",
  "skills",
  "plugins",
  "providers",
  "packs",
  "auth",
  "doctor",
  "floor",
  "trust",
  "scheme",
  "acp",
  "web",
  "version",
  "help",
];
