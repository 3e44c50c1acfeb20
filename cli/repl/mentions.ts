/**
 * `@path` mentions in a REPL message: each attaches a file's content to the
 * message, read through the effect seam exactly as the model's `read_file`
 * would be (guards → the floor's policy and rules → the floor's file worker).
 *
 * The rule (see docs/cli.md):
 * - a mention is `@` at the start of the message, or after whitespace or one
 *   of `( [ { " '`, followed by one or more characters that are not
 *   whitespace — the path, relative to the working directory (or absolute);
 * - trailing `. , ; : ! ? ) ] } " '` are not part of the path
 *   (`look at @notes.txt.` names `notes.txt`);
 * - `@` after any other character is not a mention (`me@example.com`,
 *   `a@b`), and `\@` is a literal `@` (the backslash is dropped);
 * - one file is attached once, however often it is mentioned.
 *
 * @module
 */
import { resolve } from "../../core/early/mod.ts";
import { type FrontEnd, resultText, textResult, type ToolResult } from "../../core/mod.ts";

/** One mention found in a message. */
export interface Mention {
  /** The path as written. */
  path: string;
  /** Where the `@` is in the message. */
  index: number;
}

/** A message with its mentions: `text` is the message with `\@` turned into `@`. */
export interface ParsedMessage {
  text: string;
  mentions: Mention[];
}

const BEFORE = /[\s([{"']/;
const TRAILING = /[.,;:!?)\]}"']+$/;

/** Finds the mentions of `message` by the rule of this module. */
export function parseMentions(message: string): ParsedMessage {
  const mentions: Mention[] = [];
  let text = "";
  let i = 0;
  while (i < message.length) {
    const c = message[i];
    if (c === "\\" && message[i + 1] === "@") {
      text += "@";
      i += 2;
      continue;
    }
    const prev = message[i - 1];
    if (c === "@" && (i === 0 || BEFORE.test(prev))) {
      const m = /^\S+/.exec(message.slice(i + 1));
      const path = m?.[0].replace(TRAILING, "") ?? "";
      if (path) mentions.push({ path, index: text.length });
    }
    text += c;
    i++;
  }
  return { text, mentions };
}

/** A file attached to a message. */
export interface Attachment {
  /** The path as written. */
  path: string;
  /** The file's text. */
  content: string;
}

/** Files larger than this are not attached (read a part with the model's read_file). */
export const MENTION_MAX_BYTES = 256 * 1024;

/** The outcome of reading a message's mentions. */
export type MentionOutcome =
  | { ok: true; message: string; attached: Attachment[] }
  | { ok: false; errors: string[] };

/**
 * Reads every mentioned file through the seam (as a `read_file` call of the main agent)
 * and returns the message with the files appended; any file refused or missing makes the
 * whole message fail (nothing is sent), with one line per problem.
 */
export async function attachMentions(
  h: FrontEnd,
  message: string,
  session?: string,
): Promise<MentionOutcome> {
  const parsed = parseMentions(message);
  if (parsed.mentions.length === 0) return { ok: true, message: parsed.text, attached: [] };
  const attached: Attachment[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const m of parsed.mentions) {
    const abs = resolve(h.where.cwd, m.path);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const r = await readThroughSeam(h, abs, `mention-${seen.size}`, session);
    if (r.isError) errors.push(`@${m.path}: ${resultText(r).replace(/^error:\s*/, "")}`);
    else attached.push({ path: m.path, content: resultText(r) });
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, message: withAttachments(parsed.text, attached), attached };
}

/** The message the model gets: the text, then each file in a `<file path="…">` block. */
export function withAttachments(text: string, files: readonly Attachment[]): string {
  const blocks = files.map((f) =>
    `<file path="${f.path.replaceAll('"', "&quot;")}">\n${f.content}${
      f.content.endsWith("\n") ? "" : "\n"
    }</file>`
  );
  return [text, ...blocks].join("\n\n");
}

/** One read as the model's read_file: the dispatcher's guards and floor, the floor's fs. */
function readThroughSeam(
  h: FrontEnd,
  path: string,
  callId: string,
  session?: string,
): Promise<ToolResult> {
  const fs = h.admin.floor?.fs;
  return h.runs.dispatch(
    {
      point: "read",
      tool: "read_file",
      owner: { kind: "builtin", id: "repl" },
      principal: "main",
      callId,
      input: { path },
      session,
    },
    async (input) => {
      if (!fs) return textResult("error: no effect floor: @ mentions need one", true);
      const p = (input as { path: string }).path;
      try {
        const info = await fs.stat(p);
        if (!info) return textResult(`error: file not found: ${p}`, true);
        if (!info.isFile) return textResult(`error: not a regular file: ${p}`, true);
        const bytes = await fs.readFile(p);
        if (bytes.length > MENTION_MAX_BYTES) {
          return textResult(
            `error: ${p} has ${bytes.length} bytes (at most ${MENTION_MAX_BYTES} are attached)`,
            true,
          );
        }
        if (bytes.includes(0)) return textResult(`error: ${p} is a binary file`, true);
        return textResult(new TextDecoder().decode(bytes));
      } catch (err) {
        return textResult(`error: cannot read ${p}: ${(err as Error).message}`, true);
      }
    },
  );
}
