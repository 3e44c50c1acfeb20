/**
 * Sessions (PROTOCOLS "Sessions"): a directory with `session.conf`, one
 * markdown file per message under `messages/`, and `.stream` (JSONL events of
 * the last model request). Every write is atomic (temp file + rename).
 *
 * A {@link Session} keeps an in-memory index of parsed messages keyed by file
 * name, so assembling a request re-parses only files it has not seen (or, after
 * an executable hook ran, files whose mtime or size changed).
 *
 * @module
 */
import { join } from "node:path";
import {
  type AssistantBlock,
  atomicWriteSync,
  type ConversationMessage,
  HarnessError,
  listDir,
  parseKeyValues,
  readTextOrUndefined,
  splitFrontmatter,
  statOrUndefined,
  type StopReason,
  type Usage,
} from "../base/mod.ts";

/** `session.conf` fields. */
export interface SessionConf {
  id: string;
  model: string;
  provider: string;
  created: string;
  cwd: string;
  [key: string]: string;
}

/** ISO 8601 with seconds and a numeric offset, like `date -Iseconds`. */
export function isoSeconds(d: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const abs = Math.abs(off);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${
    pad(d.getMinutes())
  }:${pad(d.getSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const FENCE_TOOL = /^```tool_call id=(\S+) name=(\S+)/;
const FENCE_THINKING = /^```thinking signature=(.*)$/;

/** Parses an assistant body (text plus ```` ```tool_call ```` / ```` ```thinking ```` fences). */
export function parseAssistantBody(body: string): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  let text: string[] = [];
  const flush = () => {
    const t = text.join("\n").replace(/\n+$/, "");
    if (t.trim() !== "") blocks.push({ type: "text", text: t });
    text = [];
  };
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m = FENCE_TOOL.exec(line);
    if (m) {
      flush();
      const json: string[] = [];
      for (i++; i < lines.length && lines[i] !== "```"; i++) json.push(lines[i]);
      let input: unknown = {};
      try {
        input = JSON.parse(json.join("") || "{}");
      } catch {
        input = { _unparsed: json.join("") };
      }
      blocks.push({ type: "tool_call", id: m[1], name: m[2], input });
      continue;
    }
    m = FENCE_THINKING.exec(line);
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

/** Renders assistant blocks as the reference body. */
export function renderAssistantBody(blocks: AssistantBlock[]): string {
  let body = "";
  for (const b of blocks) {
    if (b.type === "text") body += `${b.text}\n`;
    else if (b.type === "thinking") {
      body += "```thinking signature=" + b.signature + "\n" + b.text + "\n```\n";
    } else {body += "\n```tool_call id=" + b.id + " name=" + b.name + "\n" +
        JSON.stringify(b.input) + "\n```\n";}
  }
  return body;
}

/** Parses one message file into a canonical message; undefined when unusable. */
export function parseMessageFile(name: string, text: string): ConversationMessage | undefined {
  const { meta, body } = splitFrontmatter(text);
  const seq = Number.parseInt(meta.seq ?? name, 10);
  const role = meta.role ?? name.replace(/^\d+-/, "").replace(/\.md$/, "");
  switch (role) {
    case "user":
      return { role: "user", seq, text: body };
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

interface IndexEntry {
  mtime: number;
  size: number;
  message: ConversationMessage | undefined;
}

function frontmatter(fields: [string, string | number | boolean][]): string {
  return "---\n" + fields.map(([k, v]) => `${k}: ${v}`).join("\n") + "\n---\n";
}

/** New session id: `YYYYmmdd-HHMMSS-<pid>`. */
export function newSessionId(d: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${
    pad(d.getMinutes())
  }${pad(d.getSeconds())}-${Deno.pid}`;
}

/** One session directory with its message index. */
export class Session {
  readonly dir: string;
  readonly id: string;
  conf: SessionConf;
  #index = new Map<string, IndexEntry>();
  #order: string[] = [];
  #nextSeq = 1;
  #stream?: Deno.FsFile;
  #encoder = new TextEncoder();

  private constructor(dir: string, id: string, conf: SessionConf) {
    this.dir = dir;
    this.id = id;
    this.conf = conf;
  }

  /** Creates a new session directory under `sessionsDir`. */
  static create(
    sessionsDir: string,
    init: { cwd: string; model: string; provider: string },
  ): Session {
    try {
      Deno.mkdirSync(sessionsDir, { recursive: true });
    } catch (err) {
      throw new HarnessError(
        `cannot create the sessions directory ${sessionsDir}: ${(err as Error).message}`,
        "set HARNESS_SESSIONS to a writable directory",
      );
    }
    const base = newSessionId();
    let id = base;
    for (let n = 2; statOrUndefined(join(sessionsDir, id)); n++) id = `${base}-${n}`;
    const dir = join(sessionsDir, id);
    try {
      Deno.mkdirSync(join(dir, "messages"), { recursive: true });
    } catch (err) {
      throw new HarnessError(
        `cannot create session ${dir}: ${(err as Error).message}`,
        "check the permissions of the sessions directory or set HARNESS_SESSIONS",
      );
    }
    const conf: SessionConf = {
      id,
      model: init.model,
      provider: init.provider,
      created: isoSeconds(),
      cwd: init.cwd,
    };
    const s = new Session(dir, id, conf);
    s.writeConf();
    return s;
  }

  /** Opens an existing session directory. */
  static open(dir: string): Session {
    const text = readTextOrUndefined(join(dir, "session.conf"));
    if (text === undefined) {
      throw new HarnessError(
        `not a session: ${dir} has no session.conf`,
        "list sessions with: hs session list",
      );
    }
    const kv = parseKeyValues(text);
    const id = kv.id || dir.split("/").pop()!;
    const conf: SessionConf = {
      ...kv,
      id,
      model: kv.model ?? "",
      provider: kv.provider ?? "",
      created: kv.created ?? "",
      cwd: kv.cwd ?? "",
    };
    Deno.mkdirSync(join(dir, "messages"), { recursive: true });
    const s = new Session(dir, id, conf);
    s.refresh(false);
    return s;
  }

  /** Writes `session.conf` atomically. */
  writeConf(): void {
    const order = ["id", "model", "provider", "created", "cwd"];
    const keys = [...order, ...Object.keys(this.conf).filter((k) => !order.includes(k))];
    const text = keys.map((k) => `${k}=${this.conf[k] ?? ""}`).join("\n") + "\n";
    this.#write(join(this.dir, "session.conf"), text);
  }

  #write(path: string, text: string): void {
    try {
      atomicWriteSync(path, text);
    } catch (err) {
      throw new HarnessError(
        `cannot write ${path}: ${(err as Error).message}`,
        "check that the session directory is writable (or set HARNESS_SESSIONS)",
      );
    }
  }

  /**
   * Brings the index up to date with `messages/`. With `validate`, files
   * already indexed are re-stat'ed (an executable hook may have edited them).
   */
  refresh(validate: boolean): void {
    const mdir = join(this.dir, "messages");
    const names = listDir(mdir).filter((n) => /^\d+-.*\.md$/.test(n));
    const seen = new Set(names);
    let changed = names.length !== this.#order.length;
    for (const name of names) {
      const known = this.#index.get(name);
      if (known && !validate) continue;
      const path = join(mdir, name);
      const info = statOrUndefined(path);
      if (!info) continue;
      const mtime = info.mtime?.getTime() ?? 0;
      if (known && known.mtime === mtime && known.size === info.size) continue;
      const text = readTextOrUndefined(path) ?? "";
      this.#index.set(name, { mtime, size: info.size, message: parseMessageFile(name, text) });
      changed = true;
    }
    if (changed) {
      for (const k of [...this.#index.keys()]) if (!seen.has(k)) this.#index.delete(k);
      this.#order = names.sort((a, b) =>
        Number.parseInt(a, 10) - Number.parseInt(b, 10) || (a < b ? -1 : 1)
      );
      const last = this.#order.at(-1);
      this.#nextSeq = last ? Number.parseInt(last, 10) + 1 : 1;
    }
  }

  /** The conversation in order (from the index). */
  messages(): ConversationMessage[] {
    const out: ConversationMessage[] = [];
    for (const name of this.#order) {
      const m = this.#index.get(name)?.message;
      if (m) out.push(m);
    }
    return out;
  }

  /** Number of message files. */
  get count(): number {
    return this.#order.length;
  }

  #append(role: string, fields: [string, string | number | boolean][], body: string): number {
    this.refresh(false);
    const seq = this.#nextSeq;
    const seqText = String(seq).padStart(4, "0");
    const name = `${seqText}-${role}.md`;
    const path = join(this.dir, "messages", name);
    const text =
      frontmatter([["role", role], ["seq", seqText], ["timestamp", isoSeconds()], ...fields]) +
      body + "\n";
    this.#write(path, text);
    const info = statOrUndefined(path);
    this.#index.set(name, {
      mtime: info?.mtime?.getTime() ?? 0,
      size: info?.size ?? 0,
      message: parseMessageFile(name, text),
    });
    this.#order.push(name);
    this.#nextSeq = seq + 1;
    return seq;
  }

  /** Appends a user message; returns its seq. */
  appendUser(text: string): number {
    return this.#append("user", [], text);
  }

  /** Appends an assistant message; returns its seq. */
  appendAssistant(
    blocks: AssistantBlock[],
    meta: { model: string; provider: string; stop: StopReason; usage: Usage },
  ): number {
    return this.#append("assistant", [
      ["model", meta.model],
      ["provider", meta.provider],
      ["stop", meta.stop],
      ["tokens_in", meta.usage.input_tokens],
      ["tokens_out", meta.usage.output_tokens],
    ], renderAssistantBody(blocks));
  }

  /** Appends a tool result; returns its seq. */
  appendToolResult(callId: string, tool: string, error: boolean, result: string): number {
    return this.#append(
      "tool_result",
      [["call_id", callId], ["tool", tool], ["error", error]],
      result,
    );
  }

  /** Starts a fresh `.stream` for a new model request. */
  resetStream(): void {
    this.closeStream();
    try {
      // Truncate, then append: an executable provider (`--stream`) appends its own events.
      Deno.openSync(join(this.dir, ".stream"), { write: true, create: true, truncate: true })
        .close();
      this.#stream = Deno.openSync(join(this.dir, ".stream"), { append: true });
    } catch {
      this.#stream = undefined;
    }
  }

  /** Appends one JSON event line to `.stream`. */
  streamEvent(event: Record<string, unknown>): void {
    if (!this.#stream) {
      try {
        this.#stream = Deno.openSync(join(this.dir, ".stream"), {
          append: true,
          create: true,
        });
      } catch {
        return;
      }
    }
    const bytes = this.#encoder.encode(JSON.stringify(event) + "\n");
    let off = 0;
    while (off < bytes.length) off += this.#stream.writeSync(bytes.subarray(off));
  }

  /** Closes the `.stream` handle. */
  closeStream(): void {
    this.#stream?.close();
    this.#stream = undefined;
  }
}

/** Lists session ids under a sessions directory, newest first. */
export function listSessions(sessionsDir: string): string[] {
  return listDir(sessionsDir)
    .filter((n) => statOrUndefined(join(sessionsDir, n, "session.conf"))?.isFile)
    .sort()
    .reverse();
}
