/**
 * Terminal input bytes (raw mode) → keys: printable text, Enter, the
 * multi-line keys (Shift-Enter in its CSI-u and modifyOtherKeys forms,
 * Alt-Enter, Ctrl-J), editing and movement keys, control letters, and
 * bracketed paste. An escape sequence split across reads is completed by the
 * next read; a lone Esc is known once {@link KeyDecoder.flush} says nothing
 * followed it.
 *
 * @module
 */

/** A decoded key. */
export type Key =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | {
    type:
      | "enter"
      | "newline"
      | "backspace"
      | "delete"
      | "left"
      | "right"
      | "up"
      | "down"
      | "home"
      | "end"
      | "word-left"
      | "word-right"
      | "word-backspace"
      | "tab"
      | "escape";
  }
  /** Ctrl + a letter (lower case), e.g. "c", "d", "r". */
  | { type: "ctrl"; key: string };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** CSI / SS3 sequences with a fixed meaning. */
const SEQUENCES: Record<string, Key> = {
  "\x1b[A": { type: "up" },
  "\x1b[B": { type: "down" },
  "\x1b[C": { type: "right" },
  "\x1b[D": { type: "left" },
  "\x1bOA": { type: "up" },
  "\x1bOB": { type: "down" },
  "\x1bOC": { type: "right" },
  "\x1bOD": { type: "left" },
  "\x1b[H": { type: "home" },
  "\x1b[F": { type: "end" },
  "\x1bOH": { type: "home" },
  "\x1bOF": { type: "end" },
  "\x1b[1~": { type: "home" },
  "\x1b[4~": { type: "end" },
  "\x1b[7~": { type: "home" },
  "\x1b[8~": { type: "end" },
  "\x1b[3~": { type: "delete" },
  "\x1b[1;5C": { type: "word-right" },
  "\x1b[1;5D": { type: "word-left" },
  "\x1b[1;3C": { type: "word-right" },
  "\x1b[1;3D": { type: "word-left" },
  // Shift-Enter: CSI u (kitty, foot, WezTerm, iTerm2) and xterm's modifyOtherKeys
  "\x1b[13;2u": { type: "newline" },
  "\x1b[27;2;13~": { type: "newline" },
  "\x1b[13u": { type: "enter" },
};

/** Length of a complete escape sequence at the start of `s`; 0 when incomplete. */
function sequenceLength(s: string): number {
  if (s.length < 2) return 0;
  const second = s[1];
  if (second === "[") {
    for (let i = 2; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x40 && c <= 0x7e) return i + 1;
    }
    return 0;
  }
  if (second === "O") return s.length >= 3 ? 3 : 0;
  return 2; // Alt + one character
}

/** Decodes raw terminal input into keys. */
export class KeyDecoder {
  #pending = "";
  #paste?: string;

  /** Decodes a chunk; incomplete escape sequences wait for the next chunk. */
  feed(chunk: string): Key[] {
    this.#pending += chunk;
    const keys: Key[] = [];
    let text = "";
    const flushText = () => {
      if (text) keys.push({ type: "text", text });
      text = "";
    };
    while (this.#pending.length > 0) {
      const s = this.#pending;
      if (this.#paste !== undefined) {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          // keep a possible partial end marker for the next chunk
          const keep = partialSuffix(s, PASTE_END);
          this.#paste += s.slice(0, s.length - keep);
          this.#pending = s.slice(s.length - keep);
          break;
        }
        keys.push({ type: "paste", text: (this.#paste + s.slice(0, end)).replace(/\r\n?/g, "\n") });
        this.#paste = undefined;
        this.#pending = s.slice(end + PASTE_END.length);
        continue;
      }
      const c = s[0];
      if (c === "\x1b") {
        if (s.startsWith(PASTE_START)) {
          flushText();
          this.#paste = "";
          this.#pending = s.slice(PASTE_START.length);
          continue;
        }
        const n = sequenceLength(s);
        if (n === 0) break; // wait for the rest (or flush() for a lone Esc)
        flushText();
        const seq = s.slice(0, n);
        this.#pending = s.slice(n);
        const known = SEQUENCES[seq];
        if (known) keys.push(known);
        else if (seq === "\x1b\r" || seq === "\x1b\n") keys.push({ type: "newline" });
        else if (seq === "\x1b\x7f" || seq === "\x1b\b") keys.push({ type: "word-backspace" });
        else if (seq === "\x1bb") keys.push({ type: "word-left" });
        else if (seq === "\x1bf") keys.push({ type: "word-right" });
        else if (seq === "\x1b\x1b") keys.push({ type: "escape" });
        // other sequences (function keys, focus events …) are ignored
        continue;
      }
      this.#pending = s.slice(1);
      const code = c.charCodeAt(0);
      if (c === "\r") {
        flushText();
        keys.push({ type: "enter" });
      } else if (c === "\n") {
        flushText();
        keys.push({ type: "newline" });
      } else if (c === "\x7f" || c === "\b") {
        flushText();
        keys.push({ type: "backspace" });
      } else if (c === "\t") {
        flushText();
        keys.push({ type: "tab" });
      } else if (code < 0x20) {
        flushText();
        keys.push({ type: "ctrl", key: String.fromCharCode(code + 96) });
      } else text += c;
    }
    flushText();
    return keys;
  }

  /** True when an escape sequence is incomplete (a lone Esc so far). */
  get waiting(): boolean {
    return this.#pending.startsWith("\x1b") && this.#paste === undefined;
  }

  /** Nothing followed: what waits is a lone Esc (or an unknown sequence, dropped). */
  flush(): Key[] {
    if (!this.waiting) return [];
    const lone = this.#pending === "\x1b";
    this.#pending = "";
    return lone ? [{ type: "escape" }] : [];
  }
}

/** Length of the longest suffix of `s` that is a prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) {
    if (marker.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}
