/**
 * Test support for `hs web`: starts the real command through `deno task hs`
 * (the launcher, see {@link hsArgs}), waits for the address it prints, and
 * stops it with SIGTERM (what Ctrl-C does). Also raw HTTP requests (a Host
 * header that `fetch` would not send) and a server-sent events reader.
 *
 * @module
 */
import { hsArgs } from "./workspace.ts";

/** A running `hs web`. */
export interface HsWeb {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The printed address, with the token. */
  url: string;
  token: string;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then its exit code and output. */
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `hs web <args>` in `cwd`; resolves once it printed its address. */
export async function startHsWeb(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<HsWeb> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...hsArgs(), "web", ...args],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  let err = "";
  let wake = () => {};
  const pump = async (s: ReadableStream<Uint8Array>, add: (t: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of s) {
      add(decoder.decode(chunk, { stream: true }));
      wake();
    }
    wake();
  };
  const reading = Promise.all([
    pump(child.stdout, (t) => out += t),
    pump(child.stderr, (t) => err += t),
  ]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    wake();
    return s;
  });
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* exited */ }
    const s = await status;
    await reading;
    return { code: s.code, stdout: out, stderr: err };
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  for (;;) {
    const m = /open (http:\/\/\S+)/.exec(out);
    if (m) {
      const url = m[1];
      const u = new URL(url);
      return {
        origin: u.origin,
        url,
        token: u.searchParams.get("token") ?? "",
        stdout: () => out,
        stderr: () => err,
        stop,
      };
    }
    if (exited || Date.now() > deadline) {
      const r = await stop();
      throw new Error(
        `hs web did not print its address (exit ${r.code}):\n${r.stdout}\n${r.stderr}`,
      );
    }
    await new Promise<void>((r) => {
      wake = r;
      timer = setTimeout(r, 1000);
    });
    clearTimeout(timer);
  }
}

/** One raw HTTP/1.1 request (any headers, Host included); the status and the head. */
export async function rawRequest(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; head: string; body: string }> {
  const u = new URL(origin);
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  await conn.write(
    new TextEncoder().encode(`${method} ${path} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`),
  );
  const text = await new Response(conn.readable).text();
  const [head, ...rest] = text.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), head, body: rest.join("\r\n\r\n") };
}

/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Reads server-sent events until `until` returns true (or the stream ends); then cancels. */
export async function readEvents(
  res: Response,
  until: (events: SseEvent[]) => boolean,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  let buf = "";
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (!until(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e: SseEvent = { event: "message", data: "" };
        for (const line of frame.split("\n")) {
          if (line.startsWith("event: ")) e.event = line.slice(7);
          else if (line.startsWith("data: ")) e.data += line.slice(6);
          else if (line.startsWith("id: ")) e.id = line.slice(4);
        }
        if (e.data) events.push(e);
      }
    }
  } finally {
    await reader.cancel();
  }
  return events;
}
