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
