/**
 * Terminal rendering of the event stream: text as it arrives, tool calls with
 * name, arguments and a short result. Colors only on a terminal without
 * NO_COLOR. Everything a model, a tool or a server wrote is neutralised first
 * ({@link sanitizeForTerminal}): no escape sequence reaches the terminal.
 *
 * @module
 */
import type { HarnessEvent } from "../../core/mod.ts";
import { cutToWidth, displayWidth } from "./text_width.ts";

/**
 * Control characters a terminal would act on: C0 (but tab and newline), DEL,
 * C1 (8-bit CSI, OSC, …) and the bidirectional overrides that reorder what is
 * shown (U+202A–U+202E, U+2066–U+2069).
 */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = new RegExp(CONTROL.source, "g");

function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␛ ␇ ␈ ␍ …
  if (code === 0x7f) return "\u2421"; // ␡
  if (code <= 0x9f) return "\ufffd";
  return `<U+${code.toString(16).toUpperCase()}>`;
}

/**
 * Text as it may be shown on a terminal: every control character becomes a
 * visible picture (ESC → `␛`, BEL → `␇`, a lone CR → `␍`), so an OSC title
 * change, a clear-screen or a cursor move printed by a tool or a model is shown,
 * never performed. CRLF line ends become LF. The stored files keep the bytes.
 */
export function sanitizeForTerminal(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(/\r\n/g, "\n").replace(CONTROL_ALL, picture);
}

/**
 * Characters JSON leaves raw that a terminal would act on (DEL, C1, the bidi
 * overrides); JSON itself escapes C0.
 */
