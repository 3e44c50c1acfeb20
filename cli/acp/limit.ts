/**
 * The size limit of one `hs acp` message (issue 23, cause 10). The ACP SDK's line reader
 * ends the whole connection — silently, exit code 0 — at a line over its limit. hs reads
 * the lines first: a line over {@link MAX_ACP_MESSAGE_BYTES} is skipped up to its newline
 * and answered with a JSON-RPC "invalid request" error (-32600) naming the limit — with the
 * request's id when the line's head shows it — and the connection goes on serving.
 *
 * @module
 */

/** The most bytes of one ACP message (the SDK's default limit, 32 MiB). */
export const MAX_ACP_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How much of a skipped line is kept to find its id. */
const HEAD_BYTES = 4096;

const NEWLINE = 0x0a;

/** A JSON-RPC id found at the top level of a message's head (not nested in its params). */
export function idOfHead(head: string): number | string | null {
  let depth = 0;
  let i = 0;
  while (i < head.length) {
    const c = head[i];
    if (c === '"') {
      const end = stringEnd(head, i);
      if (end < 0) return null;
      if (depth === 1 && head.slice(i, end + 1) === '"id"') {
        const m = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(head.slice(end + 1));
        if (m) return m[1].startsWith('"') ? JSON.parse(m[1]) : Number(m[1]);
      }
      i = end + 1;
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    i++;
  }
  return null;
}

function stringEnd(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

/** `head` with the start of `part` appended, up to {@link HEAD_BYTES}. */
function grow(head: Uint8Array | undefined, part: Uint8Array): Uint8Array {
  if (!head) return part.slice(0, HEAD_BYTES);
  if (head.byteLength >= HEAD_BYTES) return head;
  const more = part.subarray(0, HEAD_BYTES - head.byteLength);
  const out = new Uint8Array(head.byteLength + more.byteLength);
  out.set(head);
  out.set(more, head.byteLength);
  return out;
}

/** The error answer of a message over the limit. */
export function tooLargeAnswer(
  id: number | string | null,
  bytes: number,
  max: number = MAX_ACP_MESSAGE_BYTES,
): string {
  const mib = (max / 1024 / 1024).toFixed(max % (1024 * 1024) === 0 ? 0 : 1);
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32600,
      message: `message too large: ${bytes} bytes, over hs acp's limit of ${mib} MiB ` +
        `(${max} bytes); it was not read — send large content as files or resource links`,
    },
  }) + "\n";
}

/**
 * Splits `input` at newlines, passing every line of at most `max` bytes on whole (with its
 * newline; a line is held until it is complete, so a dropped one never reaches the reader in
 * part) and calling `tooLarge` with the head and the size read of each longer one, which is
 * dropped.
 */
export function limitLines(
  input: ReadableStream<Uint8Array>,
  tooLarge: (head: Uint8Array, bytes: number) => Promise<void>,
  max: number = MAX_ACP_MESSAGE_BYTES,
): ReadableStream<Uint8Array> {
  let size = 0;
  let pending: Uint8Array[] = [];
  let head: Uint8Array | undefined;
  let skipping = false;
  const endLine = async (out: TransformStreamDefaultController<Uint8Array>) => {
    if (skipping) await tooLarge(head ?? new Uint8Array(), size);
    else for (const p of pending) out.enqueue(p);
    [size, pending, head, skipping] = [0, [], undefined, false];
  };
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, out) {
        let from = 0;
        while (from < chunk.byteLength) {
          const nl = chunk.indexOf(NEWLINE, from);
          const end = nl < 0 ? chunk.byteLength : nl + 1;
          const part = chunk.slice(from, end);
          const text = nl < 0 ? part : part.subarray(0, part.byteLength - 1);
          head = grow(head, text);
          size += text.byteLength;
          if (size > max && !skipping) [skipping, pending] = [true, []];
          if (!skipping) pending.push(part);
          if (nl < 0) break;
          await endLine(out);
          from = end;
        }
      },
      async flush(out) {
        if (size > 0 || pending.length > 0) await endLine(out);
      },
    }),
  );
}

/**
 * An output stream shared by the SDK and hs's own answers: whole writes, in order, on one
 * writer of `output`.
 */
export function sharedOutput(output: WritableStream<Uint8Array>): {
  stream: WritableStream<Uint8Array>;
  write(bytes: Uint8Array): Promise<void>;
} {
  const writer = output.getWriter();
  let queue = Promise.resolve();
  const write = (bytes: Uint8Array) => {
    const next = queue.then(() => writer.write(bytes));
    queue = next.catch(() => {});
    return next;
  };
  const stream = new WritableStream<Uint8Array>({
    write,
    close: () => queue.then(() => writer.close()),
    abort: (reason) => writer.abort(reason),
  });
  return { stream, write };
}
