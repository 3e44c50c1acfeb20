/**
 * One message file read: its frontmatter decoded, the canonical message, and what the file
 * says about compaction and usage (a {@link SessionEntry}); the context view of a session's
 * entries (compacted messages replaced by their summary); the body of a summary message.
 *
 * @module
 */
import {
  type CompactReason,
  type ConversationMessage,
  type MessageImage,
  splitFrontmatter,
  type Usage,
} from "../base/mod.ts";
import { decodeValue, parseAssistantBody } from "./codec.ts";
import { usageOfMeta } from "./tokens.ts";

/** Parses one message file into a canonical message; undefined when unusable. */
export function parseMessageFile(name: string, text: string): ConversationMessage | undefined {
  return messageOf(name, decodedFrontmatter(text));
}

/** Splits a message file and decodes its frontmatter values (quoted scalars). */
function decodedFrontmatter(text: string): { meta: Record<string, string>; body: string } {
  const { meta: raw, body } = splitFrontmatter(text);
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) meta[k] = decodeValue(v) ?? v;
  return { meta, body };
}

/** `0001-0036` → [1, 36]; undefined when malformed. */
function seqRange(v: string | undefined): [number, number] | undefined {
  const m = v ? /^(\d+)-(\d+)$/.exec(v.trim()) : null;
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function messageOf(
  name: string,
  { meta, body }: { meta: Record<string, string>; body: string },
): ConversationMessage | undefined {
  const seq = Number.parseInt(meta.seq ?? name, 10);
  const role = meta.role ?? name.replace(/^\d+-/, "").replace(/\.md$/, "");
  switch (role) {
    case "user": {
      const range = seqRange(meta.summary);
      return range
        ? { role: "user", seq, text: body, summary: true, summarizes: range }
        : { role: "user", seq, text: body };
    }
    case "assistant":
      return {
        role: "assistant",
        seq,
        blocks: parseAssistantBody(body),
        model: meta.model,
        provider: meta.provider,
        stop: meta.stop,
      };
    case "tool_result":
      return {
        role: "tool_result",
        seq,
        callId: meta.call_id ?? "",
        tool: meta.tool ?? "",
        error: meta.error === "true",
        text: body,
      };
  }
  return undefined;
}

/**
 * One message file as the index knows it: the message and what its frontmatter says
 * about compaction and usage.
 */
export interface SessionEntry {
  /** File name, e.g. `0007-assistant.md`. */
  name: string;
  /** The message's sequence number. */
  seq: number;
  /** The message, parsed. */
  message: ConversationMessage;
  /** `compacted:` — the seq of the summary that replaced this message in requests. */
  compacted?: number;
  /** `summary:` of a summary message — the first and last seq it stands for. */
  summarizes?: [number, number];
  /** Usage reported for it (an assistant answer, or the request that wrote a summary). */
  usage?: Usage;
  /** Provider and model that produced it (assistant answers and summaries). */
  provider?: string;
  /** The model that produced it. */
  model?: string;
}

/** One message file as the index knows it; undefined when it is not a message. */
export function entryOf(
  name: string,
  text: string,
  images?: (field: string) => MessageImage[],
): SessionEntry | undefined {
  const parsed = decodedFrontmatter(text);
  const message = messageOf(name, parsed);
  if (!message) return undefined;
  const meta = parsed.meta;
  if (message.role === "user" && meta.images && images) {
    const read = images(meta.images);
    if (read.length) message.images = read;
  }
  const e: SessionEntry = { name, seq: message.seq, message };
  const compacted = Number.parseInt(meta.compacted ?? "", 10);
  if (Number.isFinite(compacted)) e.compacted = compacted;
  const range = seqRange(meta.summary);
  if (range && message.role === "user") e.summarizes = range;
  const usage = usageOfMeta(meta);
  if (usage) e.usage = usage;
  if (meta.provider) e.provider = meta.provider;
  if (meta.model) e.model = meta.model;
  return e;
}

/** What a compaction records with its summary. */
export interface SummaryRecord {
  /** The summary (the model's text); the file body wraps it. */
  summary: string;
  /** The context messages it replaces, oldest first (older summaries included). */
  replaces: SessionEntry[];
  /** Why the session was compacted. */
  reason: CompactReason;
  /** The provider that wrote the summary. */
  provider: string;
  /** The model that wrote the summary. */
  model: string;
  /** Usage of the request that wrote it. */
  usage?: Usage;
}

/** The body of a summary message: a sentence saying what it is, then the summary. */
export function summaryBody(summary: string): string {
  return "This conversation was compacted: its earlier part is summarized below.\n\n" +
    `<summary>\n${summary.trim()}\n</summary>`;
}

/**
 * The context view of a session's entries: a compacted message is replaced by the summary
 * it was compacted into (the outermost one still on disk), placed where the first message
 * it stands for was. A mark whose summary is gone (a rewind removed it) counts for nothing.
 */
export function contextView(entries: readonly SessionEntry[]): SessionEntry[] {
  const summaries = new Map<number, SessionEntry>();
  for (const e of entries) if (e.summarizes) summaries.set(e.seq, e);
  const root = (e: SessionEntry): SessionEntry => {
    let cur = e;
    for (let hops = 0; hops < 1000 && cur.compacted !== undefined; hops++) {
      const next = summaries.get(cur.compacted);
      if (!next || next === cur) break;
      cur = next;
    }
    return cur;
  };
  const out: SessionEntry[] = [];
  const placed = new Set<number>();
  for (const e of entries) {
    const r = root(e);
    if (r === e && !e.summarizes) {
      out.push(e);
      continue;
    }
    if (!placed.has(r.seq)) {
      placed.add(r.seq);
      out.push(r);
    }
  }
  return out;
}
