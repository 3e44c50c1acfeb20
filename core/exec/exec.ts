/**
 * Running executables (hooks, tools, providers, commands): JSON on stdin,
 * stdout captured, stderr to the log, a timeout that kills the whole process
 * group, and cancellation through an AbortSignal.
 *
 * @module
 */
import { type ChildSandbox, SgrOnlyFilter, type SpawnSpec } from "../base/mod.ts";
import { killProcessGroup } from "./kill.ts";
import { systemBinary } from "./system_bin.ts";
import { type OutputLimits, OutputSpool, type SpillOptions } from "./output.ts";

/** The outcome of one executable run. */
export interface ExecResult {
  /** The exit code (126: refused by the sandbox, 127: could not start). */
  code: number;
  /** What the child printed on stdout. */
  stdout: string;
  /** What the child printed on stderr. */
  stderr: string;
  /** True when the child was stopped at `timeoutMs`. */
  timedOut: boolean;
  /** True when the child was stopped because `signal` aborted. */
  aborted: boolean;
  /**
   * True when stdout went past `maxStdoutBytes` (or the spill file of `output` is full):
   * the child was stopped there and `stdout` is incomplete.
   */
  overflow: boolean;
  /** Bytes the child printed on stdout (up to the moment it was stopped). */
  stdoutBytes: number;
}

/** Default hard limit of a child's stdout when no `output` capture is asked for (64 MiB). */
export const DEFAULT_MAX_STDOUT = 64 * 1024 * 1024;

/** Options of {@link runExecutable}. */
export interface ExecOptions {
  /** The command's arguments. */
  args?: string[];
  /** Text written to the child's stdin. */
  stdin?: string;
  /** The complete environment of the child. */
  env: Record<string, string>;
  /** The child's working directory. */
  cwd: string;
  /** Time limit: past it the child's process group is killed. */
  timeoutMs: number;
  /** Stops the child when aborted. */
  signal?: AbortSignal;
  /** Called with stderr text as it arrives (e.g. to append to HARNESS_LOG). */
  onStderr?: (text: string) => void;
  /**
   * Hard limit of stdout (default 64 MiB): past it the child's process group is
   * stopped and the result says `overflow` (hooks and providers print JSON: half of it is
   * no answer).
   */
  maxStdoutBytes?: number;
  /**
   * Bounded capture instead (tools): the head and tail within `limits`, the whole output
   * saved to the `spill` file; the child is stopped only when that file is full.
   */
  output?: { limits: OutputLimits; spill?: SpillOptions };
  /**
   * The effect floor's OS sandbox; a refusal becomes code 126 with the reason on stderr.
   * Required: a caller that runs a child unconfined says so with {@link unconfined}.
   */
  sandbox: ChildSandbox;
  /** Variables of `env` the sandbox keeps although the policy's env list is narrower. */
  keepEnv?: string[];
  /** What is run, for sandbox messages (e.g. `tool /path`, `hook /path`). */
  what?: string;
  /**
   * Hand the child the terminal: it stays in this process's session (so `/dev/tty` is the
   * user's terminal) instead of a session of its own, and its stderr is shown on this
   * process's stderr as it arrives (as well as captured). For interactive stages only.
   */
  terminal?: boolean;
}

const live = new Set<Deno.ChildProcess>();

/** Runs children as they are (only for children that must hold their own rights: providers). */
export const unconfined: ChildSandbox = {
  prepare: (spec) => Promise.resolve(spec),
};

/**
 * `setsid(1)` puts the child in its own process group (so a timeout can kill
 * grandchildren too) for about 2.5 ms less than Deno's `detached` spawn path.
 * Where it is missing (macOS), `detached` does the same job.
 */
const SETSID: string | undefined = systemBinary("setsid");

/** Kills every process group still running (used on exit and Ctrl-C). */
export function killAllChildren(): void {
  for (const child of live) killProcessGroup(child);
}

/** How long pipes may stay open after the group was killed (something outside it holds them). */
const PIPE_GRACE_MS = 500;

