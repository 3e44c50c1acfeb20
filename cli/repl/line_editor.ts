/**
 * The REPL's line editor as a pure state machine: keys in, actions out, and a
 * layout of what to draw. Editing and movement keys, history (↑/↓), reverse
 * history search (Ctrl-R), multi-line input (Shift-Enter, Alt-Enter, Ctrl-J,
 * or a `\` before Enter), bracketed paste, and Tab completion of slash
 * commands. The terminal side is `terminal_input.ts`.
 *
 * @module
 */
import type { Key } from "./keys.ts";

/** What a key asks of the caller. */
export type EditorAction = "submit" | "eof" | "interrupt" | "clear-screen" | undefined;

/** How wide a string is on screen (columns; escape sequences count 0). */
export type WidthOf = (s: string) => number;

/** What to draw: the rows of text and where the cursor goes (row and column, from 0). */
export interface Layout {
  /** Logical lines, each already prefixed with its prompt. */
  lines: string[];
  /** Physical rows the lines take at the given width. */
  rows: number;
  cursorRow: number;
  cursorCol: number;
}

/** Reverse history search in progress. */
interface Search {
  query: string;
  /** Index into history of the match shown (-1: none). */
  match: number;
  /** Position of the query in the match. */
  at: number;
  saved: { buffer: string; cursor: number };
}

/** The editor of one input. */
export class LineEditor {
  buffer = "";
  cursor = 0;
  #history: string[];
  /** Index into history while browsing it (history.length: the draft). */
  #browse: number;
  #draft = "";
  #search?: Search;
  #commands: string[];

  /**
   * `history`: earlier inputs, oldest first. `commands`: slash commands Tab completes.
   */
  constructor(history: string[] = [], commands: string[] = []) {
    this.#history = history;
    this.#browse = history.length;
    this.#commands = commands;
  }

  /** True while a reverse search is shown. */
  get searching(): boolean {
    return this.#search !== undefined;
  }

