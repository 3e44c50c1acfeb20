/**
 * A session's messages as HTML: user text, the assistant's text, thinking and
 * tool calls (with their inputs), tool results (errors open), and the errors
 * of the last turn. Every value is escaped (see html.ts); very long texts are
 * cut with a note.
 *
 * @module
 */
import type { ConversationMessage } from "../../core/mod.ts";
import { type Html, markup } from "./html.ts";
import { markdownHtml } from "./markdown.ts";

/** Texts longer than this are cut (the file keeps everything). */
export const MAX_TEXT = 100_000;

/** The element id of a message. */
export function messageId(seq: number): string {
  return `m-${String(seq).padStart(4, "0")}`;
}

function cut(text: string): { text: string; more: number } {
  return text.length > MAX_TEXT
    ? { text: text.slice(0, MAX_TEXT), more: text.length - MAX_TEXT }
    : { text, more: 0 };
}

function more(n: number): Html | "" {
  return n ? markup`<p class="cut">… ${n.toLocaleString("en")} more characters</p>` : "";
}

/** A block of text (pre-wrapped), cut when very long. */
export function textBlock(text: string, cls = "text"): Html {
  const c = cut(text);
  return markup`<div class="${cls}">${c.text}</div>${more(c.more)}`;
}

/** Markdown rendered (see markdown.ts), cut when very long; plain text until the lexer is loaded. */
export function markdownBlock(text: string): Html {
  const c = cut(text);
  const md = markdownHtml(c.text);
  return md ? markup`${md}${more(c.more)}` : textBlock(text);
}

/** The summary inside a compaction's message (docs/sessions.md), or the whole text. */
export function summaryText(text: string): string {
  const m = /<summary>\n?([\s\S]*?)\n?<\/summary>\s*$/.exec(text);
  return m ? m[1] : text;
}

function summaryCard(m: { seq: number; text: string; summarizes?: [number, number] }): Html {
  const id = messageId(m.seq);
  const r = m.summarizes;
  const meta = r
    ? `messages #${r[0]}–#${r[1]} summarized; the model sees this in their place`
    : "the earlier messages summarized; the model sees this in their place";
  return markup`<article class="msg msg-summary" id="${id}" data-seq="${m.seq}" aria-label="Compaction summary">${
    head("Summary", m.seq, meta)
  }${markdownBlock(summaryText(m.text))}</article>`;
}

/** A tool input as indented JSON. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return String(value);
  }
}

/** One line that says what a call does (the command, the path, or the input). */
export function callSummary(name: string, input: unknown, max = 120): string {
  const obj = (input ?? {}) as Record<string, unknown>;
  let s: string;
  if (typeof obj.command === "string") s = obj.command;
  else if (typeof obj.path === "string") s = obj.path;
  else if (typeof obj.name === "string" && name === "skill") s = obj.name;
  else s = JSON.stringify(obj) ?? "";
  s = s.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

function firstLine(text: string, max = 100): string {
  const line = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

function permalink(seq: number): Html {
  const id = messageId(seq);
  return markup`<a class="seq" href="#${id}" aria-label="Link to #${seq}">#${seq}</a>`;
}

function head(role: string, seq: number, meta?: string): Html {
  const m = meta ? markup`<span class="meta">${meta}</span>` : "";
  return markup`<header class="msg-head"><span class="role">${role}</span>${m}${
    permalink(seq)
  }</header>`;
}

function call(id: string, name: string, input: unknown): Html {
  const summary = callSummary(name, input);
  return markup`<div class="call" data-call="${id}"><div class="call-head"><span class="tool-name">${name}</span> <code class="call-summary">${summary}</code></div><details class="call-input"><summary>Input</summary><pre class="json">${
    cut(jsonText(input)).text
  }</pre></details></div>`;
}

/** What the page knows of a message besides its file's text. */
export interface MessageNote {
  /** The seq of the summary that replaced it in requests (`compacted:`). */
  compactedInto?: number;
}

/** One message as an `<article>`. */
export function renderMessage(m: ConversationMessage, note: MessageNote = {}): Html {
  const id = messageId(m.seq);
  const compacted = note.compactedInto ? `compacted into #${note.compactedInto}` : "";
  if (m.role === "user") {
    if (m.summary) return summaryCard(m);
    return markup`<article class="msg msg-user" id="${id}" data-seq="${m.seq}">${
      head("You", m.seq, compacted)
    }${textBlock(m.text)}</article>`;
  }
  if (m.role === "assistant") {
    const meta = [m.model, m.stop && m.stop !== "end" ? `stop: ${m.stop}` : "", compacted]
      .filter(Boolean).join(" · ");
    const blocks = m.blocks.map((b) => {
      if (b.type === "text") return markdownBlock(b.text);
      if (b.type === "thinking") {
        return markup`<details class="thinking"><summary>Thinking</summary>${
          textBlock(b.text)
        }</details>`;
      }
      return call(b.id, b.name, b.input);
    });
    return markup`<article class="msg msg-assistant" id="${id}" data-seq="${m.seq}">${
      head("Assistant", m.seq, meta)
    }${blocks}</article>`;
  }
  const status = m.error ? "error" : "ok";
  const c = cut(m.text);
  const cls = m.error ? "msg msg-tool msg-tool-error" : "msg msg-tool";
  const open = m.error ? markup` open` : "";
  return markup`<article class="${cls}" id="${id}" data-seq="${m.seq}" data-call="${m.callId}"><details class="result"${open}><summary><span class="tool-name">${m.tool}</span> <span class="status status-${status}">${status}</span> <span class="preview">${
    firstLine(m.text)
  }</span>${compacted ? markup`<span class="meta">${compacted}</span>` : ""}${
    permalink(m.seq)
  }</summary><pre class="out">${c.text}</pre>${more(c.more)}</details></article>`;
}

/** An error of a turn (not a message file: errors live in `.stream` and in memory). */
export function renderError(message: string): Html {
  return markup`<article class="msg msg-error" role="alert"><header class="msg-head"><span class="role">Error</span></header>${
    textBlock(message)
  }</article>`;
}

/** The errors of the last turn, from the text of its `.stream`. */
export function streamErrors(stream: string): string[] {
  const out: string[] = [];
  for (const line of stream.split("\n")) {
    if (!line.includes('"error"')) continue;
    try {
      const e = JSON.parse(line);
      if (e?.type === "error" && typeof e.message === "string") out.push(e.message);
    } catch { /* not an event */ }
  }
  return out;
}