const JSON_RAW = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify` for a terminal: the same data, with DEL, C1 and the bidi
 * overrides written as `\uXXXX` escapes (JSON escapes C0 itself), so `--json`
 * output stays exact JSON and performs nothing when it is shown.
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null").replace(
    JSON_RAW,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** ANSI styles (no-ops when colors are off). */
export interface Styles {
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
  yellow(s: string): string;
}

/** Styles for a stream. */
export function styles(enabled: boolean): Styles {
  const wrap = (open: number, close: number) => (s: string) =>
    enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s;
  return {
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
    yellow: wrap(33, 39),
  };
}

/** Whether colors should be used on stdout. */
export function colorEnabled(isTerminal: boolean): boolean {
  return isTerminal && !Deno.env.get("NO_COLOR");
}

/** One-line summary of a tool input. */
export function summarizeInput(name: string, input: unknown, max = 100): string {
  const obj = (input ?? {}) as Record<string, unknown>;
  let s: string;
  if (name === "bash" && typeof obj.command === "string") s = obj.command;
  else if (typeof obj.path === "string" && Object.keys(obj).length <= 3) {
    s = obj.path +
      (Object.keys(obj).length > 1 ? ` ${JSON.stringify({ ...obj, path: undefined })}` : "");
  } else s = JSON.stringify(obj);
  s = sanitizeForTerminal(s.replace(/\s+/g, " "));
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** A short result preview: first lines, and how many more. */
export function previewResult(result: string, lines = 4, width = 120): string[] {
  const all = sanitizeForTerminal(result).replace(/\n+$/, "").split("\n")
    .filter((l) => l.trim() !== "");
  const out = all.slice(0, lines).map((l) => (l.length > width ? l.slice(0, width - 1) + "…" : l));
  if (all.length > lines) out.push(`… ${all.length - lines} more lines`);
  return out;
}

/** The transcript line of a compaction event. */
export function compactLine(
  e: Extract<HarnessEvent, { type: "compact_start" | "compact_done" }>,
): string {
  const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  const why = e.reason === "manual"
    ? ""
    : e.reason === "overflow"
    ? " (the provider said the request was too long)"
    : " (the context is nearly full)";
  if (e.type === "compact_start") {
    return `⟳ compacting ${e.messages} older messages, ≈${k(e.tokens)} tokens${why}…`;
  }
  return `✓ compacted ${e.messages} messages into one summary: ≈${k(e.before)} → ≈${
    k(e.after)
  } tokens; the originals stay in the session`;
}

/** Renders events to a writer as a transcript. */
export class TranscriptRenderer {
  #write: (s: string) => void;
  #st: Styles;
  #atLineStart = true;
  #inThinking = false;
  /** A CR that ended the last delta (it may be the first half of a CRLF). */
  #pendingCr = false;
  #width?: () => number;

  /** `opts.width`: the terminal's columns (tool lines are cut to it, with …). */
  constructor(write: (s: string) => void, st: Styles, opts: { width?: () => number } = {}) {
    this.#write = write;
    this.#st = st;
    this.#width = opts.width;
  }

  /** Columns left on a line after `used` columns (undefined: no terminal width known). */
  #room(used: number): number | undefined {
    const w = this.#width?.();
    return w && w > 0 ? Math.max(8, w - used) : undefined;
  }

  #out(s: string): void {
    if (!s) return;
    this.#write(s);
    this.#atLineStart = s.endsWith("\n");
  }

  #newline(): void {
    if (!this.#atLineStart) this.#out("\n");
  }

  /** A streamed delta made safe to show (a CRLF split across two deltas stays a line end). */
  #delta(text: string): string {
    if (this.#pendingCr && !text.startsWith("\n")) text = "\r" + text;
    this.#pendingCr = text.endsWith("\r");
    if (this.#pendingCr) text = text.slice(0, -1);
    return sanitizeForTerminal(text);
  }

  /** Handles one event. */
  on(e: HarnessEvent): void {
    const st = this.#st;
    if (this.#pendingCr && e.type !== "text" && e.type !== "thinking") {
      this.#pendingCr = false;
      this.#out(sanitizeForTerminal("\r"));
    }
    switch (e.type) {
      case "text":
        if (this.#inThinking) {
          this.#newline();
          this.#inThinking = false;
        }
        this.#out(this.#delta(e.text));
        break;
      case "thinking":
        if (!this.#inThinking) {
          this.#newline();
          this.#out(st.dim("thinking: "));
          this.#inThinking = true;
        }
        this.#out(st.dim(this.#delta(e.text)));
        break;
      case "tool_start": {
        this.#newline();
        const name = sanitizeForTerminal(e.name);
        const room = this.#room(displayWidth(name) + 3);
        const summary = summarizeInput(e.name, e.input);
        this.#out(
          `${st.cyan("●")} ${st.bold(name)} ${
            st.dim(room ? cutToWidth(summary, room) : summary)
          }\n`,
        );
        break;
      }
      case "tool_done": {
        const mark = e.error ? st.red("✗") : st.green("✓");
        const ms = ` (${Math.round(e.ms)} ms)`;
        const lines = previewResult(e.result);
        const first = lines.shift() ?? "";
        const room = this.#room(4 + ms.length);
        this.#out(`  ${mark} ${st.dim(room ? cutToWidth(first, room) : first)}${st.dim(ms)}\n`);
        const rest = this.#room(4);
        for (const l of lines) this.#out(`    ${st.dim(rest ? cutToWidth(l, rest) : l)}\n`);
        break;
      }
      case "retry":
        this.#newline();
        this.#out(
          st.yellow(
            `retrying (${sanitizeForTerminal(e.reason)}) in ${
              Math.round(e.delayMs / 100) / 10
            } s…\n`,
          ),
        );
        break;
      case "error":
        this.#newline();
        this.#out(st.red(`error: ${sanitizeForTerminal(e.message)}\n`));
        break;
      case "notice":
        this.#newline();
        this.#out(st.dim(`${sanitizeForTerminal(e.message)}\n`));
        break;
      case "compact_start":
      case "compact_done":
        this.#newline();
        this.#out(st.dim(`${compactLine(e)}\n`));
        break;
      case "note":
        // an origin note is shown; ambient and activating notes are the model's context
        if (e.kind === "origin") {
          this.#newline();
          this.#out(`${st.yellow("◆")} ${st.dim(`${e.from}:`)} ${e.message}\n`);
        }
        break;
      case "turn_end":
        this.#newline();
        break;
      case "round_start":
        this.#inThinking = false;
        this.#newline();
        break;
    }
  }
}
