/**
 * A mistyped command is a usage error, not a prompt (docs/cli.md "Commands or
 * a message"). The first word is a typo when it is not a command, is written
 * in lower-case letters (digits, `-`, `_`), and is close to a command's name —
 * edit distance 1 for a name of five letters or fewer, 2 for a longer one
 * (transpositions count 1) — and either
 *
 * - it is the only word (`hs tols`, `hs docter`), or
 * - the next word is one of that command's subcommands (`hs sesion list`).
 *
 * Any other line is a message to the agent: `hs fix the bug`, `hs hello`, `hs test the
 * parser`. `hs -- <words>` sends the words as they are.
 *
 * @module
 */
import { HarnessError } from "../../core/base/mod.ts";

/** Optimal-string-alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** How far a word may be from a command's name to count as its typo. */
function allowed(name: string): number {
  return name.length <= 5 ? 1 : 2;
}

/** The command a word mistypes (nearest first, then in the given order), if any. */
export function nearestCommand(word: string, names: Iterable<string>): string | undefined {
  if (!/^[a-z][a-z0-9_-]*$/.test(word)) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(word, name);
    if (d === 0) return undefined; // it is a command
    if (d <= allowed(name) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** A known command: its name and its subcommands' names. */
export interface KnownCommand {
  name: string;
  subcommands: readonly string[];
}

/**
 * The usage error for `hs <word> <rest…>` when the rule above makes it a typo;
 * undefined when the line is a message.
 */
export function typoError(
  word: string,
  rest: readonly string[],
  known: readonly KnownCommand[],
): HarnessError | undefined {
  const words = rest.filter((w) => !w.startsWith("-"));
  const near = nearestCommand(word, known.map((k) => k.name));
  if (!near) return undefined;
  const cmd = known.find((k) => k.name === near)!;
  if (words.length > 0 && !cmd.subcommands.includes(words[0])) return undefined;
  const fixed = ["hs", near, ...rest].join(" ");
  const asPrompt = ["hs", "--", word, ...rest].join(" ");
  return new HarnessError(
    `unknown command "${word}"`,
    `did you mean \`${fixed}\`? To send it to the model as a message: ${asPrompt}`,
    2,
  );
}