  /** Handles one key. */
  handle(key: Key): EditorAction {
    if (this.#search) return this.#searchKey(key);
    switch (key.type) {
      case "text":
      case "paste":
        this.#insert(key.type === "paste" ? key.text.replace(/\t/g, "    ") : key.text);
        return;
      case "newline":
        this.#insert("\n");
        return;
      case "enter": {
        // a `\` right before the cursor at the end of a line continues on the next one
        const lineEnd = this.#lineEnd();
        if (this.cursor === lineEnd && this.buffer[this.cursor - 1] === "\\") {
          this.buffer = this.buffer.slice(0, this.cursor - 1) + "\n" +
            this.buffer.slice(this.cursor);
          return;
        }
        return "submit";
      }
      case "backspace":
        if (this.cursor > 0) {
          const p = prevIndex(this.buffer, this.cursor);
          this.buffer = this.buffer.slice(0, p) + this.buffer.slice(this.cursor);
          this.cursor = p;
        }
        return;
      case "delete":
        this.#deleteForward();
        return;
      case "left":
        this.cursor = prevIndex(this.buffer, this.cursor);
        return;
      case "right":
        this.cursor = nextIndex(this.buffer, this.cursor);
        return;
      case "home":
        this.cursor = this.#lineStart();
        return;
      case "end":
        this.cursor = this.#lineEnd();
        return;
      case "word-left":
        this.cursor = wordStart(this.buffer, this.cursor);
        return;
      case "word-right":
        this.cursor = wordEnd(this.buffer, this.cursor);
        return;
      case "word-backspace": {
        const p = wordStart(this.buffer, this.cursor);
        this.buffer = this.buffer.slice(0, p) + this.buffer.slice(this.cursor);
        this.cursor = p;
        return;
      }
      case "up":
        if (this.#lineStart() > 0) this.#verticalMove(-1);
        else this.#historyMove(-1);
        return;
      case "down":
        if (this.#lineEnd() < this.buffer.length) this.#verticalMove(1);
        else this.#historyMove(1);
        return;
      case "tab":
        this.#complete();
        return;
      case "escape":
        return;
      case "ctrl":
        return this.#ctrl(key.key);
    }
  }

  #ctrl(k: string): EditorAction {
    switch (k) {
      case "a":
        this.cursor = this.#lineStart();
        return;
      case "e":
        this.cursor = this.#lineEnd();
        return;
      case "b":
        this.cursor = prevIndex(this.buffer, this.cursor);
        return;
      case "f":
        this.cursor = nextIndex(this.buffer, this.cursor);
        return;
      case "c":
        if (this.buffer === "") return "interrupt";
        this.buffer = "";
        this.cursor = 0;
        this.#browse = this.#history.length;
        return;
      case "d":
        if (this.buffer === "") return "eof";
        this.#deleteForward();
        return;
      case "u": {
        const s = this.#lineStart();
        this.buffer = this.buffer.slice(0, s) + this.buffer.slice(this.cursor);
        this.cursor = s;
        return;
      }
      case "k":
        this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(this.#lineEnd());
        return;
      case "w": {
        const p = wordStart(this.buffer, this.cursor, true);
        this.buffer = this.buffer.slice(0, p) + this.buffer.slice(this.cursor);
        this.cursor = p;
        return;
      }
      case "l":
        return "clear-screen";
      case "p":
        this.#historyMove(-1);
        return;
      case "n":
        this.#historyMove(1);
        return;
      case "r":
        this.#search = {
          query: "",
          match: -1,
          at: 0,
          saved: { buffer: this.buffer, cursor: this.cursor },
        };
        return;
    }
    return;
  }

  #searchKey(key: Key): EditorAction {
    const s = this.#search!;
    const find = (from: number) => {
      for (let i = from; i >= 0; i--) {
        const at = s.query === "" ? -1 : this.#history[i].lastIndexOf(s.query);
        if (at >= 0) {
          s.match = i;
          s.at = at;
          return true;
        }
      }
      return false;
    };
    const accept = () => {
      if (s.match >= 0) {
        this.buffer = this.#history[s.match];
        this.cursor = s.at;
        this.#browse = s.match;
      }
      this.#search = undefined;
    };
    switch (key.type) {
      case "text":
      case "paste": {
        s.query += key.text;
        // the match shown still holds the longer query, or an older one does
        if (!find(s.match >= 0 ? s.match : this.#history.length - 1)) s.match = -1;
        return;
      }
      case "backspace":
        s.query = s.query.slice(0, prevIndex(s.query, s.query.length));
        s.match = -1;
        find(this.#history.length - 1);
        return;
      case "ctrl":
        if (key.key === "r") {
          // the next older match (the one shown stays when there is none)
          if (s.query !== "" && s.match > 0) find(s.match - 1);
          return;
        }
        if (key.key === "c" || key.key === "g") {
          this.buffer = s.saved.buffer;
          this.cursor = s.saved.cursor;
          this.#search = undefined;
          return;
        }
        accept();
        return this.handle(key);
      case "enter":
        accept();
        return "submit";
      case "escape":
        accept();
        return;
      default:
        accept();
        return this.handle(key);
    }
  }

  /** The search prompt line, when searching. */
  searchLine(): string | undefined {
    const s = this.#search;
    if (!s) return undefined;
    const failing = s.query !== "" && s.match < 0;
    return `(${failing ? "failing " : ""}reverse-i-search)'${s.query}': `;
  }

  #insert(text: string): void {
    this.buffer = this.buffer.slice(0, this.cursor) + text + this.buffer.slice(this.cursor);
    this.cursor += text.length;
  }

  #deleteForward(): void {
    if (this.cursor >= this.buffer.length) return;
    const n = nextIndex(this.buffer, this.cursor);
    this.buffer = this.buffer.slice(0, this.cursor) + this.buffer.slice(n);
  }

  #lineStart(at = this.cursor): number {
    return this.buffer.lastIndexOf("\n", at - 1) + 1;
  }

  #lineEnd(at = this.cursor): number {
    const nl = this.buffer.indexOf("\n", at);
    return nl < 0 ? this.buffer.length : nl;
  }

