/**
 * Bounded capture of a tool's output: the head and the tail of a stream are
 * kept in memory (however much a command prints), and — when a file is given —
 * the whole output is saved there for the model to read in parts. One cap for
 * every tool result (`HARNESS_RESULT_LIMIT`), one for the saved file
 * (`HARNESS_RESULT_FILE_LIMIT`: past it the producer is stopped).
 *
 * @module
 */
import { join } from "../early/mod.ts";

/** Limits of the text kept for the conversation. */
export interface OutputLimits {
  /** Most bytes kept (half from the head, half from the tail). */
  maxBytes: number;
  /** Most lines kept (half from the head, half from the tail); unlimited when absent. */
  maxLines?: number;
}

/** Where the whole output goes when it is over the limits. */
export interface SpillOptions {
  /** The session directory: the file is `<dir>/outputs/<call id>.txt`. */
  sessionDir: string;
  /** The call whose output it is (names the file). */
  callId: string;
  /** Most bytes the file may hold; past it the producer should be stopped. */
  maxBytes: number;
}

/** Default cap of one tool result in the conversation (bytes). */
export const DEFAULT_RESULT_LIMIT = 100_000;
/** Default cap of one saved output file (bytes). */
export const DEFAULT_RESULT_FILE_LIMIT = 256 * 1024 * 1024;

/** A file name for a call id: safe characters only, never empty. */
export function outputFileName(callId: string): string {
  const safe = callId.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_").slice(0, 100);
  return safe || "call";
}

/** Creates `<session>/outputs/<call>.txt` (or `-2`, `-3`, … when taken) for writing. */
function createOutputFile(sessionDir: string, callId: string): { file: Deno.FsFile; path: string } {
  const dir = join(sessionDir, "outputs");
  Deno.mkdirSync(dir, { recursive: true });
  const base = outputFileName(callId);
  for (let n = 1;; n++) {
    const path = join(dir, n === 1 ? `${base}.txt` : `${base}-${n}.txt`);
    try {
      return { file: Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }), path };
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists) || n > 1000) throw err;
    }
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
}

/** Human size: `512 bytes`, `97.7 KB`, `100.0 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/**
 * Collects a byte stream, keeping its first and last `maxBytes / 2` bytes; with
 * a spill file, everything goes to disk once the output is over the limits.
 */
export class OutputSpool {
  #head: Uint8Array[] = [];
  #headSize = 0;
  #tail: Uint8Array[] = [];
  #tailSize = 0;
  #total = 0;
  #newlines = 0;
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #limits: OutputLimits;
  readonly #spill?: SpillOptions;
  #file?: Deno.FsFile;
  #path?: string;
  #saved = 0;
  #full = false;
  #spillError?: string;

  /** Creates a spool with the given limits and, optionally, a file for the whole output. */
  constructor(limits: OutputLimits, spill?: SpillOptions) {
    this.#limits = limits;
    this.#headCap = Math.floor(limits.maxBytes / 2);
    this.#tailCap = limits.maxBytes - this.#headCap;
    this.#spill = spill?.sessionDir ? spill : undefined;
  }

  /** Total bytes seen so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** True once the saved file reached its limit (the producer should be stopped). */
  get full(): boolean {
    return this.#full;
  }

  /** The file holding the whole output, once there is one. */
  get path(): string | undefined {
    return this.#path;
  }

  /** Adds a chunk; returns false once the saved file is full. */
  push(chunk: Uint8Array): boolean {
    if (
      this.#spill && !this.#file && !this.#spillError &&
      this.#total + chunk.length > this.#limits.maxBytes
    ) this.#startSpill();
    if (this.#file) this.#save(chunk);
    this.#total += chunk.length;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) this.#newlines++;
    const room = this.#headCap - this.#headSize;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#head.push(part.slice());
      this.#headSize += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length > 0) {
      this.#tail.push(chunk.slice());
      this.#tailSize += chunk.length;
      while (this.#tail.length > 1 && this.#tailSize - this.#tail[0].length >= this.#tailCap) {
        this.#tailSize -= this.#tail.shift()!.length;
      }
    }
    return !this.#full;
  }

