/**
 * The floor's `ask` on this terminal: once / always (for this session) /
 * never, read with readline (loaded only when a question is asked). The
 * question quotes what the model asked for: its control characters are shown
 * as pictures, so an escape sequence cannot hide what is approved.
 *
 * @module
 */
import type { Answer, Asker } from "../../core/mod.ts";
import { sanitizeForTerminal } from "../view/mod.ts";

/** Parses a typed answer (anything unclear is "never"). */
export function parseAnswer(text: string): Answer {
  const t = text.trim().toLowerCase();
  if (t === "o" || t === "once" || t === "y" || t === "yes") return "once";
  if (t === "a" || t === "always") return "always";
  return "never";
}

let asking = 0;

/** True while a question waits for the user (the REPL's progress line keeps quiet then). */
export function isAsking(): boolean {
  return asking > 0;
}

/** Asks on the terminal (stdin/stdout) with readline; the REPL is not reading during a turn. */
export const terminalAsker: Asker = async (question) => {
  asking++;
  try {
    return await ask(question);
  } finally {
    asking--;
  }
};

async function ask(question: string): Promise<Answer> {
  const [{ default: process }, { default: readline }] = await Promise.all([
    import("node:process"),
    import("node:readline"),
  ]);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const closed = new Promise<string>((resolve) => rl.once("close", () => resolve("")));
    const asked = new Promise<string>((resolve) =>
      rl.question(sanitizeForTerminal(question), resolve)
    );
    const answer = await Promise.race([asked, closed]);
    return parseAnswer(answer);
  } catch {
    return "never";
  } finally {
    rl.close();
  }
}
