/**
 * Sessions (this workspace's, or every one's) as the list page shows them: id, when
 * it started, provider and model, how many messages, and its first user
 * message as a title. Reads `session.conf`, the `messages/` listing and one
 * message file per session.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import {
  parseKeyValues,
  parseMessageFile,
  readOwnText,
  type StoredSession,
} from "../../core/mod.ts";

/** One row of the sessions page. */
export interface SessionSummary {
  id: string;
  created: string;
  provider: string;
  model: string;
  messages: number;
  /** The first line of the first user message ("" for none). */
  title: string;
}

const MESSAGE_FILE = /^\d+-.*\.md$/;

/** The first line of a text, at most `max` characters. */
export function titleOf(text: string, max = 100): string {
  const line = text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  return line.length > max ? line.slice(0, max - 1) + "…" : line;
}

/** The summary of one session directory. */
export function summarize(dir: string, id: string): SessionSummary {
  // hs's own files, never read through a link (a refused one is reported, skipped)
  const confText = readOwnText(join(dir, "session.conf"));
  const conf: Record<string, string> = confText === undefined ? {} : parseKeyValues(confText);
  const names: string[] = [];
  try {
    for (const e of Deno.readDirSync(join(dir, "messages"))) {
      if (MESSAGE_FILE.test(e.name)) names.push(e.name);
    }
  } catch { /* no messages yet */ }
  names.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  let title = "";
  const first = names.find((n) => n.endsWith("-user.md"));
  if (first) {
    const text = readOwnText(join(dir, "messages", first));
    const m = text === undefined ? undefined : parseMessageFile(first, text);
    if (m?.role === "user") title = titleOf(m.text);
  }
  return {
    id,
    created: conf.created ?? "",
    provider: conf.provider ?? "",
    model: conf.model ?? "",
    messages: names.length,
    title,
  };
}

/** The first `limit` of these sessions (newest first), and how many there are. */
export function recentSessions(
  refs: StoredSession[],
  limit: number,
): { total: number; sessions: SessionSummary[] } {
  return {
    total: refs.length,
    sessions: refs.slice(0, limit).map((r) => summarize(r.dir, r.id)),
  };
}
