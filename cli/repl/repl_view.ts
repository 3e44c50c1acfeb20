/**
 * The REPL's transcript: answers rendered as Markdown (raw with `--plain` or
 * without colours), tool calls and the rest as {@link TranscriptRenderer}
 * shows them, and a progress line under a tool call that runs longer than a
 * second (cleared when it ends, quiet while a question is asked).
 *
 * @module
 */
import type { HarnessEvent } from "../../core/mod.ts";
import { isAsking } from "../prompts/mod.ts";
import { MarkdownStream, type Styles, TranscriptRenderer, visibleControls } from "../view/mod.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Options of a {@link ReplView}. */
export interface ReplViewOptions {
  /** Render answers as Markdown (false: raw text, as it arrives). */
  markdown: boolean;
  /** Terminal width. */
  width?: () => number;
  /** A tool call running longer than this shows progress (default 1000 ms). */
  progressAfterMs?: number;
  /** Progress refresh interval (default 100 ms). */
  tickMs?: number;
}

/** A tool call's progress line (shown once the call runs past the delay). */
interface Progress {
  name: string;
  started: number;
  delay?: ReturnType<typeof setTimeout>;
  tick?: ReturnType<typeof setInterval>;
  shown: boolean;
  frame: number;
}

/** Renders a turn's events in the REPL. */
export class ReplView {
  #write: (s: string) => void;
  #st: Styles;
  #base: TranscriptRenderer;
  #md?: MarkdownStream;
  #atLineStart = true;
  #thinking = false;
  #o: Required<Omit<ReplViewOptions, "width">>;
  #progress?: Progress;

  constructor(write: (s: string) => void, st: Styles, opts: ReplViewOptions) {
    this.#write = write;
    this.#st = st;
    this.#o = {
      markdown: opts.markdown,
      progressAfterMs: opts.progressAfterMs ?? 1000,
      tickMs: opts.tickMs ?? 100,
    };
    // everything written goes through #out, so the line state is always known
    this.#base = new TranscriptRenderer((s) => this.#out(s), st, { width: opts.width });
    if (opts.markdown) this.#md = new MarkdownStream((s) => this.#out(s), { width: opts.width });
  }

  #out(s: string): void {
    if (!s) return;
    this.#write(s);
    this.#atLineStart = s.endsWith("\n");
  }

  #endLine(): void {
    this.#md?.flush();
    if (!this.#atLineStart) this.#out("\n");
    this.#thinking = false;
  }

  /** Handles one event. */
  on(e: HarnessEvent): void {
    if (!this.#md) {
      // raw text: the shared transcript renderer does it all
      if (e.type === "tool_start") {
        this.#base.on(e);
        this.#startProgress(e.name);
        return;
      }
      if (e.type === "tool_done") this.#stopProgress();
      this.#base.on(e);
      if (e.type === "turn_end") this.stop();
      return;
    }
    switch (e.type) {
      case "text":
        if (this.#thinking) this.#endLine();
        this.#md.push(e.text);
        return;
      case "thinking":
        if (!this.#thinking) {
          this.#endLine();
          this.#out(this.#st.dim("thinking: "));
          this.#thinking = true;
        }
        this.#out(this.#st.dim(visibleControls(e.text)));
        return;
      case "round_start":
      case "turn_end":
        this.#endLine();
        if (e.type === "turn_end") this.stop();
        return;
      case "tool_start":
        this.#endLine();
        this.#base.on(e);
        this.#startProgress(e.name);
        return;
      case "tool_done":
        this.#stopProgress();
        this.#base.on(e);
        return;
      case "retry":
      case "error":
      case "notice":
      case "compact_start":
      case "compact_done":
        this.#endLine();
        this.#base.on(e);
        return;
    }
  }

  #startProgress(name: string): void {
    this.#stopProgress();
    const p: Progress = {
      name,
      started: performance.now(),
      shown: false,
      frame: 0,
    };
    this.#progress = p;
    p.delay = setTimeout(() => {
      p.tick = setInterval(() => this.#drawProgress(), this.#o.tickMs);
      this.#drawProgress();
    }, this.#o.progressAfterMs);
  }

  #drawProgress(): void {
    const p = this.#progress;
    if (!p) return;
    if (isAsking()) return;
    const secs = ((performance.now() - p.started) / 1000).toFixed(1);
    const frame = SPINNER[p.frame++ % SPINNER.length];
    this.#write(
      `\r\x1b[K  ${this.#st.cyan(frame)} ${this.#st.dim(`running ${p.name}… ${secs} s`)}`,
    );
    p.shown = true;
  }

  #stopProgress(): void {
    const p = this.#progress;
    if (!p) return;
    clearTimeout(p.delay);
    clearInterval(p.tick);
    if (p.shown) this.#write("\r\x1b[K");
    this.#progress = undefined;
  }

  /** Stops timers and ends the line (after a turn, or when it was cancelled). */
  stop(): void {
    this.#stopProgress();
    if (this.#md) this.#endLine();
  }
}
