/**
 * The harness log (`$HARNESS_LOG`): plugin stderr, skipped sources, hook
 * failures. Lines only; never model output, never credentials.
 *
 * @module
 */

/** A line sink with an optional close. */
export type LogSink = ((line: string) => void) & { close?(): void };

/**
 * Appends lines to a file, opened on the first line (so a run that logs
 * nothing creates nothing). A log that cannot be written is dropped silently:
 * logging never fails a run.
 */
export function fileLog(path: string): LogSink & { close(): void } {
  let file: Deno.FsFile | undefined;
  let failed = false;
  const enc = new TextEncoder();
  const write = (line: string) => {
    if (failed) return;
    try {
      if (!file) {
        const open = () => Deno.openSync(path, { append: true, create: true, mode: 0o600 });
        try {
          file = open();
        } catch (err) {
          // a narrowed process may hold the log file but not its directory: mkdir only if needed
          if (!(err instanceof Deno.errors.NotFound)) throw err;
          const dir = path.slice(0, path.lastIndexOf("/"));
          if (dir) Deno.mkdirSync(dir, { recursive: true });
          file = open();
        }
      }
      file.writeSync(enc.encode(line.endsWith("\n") ? line : line + "\n"));
    } catch {
      failed = true;
    }
  };
  return Object.assign(write, {
    close() {
      file?.close();
      file = undefined;
    },
  });
}

/** How long {@link redactingLog} keeps the secrets it was given before it asks again (ms). */
export const SECRETS_FRESH_MS = 250;

/**
 * The shortest value treated as a secret where values are matched (the log's redaction, the
 * values kept out of child environments): a shorter one is too short to be a key and too
 * likely to be a word.
 */
export const SHORTEST_SECRET = 8;

/** What a secret's value becomes in the log ({@link redactingLog}). */
export const REDACTED = "[redacted]";

/**
 * A sink that writes each line with every secret's value replaced by {@link REDACTED} — the
 * values `secrets()` gives when the line is written (the provider keys of the environment, the
 * stored credentials), so a key quoted by a plugin, a hook's stderr or a pack program's error
 * never reaches the file. Values under {@link SHORTEST_SECRET} characters are left. The values are asked
 * again for a line written `freshMs` ({@link SECRETS_FRESH_MS}) or more after the last asking (a chatty
 * server's stderr does not rescan per line). A line logged while `secrets()` itself runs is
 * written with the values known before; a `secrets()` that throws keeps them too.
 */
export function redactingLog(
  sink: LogSink,
  secrets: () => readonly string[],
  freshMs: number = SECRETS_FRESH_MS,
): LogSink {
  let known: string[] = [];
  let busy = false;
  let asked = -Infinity;
  const write = (line: string) => {
    const now = performance.now();
    if (!busy && now - asked >= freshMs) {
      busy = true;
      asked = now;
      try {
        // the longest first: a value that holds another is replaced whole
        known = [...new Set(secrets())].filter((v) => v.length >= SHORTEST_SECRET)
          .sort((a, b) => b.length - a.length);
      } catch {
        /* the values known before */
      } finally {
        busy = false;
      }
    }
    let out = line;
    for (const v of known) if (out.includes(v)) out = out.replaceAll(v, REDACTED);
    sink(out);
  };
  return Object.assign(write, { close: () => sink.close?.() });
}
