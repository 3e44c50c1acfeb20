/**
 * Reads one input on the terminal with the {@link LineEditor}: raw mode and
 * bracketed paste while editing (cooked mode again before the turn runs, so
 * Ctrl-C is a signal then), redrawn after every key. Without a terminal on
 * stdin, one line is read plainly.
 *
 * @module
 */
import { type Key, KeyDecoder } from "./keys.ts";
import { LineEditor, type WidthOf } from "./line_editor.ts";

/** The outcome of one input. */
export type InputResult =
  | { kind: "line"; text: string }
  | { kind: "eof" }
  | { kind: "interrupt" };

/** What an input needs. */
export interface InputOptions {
  /** Writes to the terminal. */
  write(s: string): void;
  /** The prompt of the first line and of the following ones. */
  prompt: string;
  cont: string;
  /** Earlier inputs, oldest first. */
  history: string[];
  /** Slash commands Tab completes. */
  commands: string[];
  /** Display width of a string. */
  widthOf: WidthOf;
}

/** The terminal's width (80 when it does not say). */
export function terminalColumns(): number {
  try {
    const c = Deno.consoleSize().columns;
    return c > 0 ? c : 80;
  } catch {
    return 80;
  }
}

/** Reads one input; resolves when it is submitted, or at Ctrl-D / Ctrl-C on an empty line. */
export async function readInput(opts: InputOptions): Promise<InputResult> {
  const { default: process } = await import("node:process");
  const stdin = process.stdin;
  if (!stdin.isTTY) return await plainLine(opts);
  const editor = new LineEditor(opts.history, opts.commands);
  const decoder = new KeyDecoder();
  let cursorRow = 0;
  let escTimer: ReturnType<typeof setTimeout> | undefined;

  const draw = (final = false) => {
    const width = terminalColumns();
    const lay = editor.layout(opts.prompt, opts.cont, width, opts.widthOf);
    let out = cursorRow > 0 ? `\x1b[${cursorRow}A` : "";
    out += "\r\x1b[J";
    lay.lines.forEach((line, i) => {
      out += line;
      // a line that fills its last row exactly: make the terminal wrap now
      const w = opts.widthOf(line);
      if (w > 0 && w % width === 0) out += " \b\x1b[K";
      if (i < lay.lines.length - 1) out += "\r\n";
    });
    if (final) {
      out += "\r\n";
      cursorRow = 0;
    } else {
      const up = lay.rows - 1 - lay.cursorRow;
      if (up > 0) out += `\x1b[${up}A`;
      out += "\r";
      if (lay.cursorCol > 0) out += `\x1b[${lay.cursorCol}C`;
      cursorRow = lay.cursorRow;
    }
    opts.write(out);
  };

  return await new Promise<InputResult>((resolve) => {
    let done = false;
    const finish = (r: InputResult) => {
      if (done) return;
      done = true;
      clearTimeout(escTimer);
      draw(true);
      stdin.off("data", onData);
      opts.write("\x1b[?2004l");
      try {
        stdin.setRawMode(false);
      } catch { /* not a terminal any more */ }
      stdin.pause();
      resolve(r);
    };
    const apply = (keys: Key[]) => {
      for (const key of keys) {
        const action = editor.handle(key);
        if (action === "submit") return finish({ kind: "line", text: editor.buffer });
        if (action === "eof") return finish({ kind: "eof" });
        if (action === "interrupt") return finish({ kind: "interrupt" });
        if (action === "clear-screen") {
          opts.write("\x1b[2J\x1b[H");
          cursorRow = 0;
        }
      }
      draw();
    };
    const onData = (chunk: Uint8Array | string) => {
      clearTimeout(escTimer);
      const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      apply(decoder.feed(text));
      if (!done && decoder.waiting) escTimer = setTimeout(() => apply(decoder.flush()), 50);
    };
    stdin.setRawMode(true);
    opts.write("\x1b[?2004h");
    stdin.on("data", onData);
    stdin.resume();
    draw();
  });
}

/** One line from a stdin that is not a terminal. */
async function plainLine(opts: InputOptions): Promise<InputResult> {
  const { default: process } = await import("node:process");
  const readline = await import("node:readline");
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const closed = new Promise<InputResult>((r) => rl.once("close", () => r({ kind: "eof" })));
    const asked = new Promise<InputResult>((r) =>
      rl.question(opts.prompt, (text) => r({ kind: "line", text }))
    );
    return await Promise.race([asked, closed]);
  } finally {
    rl.close();
  }
}
