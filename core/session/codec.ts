/**
 * The encoding of message bodies and frontmatter values (docs/sessions.md
 * "Encoding"): what a model or a user wrote always reads back as text, byte
 * for byte, and never as structure.
 *
 * An assistant body is text plus structure fences. The reference's fences
 * (three backticks: ```` ```tool_call id=… name=… ````, ```` ```thinking
 * signature=… ````, closed by a line ```` ``` ````) are written whenever the
 * content cannot be mistaken for structure, so ordinary sessions stay exactly
 * what the reference writes and reads. Content that could be mistaken — a
 * text with a fence-looking line, a trailing newline, only whitespace, a
 * thinking text with a line starting with backticks, an id with a space —
 * goes into a four-backtick fence of its own (```` ````text ````, ```` ````thinking
 * signature=… ````, ```` ````tool_call id=… name=… ````, closed by ```` ```` ````):
 * inside it every line that starts with backslashes followed by three
 * backticks carries one more backslash, and the attributes are
 * percent-encoded. Neither parser can see a structure line inside it.
 *
 * @module
 */
import type { AssistantBlock } from "../base/mod.ts";

const FENCE3_TOOL = /^```tool_call id=(\S+) name=(\S+)/;
const FENCE3_THINKING = /^```thinking signature=(.*)$/;
const FENCE4 = /^````(text|thinking|tool_call)(?: (.*))?$/;
const LONG = "````";

/** A text line either parser could take for structure (generous on purpose). */
const DANGEROUS_TEXT = /^`{3,}(?:tool_call|thinking|text)/m;
/** A thinking line that could close or open a three-backtick fence. */
const DANGEROUS_THINKING = /^```/m;
/** Lines escaped inside a four-backtick fence: backslashes, then three backticks. */
const ESCAPABLE = /^\\*```/;
const ESCAPED = /^\\+```/;
/** Attributes written as they are in a three-backtick fence line. */
const PLAIN_ATTR = /^[!-~]+$/;

/** Percent-encodes what a fence attribute may not hold (space, controls, non-ASCII, `%`). */
export function encodeAttr(value: string): string {
  let out = "";
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c > 0x20 && c < 0x7f && ch !== "%") out += ch;
    else {
      for (const b of new TextEncoder().encode(ch)) {
        out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
      }
    }
  }
  return out;
}

/** Inverse of {@link encodeAttr}. */
export function decodeAttr(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function escapeLines(text: string): string {
  if (!text.includes("```")) return text;
  return text.split("\n").map((l) => (ESCAPABLE.test(l) ? "\\" + l : l)).join("\n");
}

function unescapeLine(line: string): string {
  return ESCAPED.test(line) ? line.slice(1) : line;
}

function parseAttrs(rest: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of rest.split(" ")) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq)] = decodeAttr(part.slice(eq + 1));
  }
  return out;
}

function parseInput(json: string): unknown {
  try {
    return JSON.parse(json || "{}");
  } catch {
    return { _unparsed: json };
  }
}

/** Parses an assistant body (text plus structure fences, in both encodings). */
export function parseAssistantBody(body: string): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  if (!body.includes("```")) {
    const t = body.replace(/\n+$/, "");
    if (t.trim() !== "") blocks.push({ type: "text", text: t });
    return blocks;
  }
  let text: string[] = [];
  const flush = () => {
    const t = text.join("\n").replace(/\n+$/, "");
    if (t.trim() !== "") blocks.push({ type: "text", text: t });
    text = [];
  };
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.startsWith("```")) {
      text.push(line);
      continue;
    }
    const long = FENCE4.exec(line);
    if (long) {
      flush();
      const inner: string[] = [];
      for (i++; i < lines.length && lines[i] !== LONG; i++) inner.push(unescapeLine(lines[i]));
      const attrs = parseAttrs(long[2] ?? "");
      const content = inner.join("\n");
      if (long[1] === "text") blocks.push({ type: "text", text: content });
      else if (long[1] === "thinking") {
        blocks.push({ type: "thinking", text: content, signature: attrs.signature ?? "" });
      } else {
        blocks.push({
          type: "tool_call",
          id: attrs.id ?? "",
          name: attrs.name ?? "",
          input: parseInput(inner.join("")),
        });
      }
      continue;
    }
    let m = FENCE3_TOOL.exec(line);
    if (m) {
      flush();
      const json: string[] = [];
      for (i++; i < lines.length && lines[i] !== "```"; i++) json.push(lines[i]);
      blocks.push({ type: "tool_call", id: m[1], name: m[2], input: parseInput(json.join("")) });
      continue;
    }
    m = FENCE3_THINKING.exec(line);
    if (m) {
      flush();
      const t: string[] = [];
      for (i++; i < lines.length && lines[i] !== "```"; i++) t.push(lines[i]);
      blocks.push({ type: "thinking", text: t.join("\n"), signature: m[1] });
      continue;
    }
    text.push(line);
  }
  flush();
  return blocks;
}

