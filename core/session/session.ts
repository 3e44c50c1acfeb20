/**
 * Sessions (PROTOCOLS "Sessions"): a directory with `session.conf`, one
 * markdown file per message under `messages/`, and `.stream` (JSONL events of
 * the last model request).
 *
 * Every message file is written whole and exclusively: a temp file is linked
 * to its `NNNN-role.md` name, which fails when the name exists (the next
 * number is taken then), so a message is never overwritten. A turn holds the
 * session's lock (`.lock`, an OS file lock released even by kill -9), so two
 * processes never interleave turns in one session (docs/sessions.md).
 *
 * A {@link Session} keeps an in-memory index of parsed messages keyed by file
 * name, so assembling a request re-parses only files it has not seen (or, after
 * an executable hook ran, files whose mtime or size changed).
 *
 * @module
 */
import { dirname, join } from "node:path";
import {
  type AssistantBlock,
  atomicWriteSync,
  type CompactReason,
  type ConversationMessage,
  HarnessError,
  isOwnDir,
  isOwnFile,
  listDir,
  MTIME_SLACK_MS,
  openOwnFile,
  parseKeyValues,
  readOwnFile,
  readOwnText,
  readOwnTextOrWhy,
  splitFrontmatter,
  statOrUndefined,
  type StopReason,
  type Usage,
} from "../base/mod.ts";
import { capText, DEFAULT_RESULT_FILE_LIMIT, DEFAULT_RESULT_LIMIT } from "../exec/mod.ts";
import {
  decodeValue,
  parseAssistantBody,
  renderAssistantBody,
  renderFrontmatter,
} from "./codec.ts";
import { acquireLock, type LockOptions, type SessionLock } from "./lock.ts";
import { reportRefusedMessage, sameFile } from "./own_files.ts";

export { parseAssistantBody, renderAssistantBody };
import { usageOfMeta } from "./tokens.ts";

/** How long after a directory change its mtime may not show a further change (clock ticks). */
const COARSE_MTIME_MS = 25;

