/**
 * The reader: R7RS datum syntax plus `:keyword` tokens. Pairs read from source are recorded in
 * {@link locations} with file, line and column.
 *
 * @module
 */
import {
  char,
  EOF,
  internalSym,
  type Keyword,
  keyword,
  type Loc,
  locations,
  NIL,
  Pair,
  type Sym,
  sym,
} from "./types.ts";
import type { SymbolTable } from "./state.ts";
import { ErrorObject, SchemeError, SchemeLimitError } from "./errors.ts";
import { parseNumber } from "./number_syntax.ts";

/** Named characters accepted after `#\`. */
export const CHAR_NAMES: Record<string, number> = {
  alarm: 7,
  backspace: 8,
  delete: 127,
  escape: 27,
  newline: 10,
  null: 0,
  return: 13,
  space: 32,
  tab: 9,
  nul: 0,
  linefeed: 10,
  altmode: 27,
  page: 12,
};

/** Reader options. */
export interface ReaderOptions {
  /** Maximum nesting depth of lists/vectors (default 1000). */
  maxDepth?: number;
  /** Start with case folding on (as after `#!fold-case`). */
  foldCase?: boolean;
  /** The interpreter's symbol table to intern into (default: the static table). */
  symbols?: SymbolTable | null;
  /** Library source: `%name` reads as the internal binding key (see `internalSym`). */
  internal?: boolean;
}

/** A read error; `incomplete` is true when the input ended inside a datum. */
export class ReadError extends SchemeError {
  /** Creates a read error at `loc`. */
  constructor(message: string, loc: Loc, public readonly incomplete = false) {
    super(new ErrorObject(message, NIL, "read", loc));
  }
}

class Placeholder {
  value: unknown = undefined;
  set = false;
}

const DELIMS = new Set([..." \t\n\r\f\v()[]\";'`,|"]);
const QUOTES: Record<string, string> = {
  "'": "quote",
  "`": "quasiquote",
  ",": "unquote",
  ",@": "unquote-splicing",
};

/** Reads data one at a time from a string. */
export class Reader {
  /** Current offset. */
  pos = 0;
  private lineStarts: number[] = [0];
  private fold: boolean;
  private maxDepth: number;
  private depth = 0;
  private labels = new Map<number, Placeholder>();
  private symbols: SymbolTable | null;
  private internal: boolean;

  /** Creates a reader over `src`; `file` is used for locations. */
  constructor(private src: string, public readonly file = "<input>", opts: ReaderOptions = {}) {
    for (let i = 0; i < src.length; i++) if (src.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    this.fold = opts.foldCase ?? false;
    this.maxDepth = opts.maxDepth ?? 1000;
    this.symbols = opts.symbols ?? null;
    this.internal = opts.internal ?? false;
  }

  /**
   * Makes symbol `name` (in the interpreter's table if any; `%` names are internal ones when
   * allowed).
   */
  private sym(name: string): Sym {
    if (this.internal && name.startsWith("%")) return internalSym(name);
    return this.symbols ? this.symbols.intern(name) : sym(name);
  }

  /** Makes keyword `:name` (in the interpreter's table if any). */
  private keyword(name: string): Keyword {
    return this.symbols ? this.symbols.keyword(name) : keyword(name);
  }

  /** Location of offset `pos`. */
  locAt(pos: number): Loc {
    let lo = 0, hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, col: pos - this.lineStarts[lo] + 1 };
  }

  /**
   * Throws a {@link ReadError} at `pos`; `incomplete` marks input that more text could complete.
   */
  private err(msg: string, pos = this.pos, incomplete = false): never {
    throw new ReadError(msg, this.locAt(pos), incomplete);
  }

