/**
 * One line asked on the terminal (readline, loaded only when asked); undefined when stdin
 * closes first.
 *
 * @module
 */
import type * as Readline from "node:readline/promises";

/** Asks one line on the terminal. */
export async function askLine(question: string): Promise<string | undefined> {
  const [readline, { default: process }] = await Promise.all([
    import("node:readline/promises"),
    import("node:process"),
  ]);
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
  } as Readline.ReadLineOptions);
  try {
    const closed = new Promise<undefined>((r) => rl.once("close", () => r(undefined)));
    return await Promise.race([rl.question(question).catch(() => undefined), closed]);
  } finally {
    rl.close();
  }
}