/** Where a stream's bytes go; `push` returns false to stop reading (the child is stopped). */
interface Sink {
  push(chunk: Uint8Array): boolean;
  text(): string;
  readonly totalBytes: number;
}

/** Keeps everything up to `cap` bytes; past it, asks to stop (or, with `drain`, drops the rest). */
class CappedText implements Sink {
  #decoder = new TextDecoder();
  #chunks: string[] = [];
  #size = 0;
  #cap: number;
  #onText?: (text: string) => void;
  #drain: boolean;
  totalBytes = 0;

  constructor(cap: number, opts: { onText?: (text: string) => void; drain?: boolean } = {}) {
    this.#cap = cap;
    this.#onText = opts.onText;
    this.#drain = opts.drain ?? false;
  }

  push(chunk: Uint8Array): boolean {
    this.totalBytes += chunk.length;
    const keep = Math.min(chunk.length, Math.max(0, this.#cap - this.#size));
    if (keep > 0) {
      const text = this.#decoder.decode(chunk.subarray(0, keep), { stream: true });
      this.#chunks.push(text);
      this.#onText?.(text);
      this.#size += keep;
    }
    return this.#drain || keep === chunk.length;
  }

  text(): string {
    this.#chunks.push(this.#decoder.decode());
    return this.#chunks.join("");
  }
}

/** Reads a stream into a sink until its end, a cancel, or the sink asks to stop. */
function readAll(
  stream: ReadableStream<Uint8Array>,
  sink: Sink,
  onStop?: () => void,
): { done: Promise<void>; cancel(): void } {
  const reader = stream.getReader();
  return {
    done: (async () => {
      let stopped = false;
      for (;;) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          break;
        }
        if (next.done) break;
        if (stopped) continue; // drain what is already buffered, keep nothing
        if (!sink.push(next.value)) {
          stopped = true;
          onStop?.();
        }
      }
    })(),
    cancel: () => void reader.cancel().catch(() => {}),
  };
}

/** The result of a child that never ran (refused by the sandbox, or failed to spawn). */
function notRun(code: number, stderr: string): ExecResult {
  return {
    code,
    stdout: "",
    stderr,
    timedOut: false,
    aborted: false,
    overflow: false,
    stdoutBytes: 0,
  };
}

/** Writes `text` to the child's stdin and closes it (a child that closed it early is fine). */
async function writeStdin(child: Deno.ChildProcess, text: string | undefined): Promise<void> {
  const w = child.stdin.getWriter();
  try {
    if (text) await w.write(new TextEncoder().encode(text));
    await w.close();
  } catch {
    // the child closed stdin early: not an error of ours
    try {
      await w.abort();
    } catch { /* ignore */ }
  }
}

/**
 * After the child exited: a grandchild left in the group (e.g. `sleep &`) may hold the
 * pipes open — it gets a moment to finish writing, then the whole group is ended (when
 * `killGroup()` says so); pipes still open after that are held by something outside the
 * group, and reading them stops.
 */
async function endPipes(
  child: Deno.ChildProcess,
  pipes: Promise<void>,
  killGroup: () => boolean,
  readers: { cancel(): void }[],
): Promise<void> {
  let grace: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    pipes,
    new Promise<void>((resolve) => {
      grace = setTimeout(resolve, 100);
    }),
  ]);
  clearTimeout(grace);
  if (killGroup()) killProcessGroup(child);
  // Pipes still open after the group died are held by something outside it: stop reading.
  let late: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    pipes,
    new Promise<void>((resolve) => {
      late = setTimeout(() => {
        for (const r of readers) r.cancel();
        resolve();
      }, PIPE_GRACE_MS);
    }),
  ]);
  clearTimeout(late);
}

/**
 * Runs an executable in its own process group. Never throws for a failing
 * child: spawn failures become code 127 with the reason on stderr.
 */
