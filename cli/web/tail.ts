/**
 * Follows one session directory as it grows: new message files (whoever wrote
 * them — this process, a terminal `hs`, a hook) and the lines appended to
 * `.stream` (the events of the model request in flight). `.stream` is
 * rewritten at each model request: a file that shrank, or whose first bytes
 * changed, starts over (`reset`).
 *
 * Changes are noticed with `Deno.watchFs` (inotify on Linux) within a
 * millisecond or so, and by a slow poll as a safety net (a watcher may miss
 * events, or be unavailable).
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import {
  type ConversationMessage,
  openOwnFile,
  parseMessageFile,
  readOwnText,
} from "../../core/mod.ts";

/** Something that happened in a session directory. */
export type TailEvent =
  | { kind: "message"; name: string; seq: number; message: ConversationMessage }
  | { kind: "stream"; event: Record<string, unknown> }
  | { kind: "reset" };

/** Options of {@link SessionTail}. */
export interface SessionTailOptions {
  /** Only messages with a higher sequence number are reported. */
  after: number;
  /** Receives each batch of events, in order. */
  onEvents(events: TailEvent[]): void;
  /** The safety-net poll (default 250 ms). */
  pollMs?: number;
  /**
   * Replay the `.stream` of a request in flight when the tail starts (default true).
   * A `.stream` that ends with `done` belongs to a finished turn and is never replayed.
   */
  replay?: boolean;
}

const MESSAGE_FILE = /^\d+-.*\.md$/;
/** How many leading bytes identify one request's `.stream` (a rewrite changes them). */
const PREFIX = 4096;

/** Follows one session directory; {@link close} stops it. */
export class SessionTail {
  readonly dir: string;
  #o: SessionTailOptions;
  #sent = new Set<string>();
  #offset = 0;
  #prefix = new Uint8Array(0);
  #partial = "";
  #messagesMtime = -1;
  #listedAt = 0;
  #watcher?: Deno.FsWatcher;
  #timer?: ReturnType<typeof setInterval>;
  #closed = false;
  #decoder = new TextDecoder();

  constructor(dir: string, opts: SessionTailOptions) {
    this.dir = dir;
    this.#o = opts;
  }

  /** Reports what is already there (messages after `after`, a request in flight), then follows. */
  start(): void {
    const events: TailEvent[] = [];
    this.#messages(events, true);
    const stream = this.#readAll();
    if (stream && this.#o.replay !== false && !endsWithDone(stream.text)) {
      events.push({ kind: "reset" });
      this.#lines(stream.text, events);
    } else if (stream) {
      // a finished turn: follow from the end
      this.#partial = "";
    }
    this.#emit(events);
    try {
      this.#watcher = Deno.watchFs([this.dir, join(this.dir, "messages")], { recursive: false });
      this.#watch(this.#watcher);
    } catch {
      // no watcher here (permissions, limits): the poll alone follows
    }
    this.#timer = setInterval(() => this.pump(), this.#o.pollMs ?? 250);
  }

  async #watch(w: Deno.FsWatcher): Promise<void> {
    try {
      for await (const e of w) {
        if (this.#closed) break;
        const messages = e.paths.some((p) => p.includes("/messages/") || p.endsWith("/messages"));
        this.pump(messages);
      }
    } catch {
      // closed, or the directory went away: the poll goes on until close()
    }
  }

