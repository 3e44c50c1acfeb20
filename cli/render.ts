/**
 * Terminal rendering of the event stream: text as it arrives, tool calls with
 * name, arguments and a short result. Colors only on a terminal without
 * NO_COLOR.
 *
 * @module
 */
import type { HarnessEvent } from "../core/mod.ts";

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
  s = s.replace(/\s+/g, " ");
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** A short result preview: first lines, and how many more. */
export function previewResult(result: string, lines = 4, width = 120): string[] {
  const all = result.replace(/\n+$/, "").split("\n").filter((l) => l.trim() !== "");
  const out = all.slice(0, lines).map((l) => (l.length > width ? l.slice(0, width - 1) + "…" : l));
  if (all.length > lines) out.push(`… ${all.length - lines} more lines`);
  return out;
}

/** Renders events to a writer as a transcript. */
export class TranscriptRenderer {
  #write: (s: string) => void;
  #st: Styles;
  #atLineStart = true;
  #inThinking = false;

  constructor(write: (s: string) => void, st: Styles) {
    this.#write = write;
    this.#st = st;
  }

  #out(s: string): void {
    if (!s) return;
    this.#write(s);
    this.#atLineStart = s.endsWith("\n");
  }

  #newline(): void {
    if (!this.#atLineStart) this.#out("\n");
  }

  /** Handles one event. */
  on(e: HarnessEvent): void {
    const st = this.#st;
    switch (e.type) {
      case "text":
        if (this.#inThinking) {
          this.#newline();
          this.#inThinking = false;
        }
        this.#out(e.text);
        break;
      case "thinking":
        if (!this.#inThinking) {
          this.#newline();
          this.#out(st.dim("thinking: "));
          this.#inThinking = true;
        }
        this.#out(st.dim(e.text));
        break;
      case "tool_start":
        this.#newline();
        this.#out(
          `${st.cyan("●")} ${st.bold(e.name)} ${st.dim(summarizeInput(e.name, e.input))}\n`,
        );
        break;
      case "tool_done": {
        const mark = e.error ? st.red("✗") : st.green("✓");
        const lines = previewResult(e.result);
        const first = lines.shift() ?? "";
        this.#out(`  ${mark} ${st.dim(first)}${st.dim(` (${Math.round(e.ms)} ms)`)}\n`);
        for (const l of lines) this.#out(`    ${st.dim(l)}\n`);
        break;
      }
      case "retry":
        this.#newline();
        this.#out(st.yellow(`retrying (${e.reason}) in ${Math.round(e.delayMs / 100) / 10} s…\n`));
        break;
      case "error":
        this.#newline();
        this.#out(st.red(`error: ${e.message}\n`));
        break;
      case "notice":
        this.#newline();
        this.#out(st.dim(`${e.message}\n`));
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
