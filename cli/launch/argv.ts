/**
 * A first look at the command line, shared by the launcher and the CLI: the
 * global flags that may come before the command word (`hs --trust-workspace
 * mycmd a b`), the command word itself, and what the rest asks of the effect
 * floor. Commander parses each command's own flags afterwards; this scan only
 * needs to know which flags take a value.
 *
 * @module
 */

/** Flags that take a value (the next word, or `--flag=value`). */
const VALUE_FLAGS = new Set([
  "-p",
  "--provider",
  "-m",
  "--model",
  "--bot",
  "--floor",
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-run",
  "--allow-env",
  "--deny-read",
  "--deny-write",
  "--deny-net",
  "--deny-run",
  "--deny-env",
  "-n",
  "--limit",
  "--port",
  "--host",
]);

/** The command line, split around its first word. */
export interface ScannedArgs {
  /** Flags before the first word (with their values). */
  leading: string[];
  /** The first word that is not a flag or a flag's value, if any. */
  word?: string;
  /** Everything after the first word, untouched. */
  rest: string[];
}

/** Splits argv into leading flags, the first word and the rest. */
export function scanArgs(argv: string[]): ScannedArgs {
  let i = 0;
  while (i < argv.length) {
    const a = argv[i];
    if (a === "--") {
      return { leading: argv.slice(0, i), word: argv[i + 1], rest: argv.slice(i + 2) };
    }
    if (!a.startsWith("-") || a === "-") break;
    i += VALUE_FLAGS.has(a) ? 2 : 1;
  }
  return {
    leading: argv.slice(0, Math.min(i, argv.length)),
    word: argv[i],
    rest: argv.slice(i + 1),
  };
}

/** Every value of a flag (`--x v`, `--x=v`; comma lists split). */
export function flagValues(argv: string[], ...names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break;
    for (const n of names) {
      let v: string | undefined;
      if (a === n) v = argv[i + 1];
      else if (a.startsWith(n + "=")) v = a.slice(n.length + 1);
      if (v !== undefined) out.push(...v.split(",").map((s) => s.trim()).filter(Boolean));
    }
  }
  return out;
}

/** The last value of a flag, if given. */
export function flagValue(argv: string[], ...names: string[]): string | undefined {
  return flagValues(argv, ...names).at(-1);
}

/** True when a boolean flag is present (before a `--`). */
export function hasFlag(argv: string[], name: string): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes(name);
}
