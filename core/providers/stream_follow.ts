/**
 * Follows a `.stream` file another process appends to (an executable
 * provider run with `--stream`), turning each new complete JSON line into a
 * callback, so its text shows live.
 *
 * @module
 */
import { openOwnFile } from "../base/mod.ts";

/** A running follower. */
export interface StreamFollower {
  /** Reads what is left, then stops. */
  stop(): void;
}

/** Polls `path` every `intervalMs` for new lines, starting at its current end. */
export function followStream(
  path: string,
  onEvent: (event: Record<string, unknown>) => void,
  intervalMs = 25,
): StreamFollower {
  let offset = 0;
  try {
    offset = Deno.statSync(path).size;
  } catch { /* not there yet */ }
  let pending = "";
  const decoder = new TextDecoder();
  const poll = () => {
    let file: Deno.FsFile | undefined;
    try {
      file = openOwnFile(path, { read: true }); // the session's own .stream, never a link
      const size = file.statSync().size;
      if (size < offset) offset = 0; // truncated: a new request
      if (size === offset) return;
      file.seekSync(offset, Deno.SeekMode.Start);
      const buf = new Uint8Array(size - offset);
      let read = 0;
      while (read < buf.length) {
        const n = file.readSync(buf.subarray(read));
        if (n === null) break;
        read += n;
      }
      offset += read;
      pending += decoder.decode(buf.subarray(0, read), { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        try {
          const e = JSON.parse(line);
          if (e && typeof e === "object") onEvent(e);
        } catch { /* a line that is not JSON is the provider's business */ }
      }
    } catch {
      // the file may not exist yet
    } finally {
      file?.close();
    }
  };
  const timer = setInterval(poll, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      poll();
    },
  };
}