/** `session.conf` fields. */
export interface SessionConf {
  /** The session's id. */
  id: string;
  /** The model the session uses. */
  model: string;
  /** The provider the session uses. */
  provider: string;
  /** When it was created (ISO 8601, seconds). */
  created: string;
  /** The session's working directory. */
  cwd: string;
  /** Other `key=value` fields, kept as they are. */
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

interface IndexEntry {
  mtime: number;
  size: number;
  ino: number;
  entry: SessionEntry | undefined;
}

function entryOf(name: string, text: string): SessionEntry | undefined {
  const parsed = decodedFrontmatter(text);
  const message = messageOf(name, parsed);
  if (!message) return undefined;
  const meta = parsed.meta;
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

/** A value of `session.conf`: one line, whatever it was given. */
function confValue(v: string | undefined): string {
  return (v ?? "").replace(/[\r\n]+/g, " ");
}

/** New session id: `YYYYmmdd-HHMMSS-<pid>`. */
export function newSessionId(d: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${
    pad(d.getMinutes())
  }${pad(d.getSeconds())}-${Deno.pid}`;
}

/** Ids this process gave out: two sessions it makes (in different groups) never share one. */
const issuedIds = new Set<string>();

/** Claims `id` for a new session; false when this process gave it out already. */
export function claimSessionId(id: string): boolean {
  if (issuedIds.has(id)) return false;
  issuedIds.add(id);
  return true;
}

/** One session directory with its message index. */
export class Session {
  /** The session directory. */
  readonly dir: string;
  /** The session's id. */
  readonly id: string;
  /** The fields of its `session.conf`. */
  conf: SessionConf;
  #index = new Map<string, IndexEntry>();
  #order: string[] = [];
  /** The context view, until the index changes. */
  #view?: SessionEntry[];
  /** No directory behind it (see {@link Session.detached}). */
  #detached = false;
  #nextSeq = 1;
  #stream?: Deno.FsFile;
  #encoder = new TextEncoder();
  #lock?: SessionLock;
  /** The messages directory's mtime at the last complete listing (undefined: list again). */
  #listedMtime?: number;
  /** Most bytes of one tool result kept in the conversation (the rest goes to `outputs/`). */
  resultLimit: number = DEFAULT_RESULT_LIMIT;
  /** Most bytes of one result saved in `outputs/`. */
  resultFileLimit: number = DEFAULT_RESULT_FILE_LIMIT;

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
    let dir = join(sessionsDir, id);
    // mkdir without `recursive` is exclusive: a directory someone else made is never shared;
    // an id this process gave out already (in another workspace's group) is never reused
    for (let n = 2;; n++) {
      try {
        if (claimSessionId(id)) {
          Deno.mkdirSync(dir);
          Deno.mkdirSync(join(dir, "messages"));
          break;
        }
        if (n > 10_000) throw new Deno.errors.AlreadyExists(`${id} was given out`);
      } catch (err) {
        if (!(err instanceof Deno.errors.AlreadyExists) || n > 10_000) {
          throw new HarnessError(
            `cannot create session ${dir}: ${(err as Error).message}`,
            "check the permissions of the sessions directory or set HARNESS_SESSIONS",
          );
        }
      }
      id = `${base}-${n}`;
      dir = join(sessionsDir, id);
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

  /**
   * A session with no directory and no messages: what a request would hold before the
   * first message (reports only; nothing is ever written).
   */
  static detached(init: { cwd: string; model: string; provider: string }): Session {
    const s = new Session("", "", { id: "", created: "", ...init });
    s.#detached = true;
    return s;
  }

  /** Opens an existing session directory. */
  static open(dir: string): Session {
    const read = isOwnDir(dir) ? readOwnTextOrWhy(join(dir, "session.conf")) : { missing: true };
    if (!("text" in read)) {
      throw new HarnessError(
        "refused" in read
          ? `not a session: ${dir}/session.conf was refused (${read.refused})`
          : `not a session: ${dir} has no session.conf (or is a link)`,
        "list sessions with: hs session list",
      );
    }
    const kv = parseKeyValues(read.text);
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
    if (!isOwnDir(join(dir, "messages"))) {
      throw new HarnessError(
        `refused session ${dir}: its messages/ is a link, not a directory`,
        "hs never reads or writes its own state through a link: move messages/ aside",
      );
    }
    const s = new Session(dir, id, conf);
    s.refresh(false);
    return s;
  }

  /** Writes `session.conf` atomically. */
  writeConf(): void {
    const order = ["id", "model", "provider", "created", "cwd"];
    const keys = [...order, ...Object.keys(this.conf).filter((k) => !order.includes(k))];
    const text = keys.map((k) => `${k}=${confValue(this.conf[k])}`).join("\n") + "\n";
    this.#write(join(this.dir, "session.conf"), text);
  }

  #write(path: string, text: string): void {
    if (this.#detached) {
      throw new HarnessError("this session has no directory: nothing can be written to it");
    }
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
    if (this.#detached) return;
    const mdir = join(this.dir, "messages");
    // Listing a large directory costs more than a message write: skip it while the
    // directory's mtime says nothing was added or removed since the last listing.
    const dirMtime = statOrUndefined(mdir)?.mtime?.getTime() ?? -1;
    if (
      !validate && this.#listedMtime === dirMtime && dirMtime >= 0 &&
      !this.#nextTaken(mdir, dirMtime)
    ) return;
    // a file not read (refused, or a message another writer is linking into place) makes
    // the next refresh list again
    let trusted = Date.now() - dirMtime > MTIME_SLACK_MS;
    const all = listDir(mdir);
    const names = all.filter((n) => /^\d+-.*\.md$/.test(n));
    if (this.#lock && names.length !== all.length) this.#sweep(mdir, all);
    const seen = new Set(names);
    let changed = names.length !== this.#order.length;
    for (const name of names) {
      const known = this.#index.get(name);
      if (known && !validate) continue;
      const path = join(mdir, name);
      if (known && sameFile(path, known)) continue;
      const read = readOwnFile(path, { quiet: true });
      if (!read) {
        // a link or a second name of another file: never read; reported once
        reportRefusedMessage(mdir, name, all);
        trusted = false;
        if (known) this.#index.delete(name);
        changed = true;
        continue;
      }
      this.#index.set(name, {
        mtime: read.mtime,
        size: read.size,
        ino: read.ino,
        entry: entryOf(name, read.text),
      });
      changed = true;
    }
    if (changed) {
      this.#view = undefined;
      for (const k of [...this.#index.keys()]) if (!seen.has(k)) this.#index.delete(k);
      const seqOf = new Map(names.map((n) => [n, Number.parseInt(n, 10)]));
      this.#order = names.sort((a, b) => seqOf.get(a)! - seqOf.get(b)! || (a < b ? -1 : 1));
      const last = this.#order.at(-1);
      this.#nextSeq = last ? Number.parseInt(last, 10) + 1 : 1;
    }
    // A stamp taken in the same few ms as the change is not trusted (mtimes are coarse).
    this.#listedMtime = trusted ? dirMtime : undefined;
  }

  /**
   * Whether another writer may have added the next message although the directory's
   * mtime did not move: file system timestamps are coarse (a clock tick, up to ~10 ms),
   * so a file linked within the same tick as our own last write leaves the same mtime.
   * Within that window the next number's files are looked for (three stats, no listing).
   */
  #nextTaken(mdir: string, dirMtime: number): boolean {
    if (Date.now() - dirMtime > COARSE_MTIME_MS) return false;
    const seq = String(this.#nextSeq).padStart(4, "0");
    return ["user", "assistant", "tool_result"].some((role) =>
      statOrUndefined(join(mdir, `${seq}-${role}.md`)) !== undefined
    );
  }

  /** Removes temp files left by a writer that died between writing and linking. */
  #sweep(mdir: string, names: string[]): void {
    for (const name of names) {
      if (!name.startsWith(".") || !name.endsWith(".tmp")) continue;
      try {
        Deno.removeSync(join(mdir, name));
      } catch { /* gone already */ }
    }
  }

  /** After a write of ours: the directory holds what the index holds. */
  #noteOwnWrite(): void {
    this.#listedMtime = statOrUndefined(join(this.dir, "messages"))?.mtime?.getTime();
  }

  /** Every message on disk in order (from the index), compacted ones included. */
  messages(): ConversationMessage[] {
    return this.entries().map((e) => e.message);
  }

  /** Every message file's entry in order (compaction marks and usage included). */
  entries(): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (const name of this.#order) {
      const e = this.#index.get(name)?.entry;
      if (e) out.push(e);
    }
    return out;
  }

  /** The entries the next request holds: compacted messages replaced by their summary. */
  contextEntries(): SessionEntry[] {
    this.#view ??= contextView(this.entries());
    return this.#view;
  }

  /** The conversation the next request holds (see {@link contextEntries}). */
  context(): ConversationMessage[] {
    return this.contextEntries().map((e) => e.message);
  }

  /**
   * Records a compaction: marks every replaced message file `compacted: <seq>` (its body
   * untouched), then writes the summary as a user message `summary: <first>-<last>`. The
   * marks point at the summary's seq before it exists and count for nothing until it does,
   * so the context changes at one atomic write and a crash in between changes nothing.
   * Returns the summary's seq.
   */
  writeSummary(rec: SummaryRecord): number {
    if (rec.replaces.length === 0) {
      throw new HarnessError("nothing to compact", "the session has no older messages");
    }
    this.refresh(false);
    const seq = this.#nextSeq;
    for (const e of rec.replaces) this.#mark(e.name, seq);
    const seqs = rec.replaces.map((e) => e.summarizes?.[0] ?? e.seq);
    const last = rec.replaces.map((e) => e.summarizes?.[1] ?? e.seq);
    const pad = (n: number) => String(n).padStart(4, "0");
    const fields: [string, string | number | boolean][] = [
      ["summary", `${pad(Math.min(...seqs))}-${pad(Math.max(...last))}`],
      ["reason", rec.reason],
      ["model", rec.model],
      ["provider", rec.provider],
    ];
    if (rec.usage) {
      fields.push(["tokens_in", rec.usage.input_tokens], ["tokens_out", rec.usage.output_tokens]);
      if (rec.usage.cache_read_input_tokens) {
        fields.push(["tokens_cache_read", rec.usage.cache_read_input_tokens]);
      }
      if (rec.usage.cache_creation_input_tokens) {
        fields.push(["tokens_cache_write", rec.usage.cache_creation_input_tokens]);
      }
    }
    return this.#append("user", fields, summaryBody(rec.summary));
  }

  /** Adds `compacted: <seq>` to a message file's frontmatter (atomically). */
  #mark(name: string, seq: number): void {
    const path = join(this.dir, "messages", name);
    const text = readOwnText(path);
    if (text === undefined) return;
    const line = `compacted: ${String(seq).padStart(4, "0")}`;
    let out: string;
    const nl = text.startsWith("---\r\n") ? "\r\n" : "\n";
    if (text.startsWith(`---${nl}`)) {
      const end = text.indexOf(`${nl}---`, 3);
      const head = end < 0 ? text : text.slice(0, end);
      const kept = head.split(nl).filter((l) => !/^compacted:/.test(l)).join(nl);
      out = end < 0 ? `${kept}${nl}${line}${nl}---${nl}` : `${kept}${nl}${line}${text.slice(end)}`;
    } else out = `---\n${line}\n---\n${text}`;
    this.#write(path, out);
    const info = statOrUndefined(path);
    this.#index.set(name, {
      mtime: info?.mtime?.getTime() ?? 0,
      size: info?.size ?? 0,
      ino: info?.ino ?? 0,
      entry: entryOf(name, out),
    });
    this.#view = undefined;
  }

  /** Number of message files. */
  get count(): number {
    return this.#order.length;
  }

  /**
   * Holds this session for one turn: waits up to `opts.waitMs` for another
   * process's turn to end, else throws the "session busy" error. Release it with
   * {@link Session.unlock} (the OS releases it when the process dies).
   */
  async lock(opts: LockOptions): Promise<void> {
    if (this.#lock) return;
    this.#lock = await acquireLock(this.dir, this.id, opts);
    // The next refresh lists the directory again, and removes the temp files of a
    // writer that died mid-write (nobody else writes while the lock is held).
    this.#listedMtime = undefined;
  }

  /** Releases the lock taken by {@link Session.lock} (idempotent). */
  unlock(): void {
    this.#lock?.release();
    this.#lock = undefined;
  }

  /**
   * Writes a new message file under the next free number. The file is linked
   * into place, which fails when the name exists: nothing is ever overwritten,
   * the next number is tried instead.
   */
  #append(role: string, fields: [string, string | number | boolean][], body: string): number {
    this.refresh(false);
    let seq = this.#nextSeq;
    for (let attempt = 0;; attempt++) {
      const seqText = String(seq).padStart(4, "0");
      const name = `${seqText}-${role}.md`;
      const path = join(this.dir, "messages", name);
      const text = renderFrontmatter([
        ["role", role],
        ["seq", seqText],
        ["timestamp", isoSeconds()],
        ...fields,
      ]) + body + "\n";
      if (this.#writeNew(path, text)) {
        const info = statOrUndefined(path);
        this.#index.set(name, {
          mtime: info?.mtime?.getTime() ?? 0,
          size: info?.size ?? 0,
          ino: info?.ino ?? 0,
          entry: entryOf(name, text),
        });
        this.#order.push(name);
        this.#view = undefined;
        this.#nextSeq = seq + 1;
        if (this.#listedMtime !== undefined) this.#noteOwnWrite();
        return seq;
      }
      if (attempt >= 1000) {
        throw new HarnessError(
          `cannot add a message to ${this.dir}: every name tried was taken`,
          "another program keeps writing this session's messages/",
        );
      }
      // Another writer took this number: see what it wrote, then take the next one.
      this.refresh(false);
      seq = Math.max(seq + 1, this.#nextSeq);
    }
  }

  /** Creates `path` with `text` unless it exists; false when it does. */
  #writeNew(path: string, text: string): boolean {
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

  /** Appends a user message; returns its seq. */
  appendUser(text: string): number {
    return this.#append("user", [], text);
  }

  /** Appends an assistant message; returns its seq. */
  appendAssistant(
    blocks: AssistantBlock[],
    meta: { model: string; provider: string; stop: StopReason; usage: Usage },
  ): number {
    const fields: [string, string | number | boolean][] = [
      ["model", meta.model],
      ["provider", meta.provider],
      ["stop", meta.stop],
      ["tokens_in", meta.usage.input_tokens],
      ["tokens_out", meta.usage.output_tokens],
    ];
    // prompt-cache figures only when the provider reported some (the reference has none)
    if (meta.usage.cache_read_input_tokens) {
      fields.push(["tokens_cache_read", meta.usage.cache_read_input_tokens]);
    }
    if (meta.usage.cache_creation_input_tokens) {
      fields.push(["tokens_cache_write", meta.usage.cache_creation_input_tokens]);
    }
    return this.#append("assistant", fields, renderAssistantBody(blocks));
  }

  /**
   * Appends a tool result; returns its seq. A result over {@link Session.resultLimit}
   * bytes keeps its head and tail, and the whole text is saved in `outputs/`.
   */
  appendToolResult(callId: string, tool: string, error: boolean, result: string): number {
    const kept = capText(result, { maxBytes: this.resultLimit }, {
      sessionDir: this.dir,
      callId,
      maxBytes: this.resultFileLimit,
    });
    return this.#append(
      "tool_result",
      [["call_id", callId], ["tool", tool], ["error", error]],
      kept,
    );
  }

  /** Starts a fresh `.stream` for a new model request. */
  resetStream(): void {
    this.closeStream();
    if (this.#detached) return;
    // Truncated through the checked handle; appended to: an executable provider
    // (`--stream`) appends its own events. A link there is replaced, never followed.
    this.#stream = this.#openStream();
    try {
      this.#stream?.truncateSync(0);
    } catch { /* a stream that cannot be truncated is appended to */ }
  }

  #openStream(): Deno.FsFile | undefined {
    try {
      return openOwnFile(join(this.dir, ".stream"), { append: true, create: true, replace: true });
    } catch {
      return undefined;
    }
  }

  /** Appends one JSON event line to `.stream`. */
  streamEvent(event: Record<string, unknown>): void {
    if (this.#detached) return;
    this.#stream ??= this.#openStream();
    if (!this.#stream) return;
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
  // a session is a directory itself with its own session.conf: links are not sessions
  return listDir(sessionsDir)
    .filter((n) =>
      isOwnDir(join(sessionsDir, n)) && isOwnFile(join(sessionsDir, n, "session.conf"))
    )
    .sort()
    .reverse();
}
