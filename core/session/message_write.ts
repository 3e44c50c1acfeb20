/**
 * Writing message files: the text of a new message (its frontmatter fields and body), the
 * exclusive create (a temp file linked to the name, which fails when the name exists, so a
 * message is never overwritten), and the `compacted:` mark added to a message's frontmatter.
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import { HarnessError, statOrUndefined, type StopReason, type Usage } from "../base/mod.ts";
import { renderFrontmatter } from "./codec.ts";
import type { SummaryRecord } from "./entries.ts";
import { isoSeconds } from "./session_dir.ts";

/** Frontmatter fields of a message file, in order. */
export type MessageFields = [string, string | number | boolean][];

/** The text of a new message file: role, seq and timestamp, the fields, then the body. */
export function renderMessage(
  role: string,
  seqText: string,
  fields: MessageFields,
  body: string,
): string {
  return renderFrontmatter([
    ["role", role],
    ["seq", seqText],
    ["timestamp", isoSeconds()],
    ...fields,
  ]) + body + "\n";
}

/** The prompt-cache figures of a usage, only when the provider reported some. */
function cacheFields(usage: Usage): MessageFields {
  const fields: MessageFields = [];
  if (usage.cache_read_input_tokens) {
    fields.push(["tokens_cache_read", usage.cache_read_input_tokens]);
  }
  if (usage.cache_creation_input_tokens) {
    fields.push(["tokens_cache_write", usage.cache_creation_input_tokens]);
  }
  return fields;
}

/** The fields of an assistant answer. */
export function assistantFields(
  meta: { model: string; provider: string; stop: StopReason; usage: Usage },
): MessageFields {
  return [
    ["model", meta.model],
    ["provider", meta.provider],
    ["stop", meta.stop],
    ["tokens_in", meta.usage.input_tokens],
    ["tokens_out", meta.usage.output_tokens],
    // prompt-cache figures only when the provider reported some (the reference has none)
    ...cacheFields(meta.usage),
  ];
}

/** The fields of a summary message: `summary: <first>-<last>` of what it replaces, and more. */
export function summaryFields(rec: SummaryRecord): MessageFields {
  const seqs = rec.replaces.map((e) => e.summarizes?.[0] ?? e.seq);
  const last = rec.replaces.map((e) => e.summarizes?.[1] ?? e.seq);
  const pad = (n: number) => String(n).padStart(4, "0");
  const fields: MessageFields = [
    ["summary", `${pad(Math.min(...seqs))}-${pad(Math.max(...last))}`],
    ["reason", rec.reason],
    ["model", rec.model],
    ["provider", rec.provider],
  ];
  if (rec.usage) {
    fields.push(["tokens_in", rec.usage.input_tokens], ["tokens_out", rec.usage.output_tokens]);
    fields.push(...cacheFields(rec.usage));
  }
  return fields;
}

/** A message file's text with `compacted: <seq>` in its frontmatter (an older mark replaced). */
export function markedText(text: string, seq: number): string {
  const line = `compacted: ${String(seq).padStart(4, "0")}`;
  const nl = text.startsWith("---\r\n") ? "\r\n" : "\n";
  if (!text.startsWith(`---${nl}`)) return `---\n${line}\n---\n${text}`;
  const end = text.indexOf(`${nl}---`, 3);
  const head = end < 0 ? text : text.slice(0, end);
  const kept = head.split(nl).filter((l) => !/^compacted:/.test(l)).join(nl);
  return end < 0 ? `${kept}${nl}${line}${nl}---${nl}` : `${kept}${nl}${line}${text.slice(end)}`;
}

/** Creates `path` with `text` unless it exists; false when it does. */
export function writeNewFile(path: string, text: string): boolean {
  const tmp = join(dirname(path), `.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.writeTextFileSync(tmp, text, { createNew: true, mode: 0o644 });
    try {
      Deno.linkSync(tmp, path);
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) return false;
      if (err instanceof Deno.errors.NotCapable) throw err;
      // A file system without hard links: check, then rename (not exclusive against a race).
      if (statOrUndefined(path)) return false;
      Deno.renameSync(tmp, path);
      return true;
    }
  } catch (err) {
    throw new HarnessError(
      `cannot write ${path}: ${(err as Error).message}`,
      "check that the session directory is writable (or set HARNESS_SESSIONS)",
    );
  } finally {
    try {
      Deno.removeSync(tmp);
    } catch { /* renamed, or never created */ }
  }
}
