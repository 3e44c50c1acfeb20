/**
 * Turns a terminal capture (text with ANSI escape sequences) into HTML by
 * replaying it in a headless terminal emulator (xterm.js) and serializing the
 * screen, colours and attributes included.
 *
 * @module
 */
import xtermHeadless from "@xterm/headless";
import serializeAddon from "@xterm/addon-serialize";

/** Colours of the rendered terminal. */
export const THEME = {
  background: "#1b1d23",
  foreground: "#d4d7dd",
  black: "#1b1d23",
  red: "#f07178",
  green: "#a5d6a7",
  yellow: "#ffcb6b",
  blue: "#82aaff",
  magenta: "#c792ea",
  cyan: "#89ddff",
  white: "#d4d7dd",
  brightBlack: "#7a8190",
  brightRed: "#ff8a80",
  brightGreen: "#c3e88d",
  brightYellow: "#ffe082",
  brightBlue: "#a6c8ff",
  brightMagenta: "#e1bee7",
  brightCyan: "#a7f3ff",
  brightWhite: "#ffffff",
};

/**
 * Replays `capture` in a `cols`×`rows` terminal and returns the screen as an HTML
 * fragment (a `<pre>` with styled spans), without the empty rows at the bottom.
 */
export async function ansiToHtml(capture: Uint8Array, cols: number, rows: number): Promise<string> {
  // The packages are CommonJS: their classes sit on the default export.
  const { Terminal } = xtermHeadless as unknown as {
    Terminal: new (o: Record<string, unknown>) => XTerm;
  };
  const { SerializeAddon } = serializeAddon as unknown as { SerializeAddon: new () => Serializer };
  const term = new Terminal({ cols, rows, allowProposedApi: true, theme: THEME });
  const ser = new SerializeAddon();
  term.loadAddon(ser);
  try {
    await new Promise<void>((resolve) => term.write(capture, resolve));
    const html = ser.serializeAsHTML({ includeGlobalBackground: true });
    const pre = /<pre>[\s\S]*<\/pre>/.exec(html)?.[0] ?? "";
    // Drop trailing blank rows (a row is `<div><span>   </span></div>`).
    return pre.replace(/(<div><span>\s*<\/span><\/div>)+(?=<\/div><\/pre>)/, "");
  } finally {
    term.dispose();
  }
}

interface XTerm {
  loadAddon(a: unknown): void;
  write(data: Uint8Array, cb: () => void): void;
  dispose(): void;
}

interface Serializer {
  serializeAsHTML(o: { includeGlobalBackground: boolean }): string;
}
