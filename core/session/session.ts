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
 * This file holds the session; each concept is its own file, handed its data: the message
 * index (message_index.ts), a message file read (entries.ts) and written
 * (message_write.ts), the directory and `session.conf` (session_dir.ts), `.stream`
 * (stream.ts).
 *
 * @module
 */
import { join } from "../early/mod.ts";
import {
  type AssistantBlock,
  atomicWriteSync,
  type ConversationMessage,
  HarnessError,
  type MessageImage,
  readOwnText,
  type StopReason,
  type Usage,
} from "../base/mod.ts";
import { capText, DEFAULT_RESULT_FILE_LIMIT, DEFAULT_RESULT_LIMIT } from "../exec/mod.ts";
import { parseAssistantBody, renderAssistantBody } from "./codec.ts";
import { type SessionEntry, summaryBody, type SummaryRecord } from "./entries.ts";
import { acquireLock, type LockOptions, type SessionLock } from "./lock.ts";
import { MessageIndex } from "./message_index.ts";
import { writeAttachments } from "./attachments.ts";
import {
  assistantFields,
  markedText,
  type MessageFields,
  renderMessage,
  summaryFields,
  writeNewFile,
} from "./message_write.ts";
import {
  isoSeconds,
  makeSessionDir,
  readSessionConf,
  renderConf,
  type SessionConf,
} from "./session_dir.ts";
import { SessionStream } from "./stream.ts";

export { parseAssistantBody, renderAssistantBody };

/** One session directory with its message index. */
export class Session {
  /** The session directory. */
  readonly dir: string;
  /** The session's id. */
  readonly id: string;
  /** The fields of its `session.conf`. */
  conf: SessionConf;
  #index: MessageIndex;
  /** No directory behind it (see {@link Session.detached}). */
  #detached = false;
  #stream: SessionStream;
  #lock?: SessionLock;
  /** Most bytes of one tool result kept in the conversation (the rest goes to `outputs/`). */
  resultLimit: number = DEFAULT_RESULT_LIMIT;
  /** Most bytes of one result saved in `outputs/`. */
  resultFileLimit: number = DEFAULT_RESULT_FILE_LIMIT;

  private constructor(dir: string, id: string, conf: SessionConf) {
    this.dir = dir;
    this.id = id;
    this.conf = conf;
    this.#index = new MessageIndex(join(dir, "messages"));
    this.#stream = new SessionStream(dir);
  }

  /** Creates a new session directory under `sessionsDir`. */
  static create(
    sessionsDir: string,
    init: { cwd: string; model: string; provider: string },
  ): Session {
    const { id, dir } = makeSessionDir(sessionsDir);
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
    const conf = readSessionConf(dir);
    const s = new Session(dir, conf.id, conf);
    s.refresh(false);
    return s;
  }

  /** Writes `session.conf` atomically. */
  writeConf(): void {
    this.#write(join(this.dir, "session.conf"), renderConf(this.conf));
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
    this.#index.refresh(validate, this.#lock !== undefined);
  }

  /** Every message on disk in order (from the index), compacted ones included. */
  messages(): ConversationMessage[] {
    return this.entries().map((e) => e.message);
  }

  /** Every message file's entry in order (compaction marks and usage included). */
  entries(): SessionEntry[] {
    return this.#index.entries();
  }

  /** The entries the next request holds: compacted messages replaced by their summary. */
  contextEntries(): SessionEntry[] {
    return this.#index.contextEntries();
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
    const seq = this.#index.nextSeq;
    for (const e of rec.replaces) this.#mark(e.name, seq);
    return this.#append("user", summaryFields(rec), summaryBody(rec.summary));
  }

  /** Adds `compacted: <seq>` to a message file's frontmatter (atomically). */
  #mark(name: string, seq: number): void {
    const path = join(this.dir, "messages", name);
    const text = readOwnText(path);
    if (text === undefined) return;
    const out = markedText(text, seq);
    this.#write(path, out);
    this.#index.wrote(name, path, out);
  }

  /** Number of message files. */
  get count(): number {
    return this.#index.count;
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
    this.#index.forgetListing();
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
  #append(
    role: string,
    fields: MessageFields,
    body: string,
    more?: (seqText: string) => MessageFields,
  ): number {
    this.refresh(false);
    let seq = this.#index.nextSeq;
    for (let attempt = 0;; attempt++) {
      const seqText = String(seq).padStart(4, "0");
      const name = `${seqText}-${role}.md`;
      const path = join(this.dir, "messages", name);
      const text = renderMessage(
        role,
        seqText,
        more ? [...fields, ...more(seqText)] : fields,
        body,
      );
      if (writeNewFile(path, text)) {
        this.#index.wrote(name, path, text);
        this.#index.added(name, seq);
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
      seq = Math.max(seq + 1, this.#index.nextSeq);
    }
  }

  /** Appends a user message (its images into `attachments/`); returns its seq. */
  appendUser(text: string, images?: MessageImage[]): number {
    if (!images?.length) return this.#append("user", [], text);
    return this.#append("user", [], text, (seqText) => [
      ["images", writeAttachments(this.dir, seqText, images).join(" ")],
    ]);
  }

  /** Appends an assistant message; returns its seq. */
  appendAssistant(
    blocks: AssistantBlock[],
    meta: { model: string; provider: string; stop: StopReason; usage: Usage },
  ): number {
    return this.#append("assistant", assistantFields(meta), renderAssistantBody(blocks));
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
    this.#stream.reset();
  }

  /** Appends one JSON event line to `.stream`. */
  streamEvent(event: Record<string, unknown>): void {
    if (this.#detached) return;
    this.#stream.event(event);
  }

  /** Closes the `.stream` handle. */
  closeStream(): void {
    this.#stream.close();
  }
}