  /** Reads all remaining data. */
  readAll(): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const d = this.read();
      if (d === EOF) return out;
      out.push(d);
    }
  }

  /** Reads the next datum, or returns {@link EOF}. */
  read(): unknown {
    this.labels.clear();
    const d = this.datum();
    if (d === CLOSE) this.err("unexpected ')'", this.pos - 1);
    if (d === DOT) this.err("unexpected '.'", this.pos - 1);
    return d;
  }

  /** Skips whitespace, line, block and datum comments, and `#!fold-case` directives. */
  private skipWs(): void {
    const s = this.src;
    for (;;) {
      const c = s[this.pos];
      if (c === undefined) return;
      if (c === " " || c === "\n" || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
        this.pos++;
      } else if (c === ";") {
        while (this.pos < s.length && s[this.pos] !== "\n") this.pos++;
      } else if (c === "#" && s[this.pos + 1] === "|") {
        const start = this.pos;
        this.pos += 2;
        let level = 1;
        while (level > 0) {
          if (this.pos >= s.length) this.err("unterminated block comment", start, true);
          if (s[this.pos] === "|" && s[this.pos + 1] === "#") {
            level--;
            this.pos += 2;
          } else if (s[this.pos] === "#" && s[this.pos + 1] === "|") {
            level++;
            this.pos += 2;
          } else this.pos++;
        }
      } else if (c === "#" && s[this.pos + 1] === ";") {
        const start = this.pos;
        this.pos += 2;
        this.enter(start);
        const d = this.datum();
        this.depth--;
        if (d === EOF) this.err("unexpected end of input after #;", this.pos, true);
        if (d === CLOSE || d === DOT) this.err("bad datum comment");
      } else if (c === "#" && s[this.pos + 1] === "!") {
        const m = /^#!(fold-case|no-fold-case)/.exec(s.slice(this.pos, this.pos + 20));
        if (m) {
          this.fold = m[1] === "fold-case";
          this.pos += m[0].length;
        } else if (this.pos === 0) {
          while (this.pos < s.length && s[this.pos] !== "\n") this.pos++; // shebang
        } else return;
      } else return;
    }
  }

  /** Reads a token up to the next delimiter. */
  private token(): string {
    const start = this.pos;
    const s = this.src;
    while (this.pos < s.length && !DELIMS.has(s[this.pos])) this.pos++;
    return s.slice(start, this.pos);
  }

  /** Reads one datum, or a close paren, dot or {@link EOF} marker. */
  private datum(): unknown {
    this.skipWs();
    const s = this.src;
    const start = this.pos;
    const c = s[this.pos];
    if (c === undefined) return EOF;
    if (c === "(" || c === "[") {
      this.pos++;
      return this.list(c === "(" ? ")" : "]", start);
    }
    if (c === ")" || c === "]") {
      this.pos++;
      return CLOSE;
    }
    if (c === "'" || c === "`" || c === ",") {
      let q = c;
      this.pos++;
      if (c === "," && s[this.pos] === "@") {
        q = ",@";
        this.pos++;
      }
      this.enter(start);
      const d = this.sub();
      this.depth--;
      const p = new Pair(sym(QUOTES[q]), new Pair(d, NIL));
      locations.set(p, this.locAt(start));
      return p;
    }
    if (c === '"') return this.string();
    if (c === "|") {
      this.pos++;
      return this.sym(this.delimited("|"));
    }
    if (c === "#") return this.hash();
    const tok = this.token();
    if (tok === ".") return DOT;
    if (tok === "") {
      this.pos++;
      this.err(`unexpected character '${c}'`, start);
    }
    return this.atom(tok);
  }

  /** Reads the datum a prefix (quote, label, ...) requires; end of input or `)`/`.` is an error. */
  private sub(): unknown {
    const d = this.datum();
    if (d === EOF) this.err("unexpected end of input", this.pos, true);
    if (d === CLOSE) this.err("unexpected ')'", this.pos - 1);
    if (d === DOT) this.err("unexpected '.'", this.pos - 1);
    return d;
  }

  /** Reads a token as a number, keyword or symbol. */
  private atom(tok: string): unknown {
    // a number starts with a digit, a sign or a dot (prefixed ones go through `hash`): most
    // tokens are identifiers, and skipping the number grammar for them speeds up reading
    const c = tok.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
      const n = parseNumber(tok);
      if (n !== null) return n;
    }
    if (tok.length > 1 && tok[0] === ":" && tok[1] !== ":") {
      return this.keyword(this.fold ? tok.slice(1).toLowerCase() : tok.slice(1));
    }
    return this.sym(this.fold ? foldCase(tok) : tok);
  }

  /** Counts one nesting level; deeper than `maxDepth` raises a depth limit error. */
  private enter(start: number): void {
    if (++this.depth > this.maxDepth) {
      this.depth = 0;
      throw new SchemeLimitError(
        "depth",
        `reader: nesting deeper than ${this.maxDepth} at ${this.file}:${this.locAt(start).line}`,
      );
    }
  }

  /** Reads the items of a list (proper or dotted) up to `close`. */
  private list(close: string, start: number): unknown {
    this.enter(start);
    const items: unknown[] = [];
    const locs: number[] = [];
    let tail: unknown = NIL;
    for (;;) {
      this.skipWs();
      const itemStart = this.pos;
      const d = this.datum();
      if (d === EOF) this.err("unexpected end of input in list", start, true);
      if (d === CLOSE) {
        if (this.src[this.pos - 1] !== close) this.err("mismatched parenthesis", this.pos - 1);
        break;
      }
      if (d === DOT) {
        if (items.length === 0) this.err("bad dotted list", itemStart);
        tail = this.sub();
        this.skipWs();
        const e = this.datum();
        if (e !== CLOSE) this.err("expected ')' after dotted tail", this.pos, e === EOF);
        break;
      }
      items.push(d);
      locs.push(itemStart);
    }
    this.depth--;
    let r = tail;
    for (let i = items.length - 1; i >= 0; i--) {
      r = new Pair(items[i], r);
      locations.set(r as Pair, this.locAt(i === 0 ? start : locs[i]));
    }
    return r;
  }

  /** Reads a string literal (the opening quote is at the current position). */
  private string(): string {
    this.pos++;
    return this.delimited('"');
  }

  /** Reads up to the closing `q`, decoding escapes (strings and `|symbols|`). */
  private delimited(q: string): string {
    const s = this.src;
    const start = this.pos - 1;
    let out = "";
    for (;;) {
      const c = s[this.pos++];
      if (c === undefined) this.err("unterminated string", start, true);
      if (c === q) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = s[this.pos++];
      switch (e) {
        case "a":
          out += "\x07";
          break;
        case "b":
          out += "\b";
          break;
        case "t":
          out += "\t";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "0":
          out += "\0";
          break;
        case '"':
        case "\\":
        case "|":
          out += e;
          break;
        case "x":
        case "X": {
          const semi = s.indexOf(";", this.pos);
          const hex = semi < 0 ? "" : s.slice(this.pos, semi);
          if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) this.err("bad \\x escape in string", this.pos);
          out += String.fromCodePoint(parseInt(hex, 16));
          this.pos = semi + 1;
          break;
        }
        default: {
          // line continuation: \ <intraline ws>* <newline> <intraline ws>*
          let p = this.pos - 1;
          while (s[p] === " " || s[p] === "\t") p++;
          if (s[p] === "\r") p++;
          if (s[p] === "\n") {
            p++;
            while (s[p] === " " || s[p] === "\t") p++;
            this.pos = p;
            break;
          }
          if (e === undefined) this.err("unterminated string", start, true);
          this.err(`unknown string escape \\${e}`, this.pos - 2);
        }
      }
    }
  }

  /** Reads a `#` syntax: vectors, bytevectors, characters, booleans, prefixed numbers, labels. */
  private hash(): unknown {
    const s = this.src;
    const start = this.pos;
    const n = s[this.pos + 1];
    if (n === "(") {
      this.pos += 2;
      const l = this.list(")", start);
      const out: unknown[] = [];
      for (let p = l; p instanceof Pair; p = p.cdr) out.push(p.car);
      return out;
    }
    if (n === "\\") {
      this.pos += 2;
      const first = s.codePointAt(this.pos);
      if (first === undefined) this.err("unexpected end of input in character", start, true);
      const firstLen = first > 0xffff ? 2 : 1;
      this.pos += firstLen;
      const rest = this.token();
      if (rest === "") return char(first);
      const name = String.fromCodePoint(first) + rest;
      if ((name[0] === "x" || name[0] === "X") && /^[0-9a-fA-F]+$/.test(rest)) {
        return char(parseInt(rest, 16));
      }
      const code = CHAR_NAMES[name] ?? CHAR_NAMES[name.toLowerCase()];
      if (code === undefined) this.err(`unknown character name #\\${name}`, start);
      return char(code);
    }
    if (n === "u" || n === "U") {
      if (s.slice(this.pos, this.pos + 4).toLowerCase() === "#u8(") {
        this.pos += 4;
        const l = this.list(")", start);
        const out: number[] = [];
        for (let p = l; p instanceof Pair; p = p.cdr) {
          if (typeof p.car !== "number" || p.car < 0 || p.car > 255) {
            this.err("bad byte in bytevector", start);
          }
          out.push(p.car as number);
        }
        return new Uint8Array(out);
      }
    }
    if (n !== undefined && n >= "0" && n <= "9") {
      let p = this.pos + 1;
      while (s[p] >= "0" && s[p] <= "9") p++;
      const label = Number(s.slice(this.pos + 1, p));
      if (s[p] === "=") {
        this.pos = p + 1;
        const ph = new Placeholder();
        this.labels.set(label, ph);
        const d = this.sub();
        if (d === ph) this.err(`datum label #${label}# refers only to itself`, start);
        ph.value = d;
        ph.set = true;
        return patch(d, ph);
      }
      if (s[p] === "#") {
        this.pos = p + 1;
        const ph = this.labels.get(label);
        if (!ph) this.err(`undefined datum label #${label}#`, start);
        return ph.set ? ph.value : ph;
      }
    }
    const tok = this.token();
    const lower = tok.toLowerCase();
    if (lower === "#t" || lower === "#true") return true;
    if (lower === "#f" || lower === "#false") return false;
    const num = parseNumber(tok);
    if (num !== null) return num;
    if (tok === "#") this.pos++;
    this.err(`bad syntax ${tok || s[start] + (n ?? "")}`, start);
  }
}

