/**
 * An MCP stdio transport on `Deno.Command` (the SDK's own uses node's
 * child_process and leaves a 2 s timer behind on close): newline-delimited
 * JSON-RPC on stdin/stdout, stderr forwarded line by line, and a bounded close
 * — stdin is ended, then the process gets SIGTERM and finally SIGKILL, every
 * timer cleared.
 *
 * @module
 */
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { settlesWithin, type SpawnSpec } from "../../core/mod.ts";

/** Most bytes one message line may have (a runaway server is cut off). */
const MAX_LINE = 64 * 1024 * 1024;

/** How long a closing server is given before SIGTERM, then before SIGKILL. */
const GRACE_MS = 1000;

async function forLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  const dec = new TextDecoder();
  let buf = "";
  for await (const chunk of stream) {
    buf += dec.decode(chunk, { stream: true });
    if (buf.length > MAX_LINE) throw new Error("MCP server sent a line over 64 MiB");
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, "");
      buf = buf.slice(i + 1);
      if (line) onLine(line);
    }
  }
}

/** A stdio MCP transport for one server process. */
export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #spec: SpawnSpec;
  #stderr: (line: string) => void;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #reading: Promise<void>[] = [];
  #closed = false;
  #enc = new TextEncoder();

  constructor(spec: SpawnSpec, stderr: (line: string) => void) {
    this.#spec = spec;
    this.#stderr = stderr;
  }

  start(): Promise<void> {
    const child = new Deno.Command(this.#spec.command, {
      args: this.#spec.args,
      env: this.#spec.env,
      clearEnv: true,
      cwd: this.#spec.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#reading.push(
      forLines(child.stdout, (line) => {
        let msg: JSONRPCMessage;
        try {
          msg = deserializeMessage(line);
        } catch (err) {
          this.onerror?.(err as Error);
          return;
        }
        this.onmessage?.(msg);
      }).catch((err) => this.onerror?.(err as Error)),
      forLines(child.stderr, this.#stderr).catch(() => {}),
    );
    child.status.then(() => {
      if (!this.#closed) {
        this.#closed = true;
        this.onclose?.();
      }
    });
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the MCP server is not running");
    await this.#writer.write(this.#enc.encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    const wasClosed = this.#closed;
    this.#closed = true;
    try {
      await this.#writer?.close();
    } catch { /* already gone */ }
    if (!(await settlesWithin(child.status, GRACE_MS))) {
      try {
        child.kill("SIGTERM");
      } catch { /* exited */ }
      if (!(await settlesWithin(child.status, GRACE_MS))) {
        try {
          child.kill("SIGKILL");
        } catch { /* exited */ }
      }
    }
    await child.status;
    await Promise.all(this.#reading);
    if (!wasClosed) this.onclose?.();
  }
}