  /** Looks for changes now (`messages`: the messages folder changed for sure). */
  pump(messages = false): void {
    if (this.#closed) return;
    const events: TailEvent[] = [];
    this.#messages(events, messages);
    this.#stream(events);
    this.#emit(events);
  }

  #emit(events: TailEvent[]): void {
    if (events.length && !this.#closed) this.#o.onEvents(events);
  }

  /** New message files, in sequence order. */
  #messages(out: TailEvent[], force: boolean): void {
    const mdir = join(this.dir, "messages");
    let mtime: number;
    try {
      mtime = Deno.statSync(mdir).mtime?.getTime() ?? 0;
    } catch {
      return;
    }
    // an unchanged folder has no new file (mtimes are coarse: a second look after a while)
    const now = performance.now();
    if (!force && mtime === this.#messagesMtime && now - this.#listedAt < 1000) return;
    this.#messagesMtime = mtime;
    this.#listedAt = now;
    const fresh: { name: string; seq: number }[] = [];
    try {
      for (const e of Deno.readDirSync(mdir)) {
        if (!MESSAGE_FILE.test(e.name) || this.#sent.has(e.name)) continue;
        const seq = Number.parseInt(e.name, 10);
        if (seq <= this.#o.after) {
          this.#sent.add(e.name);
          continue;
        }
        fresh.push({ name: e.name, seq });
      }
    } catch {
      return;
    }
    fresh.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
    for (const f of fresh) {
      // never through a link (a refused file is reported once and skipped)
      const text = readOwnText(join(mdir, f.name));
      if (text === undefined) continue;
      this.#sent.add(f.name);
      const message = parseMessageFile(f.name, text);
      if (message) out.push({ kind: "message", name: f.name, seq: f.seq, message });
    }
  }

  #readAll(): { text: string; bytes: Uint8Array } | undefined {
    let bytes: Uint8Array;
    try {
      const file = openOwnFile(join(this.dir, ".stream"), { read: true });
      try {
        bytes = new Uint8Array(file.statSync().size);
        bytes = bytes.subarray(0, readFully(file, bytes, 0));
      } finally {
        file.close();
      }
    } catch {
      return undefined;
    }
    this.#offset = bytes.length;
    this.#prefix = bytes.slice(0, PREFIX);
    return { text: this.#decoder.decode(bytes), bytes };
  }

  /** New `.stream` lines; a rewritten file starts over. */
  #stream(out: TailEvent[]): void {
    const path = join(this.dir, ".stream");
    let file: Deno.FsFile;
    try {
      file = openOwnFile(path, { read: true });
    } catch {
      return;
    }
    try {
      const size = file.statSync().size;
      let rewritten = size < this.#offset;
      if (!rewritten && this.#offset > 0) {
        const head = new Uint8Array(Math.min(this.#prefix.length, size));
        readFully(file, head, 0);
        rewritten = !sameBytes(head, this.#prefix.subarray(0, head.length));
      }
      if (rewritten) {
        this.#offset = 0;
        this.#prefix = new Uint8Array(0);
        this.#partial = "";
        this.#decoder = new TextDecoder();
        out.push({ kind: "reset" });
      }
      if (size === this.#offset) return;
      const chunk = new Uint8Array(size - this.#offset);
      const n = readFully(file, chunk, this.#offset);
      const got = chunk.subarray(0, n);
      if (this.#prefix.length < PREFIX) {
        const head = new Uint8Array(Math.min(PREFIX, this.#offset + n));
        head.set(this.#prefix);
        head.set(got.subarray(0, head.length - this.#prefix.length), this.#prefix.length);
        this.#prefix = head;
      }
      this.#offset += n;
      this.#lines(this.#decoder.decode(got, { stream: true }), out);
    } finally {
      file.close();
    }
  }

  /** Complete JSON lines of `text` (after what is left of the last call). */
  #lines(text: string, out: TailEvent[]): void {
    const all = this.#partial + text;
    const lines = all.split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const event = JSON.parse(line);
        if (event && typeof event === "object" && !Array.isArray(event)) {
          out.push({ kind: "stream", event });
        }
      } catch {
        // not an event line: skipped
      }
    }
  }

  /** Stops following. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    try {
      this.#watcher?.close();
    } catch { /* already closed */ }
  }
}

/** True when the last event line of a `.stream` is `done` (the turn is over). */
export function endsWithDone(text: string): boolean {
  const lines = text.trimEnd().split("\n");
  try {
    return JSON.parse(lines.at(-1) ?? "").type === "done";
  } catch {
    return false;
  }
}

function readFully(file: Deno.FsFile, buf: Uint8Array, at: number): number {
  file.seekSync(at, Deno.SeekMode.Start);
  let n = 0;
  while (n < buf.length) {
    const r = file.readSync(buf.subarray(n));
    if (r === null || r === 0) break;
    n += r;
  }
  return n;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