  #verticalMove(dir: -1 | 1): void {
    const start = this.#lineStart();
    const col = this.cursor - start;
    if (dir < 0) {
      const prevStart = this.#lineStart(start - 1);
      this.cursor = Math.min(prevStart + col, start - 1);
    } else {
      const end = this.#lineEnd();
      const nextEnd = this.#lineEnd(end + 1);
      this.cursor = Math.min(end + 1 + col, nextEnd);
    }
  }

  #historyMove(dir: -1 | 1): void {
    const next = this.#browse + dir;
    if (next < 0 || next > this.#history.length) return;
    if (this.#browse === this.#history.length) this.#draft = this.buffer;
    this.#browse = next;
    this.buffer = next === this.#history.length ? this.#draft : this.#history[next];
    this.cursor = this.buffer.length;
  }

  #complete(): void {
    if (!this.buffer.startsWith("/") || /\s/.test(this.buffer)) return;
    const hits = this.#commands.filter((c) => c.startsWith(this.buffer));
    if (hits.length === 0) return;
    let common = hits[0];
    for (const h of hits) while (!h.startsWith(common)) common = common.slice(0, -1);
    const done = hits.length === 1 ? `${common} ` : common;
    this.buffer = done;
    this.cursor = done.length;
  }

  /**
   * What to draw at `width` columns: the prompt before the first line, `cont` before the
   * others (or the search prompt while searching), and where the cursor goes.
   */
  layout(prompt: string, cont: string, width: number, widthOf: WidthOf): Layout {
    const search = this.searchLine();
    let text = this.buffer;
    let cursor = this.cursor;
    if (search !== undefined && this.#search!.match >= 0) {
      text = this.#history[this.#search!.match];
      cursor = this.#search!.at;
    } else if (search !== undefined) {
      text = "";
      cursor = 0;
    }
    const logical = text.split("\n");
    const lines = logical.map((l, i) => (i === 0 ? (search ?? prompt) : cont) + visible(l));
    const w = Math.max(1, width);
    const rowsOf = (s: string) => Math.floor(widthOf(s) / w) + 1;
    let rows = 0;
    let cursorRow = 0;
    let cursorCol = 0;
    let offset = 0;
    logical.forEach((l, i) => {
      const start = offset;
      const end = offset + l.length;
      if (cursor >= start && cursor <= end) {
        const before = (i === 0 ? (search ?? prompt) : cont) + visible(l.slice(0, cursor - start));
        const bw = widthOf(before);
        cursorRow = rows + Math.floor(bw / w);
        cursorCol = bw % w;
      }
      rows += rowsOf(lines[i]);
      offset = end + 1;
    });
    return { lines, rows, cursorRow, cursorCol };
  }
}

/** Tabs as spaces and other control characters in caret notation (what the line shows). */
function visible(s: string): string {
  return s.replace(/\t/g, "    ").replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x08\x0b-\x1f\x7f]/g,
    (c) => `^${String.fromCharCode((c.charCodeAt(0) + 64) & 0x7f)}`,
  );
}

/** The index before `i` (a whole code point). */
export function prevIndex(s: string, i: number): number {
  if (i <= 0) return 0;
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}

/** The index after `i` (a whole code point). */
export function nextIndex(s: string, i: number): number {
  if (i >= s.length) return s.length;
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? i + 2 : i + 1;
}

/** Start of the word before `i` (`spaces`: words are separated by whitespace only). */
function wordStart(s: string, i: number, spaces = false): number {
  const isWord = (c: string) => spaces ? !/\s/.test(c) : /[\p{L}\p{N}_]/u.test(c);
  let p = i;
  while (p > 0 && !isWord(s[p - 1])) p--;
  while (p > 0 && isWord(s[p - 1])) p--;
  return p;
}

/** End of the word after `i`. */
function wordEnd(s: string, i: number): number {
  const isWord = (c: string) => /[\p{L}\p{N}_]/u.test(c);
  let p = i;
  while (p < s.length && !isWord(s[p])) p++;
  while (p < s.length && isWord(s[p])) p++;
  return p;
}
