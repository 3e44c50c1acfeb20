/**
 * `hs scheme [file]`: runs a Scheme file, or reads forms from stdin — a REPL (prompt
 * `scheme> `) on a terminal; on a pipe, each top-level form is evaluated in turn and errors are
 * reported with their location before going on to the next form.
 *
 * @module
 */
import { Interpreter } from "./interpreter.ts";
import { SchemeError, toSchemeError } from "./errors.ts";
import { EOF } from "./types.ts";
import { Reader, ReadError } from "./reader.ts";
import { write } from "./printer.ts";

/** I/O capabilities given to the CLI by its caller. */
export interface SchemeCliIO {
  /** Standard input. */
  stdin: ReadableStream<Uint8Array>;
  /** Writes to standard output. */
  stdout: (s: string) => void;
  /** Writes to standard error. */
  stderr: (s: string) => void;
  /** True when stdin is a terminal (enables the REPL prompt). */
  isTerminal: boolean;
}

const USAGE = "usage: hs scheme [file]\n";

function report(e: unknown): string {
  const se = e instanceof SchemeError ? e : toSchemeError(e);
  return se.report() + "\n";
}

function show(v: unknown): string {
  return v === undefined ? "" : write(v) + "\n";
}

/**
 * Runs the Scheme command. Returns the exit code: 0 on success, 1 if any error was reported,
 * 2 on bad usage.
 */
export async function runSchemeCli(args: string[], io: SchemeCliIO): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    io.stdout(USAGE);
    return 0;
  }
  if (args.length > 1) {
    io.stderr(USAGE);
    return 2;
  }
  const interp = new Interpreter({ stdout: io.stdout, stderr: io.stderr });
  if (args.length === 1) {
    let src: string;
    try {
      src = await Deno.readTextFile(args[0]);
    } catch (e) {
      io.stderr(`hs scheme: cannot read ${args[0]}: ${(e as Error).message}\n`);
      return 1;
    }
    try {
      await interp.evaluate(src, { file: args[0] });
      return 0;
    } catch (e) {
      io.stderr(report(e));
      return 1;
    }
  }
  return io.isTerminal ? await repl(interp, io) : await pipe(interp, io);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const dec = new TextDecoder();
  let out = "";
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += dec.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return out + dec.decode();
}

async function pipe(interp: Interpreter, io: SchemeCliIO): Promise<number> {
  const src = await readAll(io.stdin);
  const reader = new Reader(src, "<stdin>");
  let failed = false;
  for (;;) {
    let datum: unknown;
    try {
      datum = reader.read();
    } catch (e) {
      io.stderr(report(e));
      return 1;
    }
    if (datum === EOF) break;
    try {
      await interp.evalDatum(datum);
    } catch (e) {
      failed = true;
      io.stderr(report(e));
    }
  }
  return failed ? 1 : 0;
}

async function repl(interp: Interpreter, io: SchemeCliIO): Promise<number> {
  const dec = new TextDecoder();
  const reader = io.stdin.getReader();
  let buf = "";
  let failed = false;
  io.stdout("scheme> ");
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      // evaluate every complete datum in the buffer
      for (;;) {
        const r = new Reader(buf, "<repl>");
        let datum: unknown;
        try {
          datum = r.read();
        } catch (e) {
          if (e instanceof ReadError && e.incomplete) break;
          io.stderr(report(e));
          failed = true;
          buf = "";
          io.stdout("scheme> ");
          break;
        }
        if (datum === EOF) {
          buf = "";
          break;
        }
        buf = buf.slice(r.pos);
        try {
          io.stdout(show(await interp.evalDatum(datum)));
        } catch (e) {
          failed = true;
          io.stderr(report(e));
        }
        io.stdout("scheme> ");
      }
    }
  } finally {
    reader.releaseLock();
  }
  io.stdout("\n");
  return failed ? 1 : 0;
}