export async function runExecutable(path: string, opts: ExecOptions): Promise<ExecResult> {
  let spec: SpawnSpec = {
    command: path,
    args: opts.args ?? [],
    env: opts.env,
    cwd: opts.cwd,
    terminal: opts.terminal === true,
    ...(opts.keepEnv?.length ? { keepEnv: opts.keepEnv } : {}),
  };
  const prepared = await opts.sandbox.prepare(spec, opts.what ?? path);
  if ("refused" in prepared) return notRun(126, prepared.refused);
  spec = prepared;
  // A child the sandbox wrapped (bubblewrap, its own PID namespace) takes its group down
  // with it when it exits; an unwrapped one may leave background jobs to end.
  const wrapped = spec.command !== path;
  // A session of its own (no controlling terminal, its own process group), unless the
  // child is to have the terminal (and the sandbox kept it so, under its TIOCSTI filter):
  // then it shares ours and is killed on its own.
  const terminal = opts.terminal === true && spec.terminal === true;
  // (a child the sandbox gave a session of its own needs no setsid: one exec less)
  const ownSession = terminal || spec.ownSession === true;
  const setsid = ownSession ? undefined : SETSID;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(setsid ?? spec.command, {
      args: setsid ? [spec.command, ...spec.args] : spec.args,
      cwd: spec.cwd,
      env: spec.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: !ownSession && SETSID === undefined,
    }).spawn();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return notRun(127, `cannot run ${path}: ${reason}`);
  }
  live.add(child);
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killProcessGroup(child);
  }, opts.timeoutMs);
  const onAbort = () => {
    aborted = true;
    killProcessGroup(child);
  };
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();

  const writer = writeStdin(child, opts.stdin);
  let overflow = false;
  const spool = opts.output ? new OutputSpool(opts.output.limits, opts.output.spill) : undefined;
  const outSink: Sink = spool ?? new CappedText(opts.maxStdoutBytes ?? DEFAULT_MAX_STDOUT);
  const outR = readAll(child.stdout, outSink, () => {
    overflow = true;
    killProcessGroup(child);
  });
  // stderr goes to the log: the first MiB of it, the rest is read and dropped.
  const tee = opts.terminal ? new TerminalTee(opts.onStderr) : undefined;
  const onStderr = tee ? (text: string) => tee.write(text) : opts.onStderr;
  const errSink = new CappedText(1024 * 1024, { onText: onStderr, drain: true });
  const errR = readAll(child.stderr, errSink);
  const outP = outR.done;
  const errP = errR.done;
  let pipesClosed = false;
  const pipes = Promise.all([outP, errP]).then(() => {
    pipesClosed = true;
  });
  const status = await child.status;
  await endPipes(child, pipes, () => !wrapped || !pipesClosed, [outR, errR]);
  await Promise.all([outP, errP, writer]);
  tee?.end();
  clearTimeout(timer);
  opts.signal?.removeEventListener("abort", onAbort);
  live.delete(child);
  const stdout = outSink.text();
  spool?.close();
  return {
    code: status.code,
    stdout,
    stderr: errSink.text(),
    timedOut,
    aborted,
    overflow,
    stdoutBytes: outSink.totalBytes,
  };
}

/**
 * Shows a child's stderr on this process's stderr as it arrives — its colours (SGR) kept,
 * every other escape sequence and control character as a picture ({@link SgrOnlyFilter}) —
 * and hands the text on unchanged (to the log).
 */
class TerminalTee {
  readonly #filter = new SgrOnlyFilter();
  readonly #encoder = new TextEncoder();
  constructor(private readonly next?: (text: string) => void) {}

  /** Shows a chunk and hands it on. */
  write(text: string): void {
    this.#show(this.#filter.push(text));
    this.next?.(text);
  }

  /** Shows what the filter still held back (a trailing partial sequence). */
  end(): void {
    this.#show(this.#filter.end());
  }

  #show(text: string): void {
    if (!text) return;
    try {
      const bytes = this.#encoder.encode(text);
      let off = 0;
      while (off < bytes.length) off += Deno.stderr.writeSync(bytes.subarray(off));
    } catch { /* stderr closed: the log still gets it */ }
  }
}

/** The last `n` lines of a text, trimmed. */
export function tail(text: string, n = 5): string {
  const lines = text.trimEnd().split("\n");
  return lines.slice(-n).join("\n");
}
