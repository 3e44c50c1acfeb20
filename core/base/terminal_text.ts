/**
 * What a child that was handed the terminal (an interactive hook) may show on it through its
 * stderr: text and SGR colour sequences (`ESC [ … m`), nothing else. OSC (titles,
 * hyperlinks, clipboard), every other CSI (cursor moves, clear-screen, modes), the other C0
 * controls, C1 and the bidi overrides are shown as pictures, the way the CLI shows what a
 * model or a tool wrote (`cli/view/render.ts`).
 *
 * @module
 */

/** SGR (colours, bold, …) or a control character; the alternation keeps SGR whole. */
// deno-lint-ignore no-control-regex
const TOKEN = /\x1b\[[0-9;:]*m|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** An escape (or a CR) the next chunk may complete: held back, at most this long. */
// deno-lint-ignore no-control-regex
const PARTIAL = /(?:\x1b(?:\[[0-9;:]*)?|\r)$/;
const MAX_PARTIAL = 64;

/** The visible picture of one control character (`␛`, `␇`, `␍`, `␡`, `�`, `<U+202E>`). */
export function controlPicture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  if (code <= 0x9f) return "\ufffd";
  return `<U+${code.toString(16).toUpperCase()}>`;
}

/**
 * `text` with its SGR sequences kept and every other control character as a picture (a CRLF
 * becomes a line end, tab and newline stay).
 */
export function keepOnlySgr(text: string): string {
  return text.replace(
    TOKEN,
    (t) => t === "\r\n" ? "\n" : t.length > 1 ? t : controlPicture(t),
  );
}

/**
 * {@link keepOnlySgr} over a stream of chunks: an escape sequence (or a CRLF) split between
 * two chunks is judged whole.
 */
export class SgrOnlyFilter {
  #held = "";

  /** The shown form of the next chunk (a trailing partial sequence is held back). */
  push(chunk: string): string {
    let text = this.#held + chunk;
    this.#held = "";
    const partial = PARTIAL.exec(text);
    if (partial && partial[0].length <= MAX_PARTIAL) {
      this.#held = partial[0];
      text = text.slice(0, partial.index);
    }
    return keepOnlySgr(text);
  }

  /** What is still held back, shown (at the end of the stream). */
  end(): string {
    const rest = this.#held;
    this.#held = "";
    return keepOnlySgr(rest);
  }
}
