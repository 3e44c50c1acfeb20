/**
 * The plain forms of a listing command without commander (a command module's `quick`):
 * nothing but some of its boolean flags, each at most once. Anything else — an argument, a
 * value, an unknown or repeated flag, `--help` — is left to commander, with its errors and
 * help; the options object is the one commander gives for the same words.
 *
 * @module
 */

/** A boolean flag as it is typed (`--trust-workspace`) and as commander names it (`trustWorkspace`). */
export type PlainFlags = Record<string, string>;

/**
 * The options of `args` when they are only flags of `known` (each once); undefined otherwise.
 * `plainFlags(["--json"], { "--json": "json" })` is `{ json: true }`.
 */
export function plainFlags(
  args: readonly string[],
  known: PlainFlags,
): Record<string, true> | undefined {
  const options: Record<string, true> = {};
  for (const a of args) {
    const name = Object.hasOwn(known, a) ? known[a] : undefined;
    if (name === undefined || options[name]) return undefined;
    options[name] = true;
  }
  return options;
}