  /** Everything pushed so far is still held: write it to a new file, keep writing there. */
  #startSpill(): void {
    try {
      const { file, path } = createOutputFile(this.#spill!.sessionDir, this.#spill!.callId);
      this.#file = file;
      this.#path = path;
      for (const c of [...this.#head, ...this.#tail]) this.#save(c);
    } catch (err) {
      this.#spillError = (err as Error).message;
      this.#file = undefined;
    }
  }

  #save(chunk: Uint8Array): void {
    if (!this.#file || this.#full) return;
    const room = this.#spill!.maxBytes - this.#saved;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    try {
      writeAll(this.#file, part);
      this.#saved += part.length;
    } catch (err) {
      this.#spillError = (err as Error).message;
      this.close();
      return;
    }
    if (chunk.length > room) this.#full = true;
  }

  /** Closes the saved file (idempotent). */
  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = undefined;
  }

  /** The captured text: whole, or the head and the tail around a note saying where the rest is. */
  text(): string {
    const decoder = new TextDecoder();
    const maxLines = this.#limits.maxLines ?? Number.MAX_SAFE_INTEGER;
    const keep = Math.floor(maxLines / 2);
    let headLines: string[];
    let tailLines: string[];
    if (this.#total <= this.#limits.maxBytes) {
      const all = concat([...this.#head, ...this.#tail], this.#total);
      const full = decoder.decode(all);
      const lines = full.replace(/\n$/, "").split("\n");
      if (lines.length <= maxLines) return full;
      if (this.#spill && !this.#file && !this.#path && !this.#spillError) {
        this.#startSpill();
        this.close();
      }
      headLines = lines.slice(0, keep);
      tailLines = lines.slice(lines.length - keep);
    } else {
      const tailAll = concat(this.#tail, this.#tailSize);
      const head = decoder.decode(concat(this.#head, this.#headSize)).split("\n");
      const tail = decoder.decode(tailAll.subarray(Math.max(0, tailAll.length - this.#tailCap)))
        .replace(/\n$/, "").split("\n");
      // Drop the partial lines at the cuts (unless a single line is all there is).
      if (head.length > 1) head.pop();
      if (tail.length > 1) tail.shift();
      headLines = head.slice(0, keep);
      tailLines = tail.slice(Math.max(0, tail.length - keep));
    }
    this.close();
    return `${headLines.join("\n")}\n\n${this.#note(headLines.length, tailLines.length)}\n\n${
      tailLines.join("\n")
    }`;
  }

  #note(head: number, tail: number): string {
    const lines = this.#newlines;
    const where = this.#path
      ? this.#full
        ? ` The first ${
          formatBytes(this.#saved)
        } of it are saved in ${this.#path} (the command was stopped there).`
        : ` The whole output is saved in ${this.#path}: read parts of it (read_file with offset/limit, grep, head, tail).`
      : " Redirect the output to a file and read parts of it to see more.";
    return `[... output truncated: ${this.#total} bytes, ${lines} lines in total; ` +
      `showing the first ${head} and the last ${tail} lines.${where} ...]`;
  }
}

/**
 * Room a capped output may take beyond its limit: the truncation note and the
 * error line a tool adds to it. A text already capped by its producer is not
 * cut again.
 */
export const NOTE_ROOM = 2048;

/**
 * Caps a text already in memory (a plugin tool's result, a hook's answer):
 * unchanged when within `limits` (plus {@link NOTE_ROOM}), else the head and
 * the tail around a note, with the whole text saved beside the session when
 * `spill` is given.
 */
export function capText(text: string, limits: OutputLimits, spill?: SpillOptions): string {
  const room = limits.maxBytes + NOTE_ROOM;
  // A UTF-16 unit is at most 3 bytes of UTF-8: short texts need no encoding to be measured.
  if (text.length * 3 <= room && limits.maxLines === undefined) return text;
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= room && limits.maxLines === undefined) return text;
  const spool = new OutputSpool(limits, spill);
  const step = 1 << 20;
  for (let i = 0; i < bytes.length; i += step) spool.push(bytes.subarray(i, i + step));
  return spool.text();
}