/** True when a text block reads back exactly as itself without a fence of its own. */
function plainText(text: string, afterPlainText: boolean): boolean {
  return !afterPlainText && text.trim() !== "" && !text.endsWith("\n") &&
    !DANGEROUS_TEXT.test(text);
}

// deno-lint-ignore no-control-regex
const CONTROL_CHAR = /[\x00-\x1f\x7f]/;

function plainThinking(b: { text: string; signature: string }): boolean {
  return !DANGEROUS_THINKING.test(b.text) && !CONTROL_CHAR.test(b.signature);
}

/** Renders assistant blocks as a body (the reference's fences whenever they are exact). */
export function renderAssistantBody(blocks: AssistantBlock[]): string {
  let body = "";
  let afterPlainText = false;
  for (const b of blocks) {
    if (b.type === "text") {
      if (plainText(b.text, afterPlainText)) {
        body += `${b.text}\n`;
        afterPlainText = true;
        continue;
      }
      body += `${LONG}text\n${escapeLines(b.text)}\n${LONG}\n`;
    } else if (b.type === "thinking") {
      body += plainThinking(b)
        ? "```thinking signature=" + b.signature + "\n" + b.text + "\n```\n"
        : `${LONG}thinking signature=${encodeAttr(b.signature)}\n${escapeLines(b.text)}\n${LONG}\n`;
    } else {
      const json = JSON.stringify(b.input ?? {}) ?? "{}";
      body += PLAIN_ATTR.test(b.id) && PLAIN_ATTR.test(b.name)
        ? "\n```tool_call id=" + b.id + " name=" + b.name + "\n" + json + "\n```\n"
        : `\n${LONG}tool_call id=${encodeAttr(b.id)} name=${
          encodeAttr(b.name)
        }\n${json}\n${LONG}\n`;
    }
    afterPlainText = false;
  }
  return body;
}

// deno-lint-ignore no-control-regex
const UNSAFE_VALUE = /[\x00-\x1f\x7f]|^\s|\s$|^"/;

/**
 * A frontmatter value as written: as it is, or — when it holds a line break or
 * another control character, surrounding blanks or a leading quote — as a
 * double-quoted YAML scalar (JSON string syntax), so it cannot end the
 * frontmatter or add keys.
 */
export function encodeValue(value: string): string {
  return UNSAFE_VALUE.test(value) ? JSON.stringify(value) : value;
}

/** Inverse of {@link encodeValue} (a double-quoted value is read as YAML reads it). */
export function decodeValue(value: string | undefined): string | undefined {
  if (value === undefined || value.length < 2 || !value.startsWith('"') || !value.endsWith('"')) {
    return value;
  }
  try {
    const v = JSON.parse(value);
    return typeof v === "string" ? v : value;
  } catch {
    return value;
  }
}

/** The frontmatter block of a message file. */
export function renderFrontmatter(fields: [string, string | number | boolean][]): string {
  return "---\n" + fields.map(([k, v]) => `${k}: ${encodeValue(String(v))}`).join("\n") +
    "\n---\n";
}