const CLOSE = Symbol("close");
const DOT = Symbol("dot");

/** Replaces placeholder `ph` inside `d` by its value (datum labels). */
function patch(d: unknown, ph: Placeholder): unknown {
  const seen = new Set<unknown>();
  const walk = (x: unknown): unknown => {
    if (x === ph) return ph.value;
    if (seen.has(x)) return x;
    if (x instanceof Pair) {
      seen.add(x);
      let p: Pair = x;
      for (;;) {
        p.car = walk(p.car);
        if (p.cdr === ph) p.cdr = ph.value;
        if (p.cdr instanceof Pair && !seen.has(p.cdr)) {
          p = p.cdr;
          seen.add(p);
        } else break;
      }
    } else if (Array.isArray(x)) {
      seen.add(x);
      for (let i = 0; i < x.length; i++) x[i] = walk(x[i]);
    }
    return x;
  };
  return walk(d);
}

/** Unicode case folding (simple). */
export function foldCase(s: string): string {
  // full folding for the common special cases (ß → ss, ſ → s), final sigma → sigma
  return s.toLowerCase().replace(/ς/g, "σ").replace(/ß/g, "ss").replace(/ſ/g, "s");
}

/** Reads every datum in `src`. */
export function readAll(src: string, file = "<input>", opts?: ReaderOptions): unknown[] {
  return new Reader(src, file, opts).readAll();
}

/** Reads one datum from a string (used by the `read` procedure on string ports). */
export function readOne(src: string, symbols?: SymbolTable | null): unknown {
  return new Reader(src, "<string>", { symbols }).read();
}
