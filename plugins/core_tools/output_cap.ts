/**
 * Bounded capture of command output: keeps the head and the tail of a stream
 * (memory stays bounded however much a command prints) and renders it with a
 * clear truncation note.
 *
 * @module
 */

/** Limits of captured output. */
export interface OutputLimits {
  /** Most bytes shown (half from the head, half from the tail). */
  maxBytes: number;
  /** Most lines shown (half from the head, half from the tail). */
  maxLines: number;
}

/** Default limits: 100 KB and 2000 lines. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxBytes: 100_000, maxLines: 2000 };

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** Collects a byte stream, remembering only its first and last `maxBytes / 2` bytes. */
export class OutputCollector {
  #head: Uint8Array[] = [];
  #headSize = 0;
  #tail: Uint8Array[] = [];
  #tailSize = 0;
  #total = 0;
  #newlines = 0;
  readonly #half: number;
  readonly #limits: OutputLimits;

  /** Creates a collector with the given limits. */
  constructor(limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {
    this.#limits = limits;
    this.#half = Math.floor(limits.maxBytes / 2);
  }

  /** Total bytes seen so far. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Adds a chunk. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    for (const b of chunk) if (b === 0x0a) this.#newlines++;
    const room = this.#half - this.#headSize;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#head.push(part.slice());
      this.#headSize += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk.slice());
    this.#tailSize += chunk.length;
    while (this.#tail.length > 1 && this.#tailSize - this.#tail[0].length >= this.#half) {
      this.#tailSize -= this.#tail.shift()!.length;
    }
  }

  /** The captured text, truncated in the middle with a note when over the limits. */
  text(): string {
    const decoder = new TextDecoder();
    const keep = Math.floor(this.#limits.maxLines / 2);
    let headLines: string[];
    let tailLines: string[];
    if (this.#total - this.#headSize - this.#tailSize <= 0) {
      const full = decoder.decode(concat([...this.#head, ...this.#tail], this.#total));
      const lines = full.replace(/\n$/, "").split("\n");
      if (lines.length <= this.#limits.maxLines) return full;
      headLines = lines.slice(0, keep);
      tailLines = lines.slice(lines.length - keep);
    } else {
      const tailAll = concat(this.#tail, this.#tailSize);
      const head = decoder.decode(concat(this.#head, this.#headSize)).split("\n");
      const tail = decoder.decode(tailAll.subarray(tailAll.length - this.#half))
        .replace(/\n$/, "").split("\n");
      // Drop the partial lines at the cuts (unless a single line is all there is).
      if (head.length > 1) head.pop();
      if (tail.length > 1) tail.shift();
      headLines = head.slice(0, keep);
      tailLines = tail.slice(Math.max(0, tail.length - keep));
    }
    const note = `[... output truncated: ${this.#total} bytes, ${this.#newlines} lines in total; ` +
      `showing the first ${headLines.length} and the last ${tailLines.length} lines. ` +
      "Redirect the output to a file and read parts of it to see more ...]";
    return `${headLines.join("\n")}\n\n${note}\n\n${tailLines.join("\n")}`;
  }
}
