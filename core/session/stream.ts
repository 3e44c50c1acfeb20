/**
 * A session's `.stream`: the JSONL events of the last model request, opened through the
 * containment checks (a link there is replaced, never followed), truncated at each new
 * request and appended to (an executable provider with `--stream` appends its own events).
 *
 * @module
 */
import { join } from "../early/mod.ts";
import { openOwnFile } from "../base/mod.ts";

/** The `.stream` of one session directory. */
export class SessionStream {
  #dir: string;
  #file?: Deno.FsFile;
  #encoder = new TextEncoder();

  /** The stream of the session directory `dir` (opened on first use). */
  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Starts a fresh `.stream` for a new model request. */
  reset(): void {
    this.close();
    // Truncated through the checked handle; appended to: an executable provider
    // (`--stream`) appends its own events. A link there is replaced, never followed.
    this.#file = this.#open();
    try {
      this.#file?.truncateSync(0);
    } catch { /* a stream that cannot be truncated is appended to */ }
  }

  #open(): Deno.FsFile | undefined {
    try {
      return openOwnFile(join(this.#dir, ".stream"), { append: true, create: true, replace: true });
    } catch {
      return undefined;
    }
  }

  /** Appends one JSON event line. */
  event(event: Record<string, unknown>): void {
    this.#file ??= this.#open();
    if (!this.#file) return;
    const bytes = this.#encoder.encode(JSON.stringify(event) + "\n");
    let off = 0;
    while (off < bytes.length) off += this.#file.writeSync(bytes.subarray(off));
  }

  /** Closes the handle. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
  }
}
