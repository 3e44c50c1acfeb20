/**
 * `hs scheme [file]`: runs a Scheme file, or reads forms from stdin — a REPL (prompt
 * `scheme> `) on a terminal; on a pipe, each top-level form is evaluated in turn and errors are
 * reported with their location before going on to the next form.
 *
 * @module
 */
import { Interpreter } from "../interpreter/mod.ts";
import {
  DEFAULT_LIMITS,
  EOF,
  type LimitKind,
  type Limits,
  ReadError,
  SchemeError,
  SchemeExit,
  SchemeLimitError,
  toSchemeError,
  write,
} from "../base/mod.ts";

/** I/O capabilities given to the CLI by its caller. */
export interface SchemeCliIO {
  /**
   * Standard input, read only when no file is given (a getter spares a file run building the
   * stream: ~5 ms of start-up in Deno).
   */
  stdin: ReadableStream<Uint8Array>;
  /** Writes to standard output. */
  stdout: (s: string) => void;
  /** Writes to standard error. */
  stderr: (s: string) => void;
  /** True when stdin is a terminal (enables the REPL prompt). */
  isTerminal: boolean;
  /**
   * Reads the program file (default `Deno.readTextFile`): a caller that has given up its
   * permissions before running the program hands over the file it read beforehand.
   */
  readFile?: (path: string) => Promise<string>;
}

/** The limit flags: flag → [limit, what it raises, default]. */
const LIMIT_FLAGS: Record<string, [keyof Limits, string]> = {
  "--fuel": ["fuel", "procedure calls and steps of work"],
  "--timeout": ["timeoutMs", "milliseconds of wall-clock time"],
  "--max-depth": ["maxDepth", "nested (non-tail) calls"],
  "--max-memory": ["maxCells", "cells allocated (a pair is one, a string 1 per 8 chars)"],
  "--max-string": ["maxStringLength", "characters in one string"],
  "--max-vector": ["maxVectorLength", "elements of one vector or bytevector"],
};

/** The flag that raises each kind of limit (named in the error report). */
const FLAG_OF: Record<LimitKind, string> = {
  fuel: "--fuel",
  deadline: "--timeout",
  memory: "--max-memory",
  depth: "--max-depth",
};

/** The help text (built when asked for). */
function usage(): string {
  return `usage: hs scheme [options] [file [args...]]

Runs a Scheme file, or reads forms from standard input: a REPL on a terminal (prompt
"scheme> "), else each form is evaluated in turn and errors are reported as they come.
Each file (and each form read from standard input) runs under sandbox limits; raise them with:

${
    Object.entries(LIMIT_FLAGS).map(([flag, [key, what]]) =>
      `  ${(flag + " N").padEnd(18)}${what} (default ${DEFAULT_LIMITS[key]})`
    ).join("\n")
  }
  --env NAME=VALUE  a variable for get-environment-variable(s) (the view is empty otherwise)
  -h, --help        this text

The program's (command-line) is the file followed by its args. Exit code: 0, 1 after an error
(a limit error names the flag that raises it), 2 for bad usage.
`;
}

function report(e: unknown): string {
  const se = e instanceof SchemeError ? e : toSchemeError(e);
  let text = se.report() + "\n";
  if (se instanceof SchemeLimitError) {
    text += `(a sandbox limit: raise it with ${FLAG_OF[se.kind]})\n`;
  }
  return text;
}

/** Why a program file could not be read, in hs's words (never the engine's permission text). */
function readFailure(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "no such file";
  if (e instanceof Deno.errors.IsADirectory) return "it is a directory";
  if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
    return "this run may not read it";
  }
  return e instanceof Error ? e.message : String(e);
}

/** Parsed command line of `hs scheme`. */
interface CliOptions {
  limits: Limits;
  env: Record<string, string>;
  file?: string;
  args: string[];
}

function parseArgs(argv: string[]): CliOptions | string {
  const o: CliOptions = { limits: {}, env: {}, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (o.file !== undefined) {
      o.args.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (flag in LIMIT_FLAGS || flag === "--env") {
      const v = eq > 0 && a.startsWith("--") ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) return `${flag} needs a value`;
      if (flag === "--env") {
        const k = v.indexOf("=");
        if (k <= 0) return `--env needs NAME=VALUE, got ${v}`;
        o.env[v.slice(0, k)] = v.slice(k + 1);
        continue;
      }
      const n = Number(v.replace(/_/g, ""));
      if (!Number.isFinite(n) || n <= 0) return `${flag} needs a positive number, got ${v}`;
      o.limits[LIMIT_FLAGS[flag][0]] = n;
    } else if (a.startsWith("-") && a !== "-") {
      return `unknown option ${a}`;
    } else o.file = a;
  }
  return o;
}

function show(v: unknown): string {
  return v === undefined ? "" : write(v) + "\n";
}

/**
 * Runs the Scheme command. Returns the exit code: 0 on success, 1 if any error was reported,
 * 2 on bad usage.
 */
export async function runSchemeCli(args: string[], io: SchemeCliIO): Promise<number> {
  const first = args.findIndex((a) => !a.startsWith("-"));
  const own = first < 0 ? args : args.slice(0, first);
  if (own.includes("-h") || own.includes("--help")) {
    io.stdout(usage());
    return 0;
  }
  const o = parseArgs(args);
  if (typeof o === "string") {
    // a usage error in the CLI's one style (cli/view/errors.ts)
    io.stderr(`hs: ${o}\nhint: \`hs scheme --help\` lists the options and the limits\n`);
    return 2;
  }
  const interp = new Interpreter({
    stdout: io.stdout,
    stderr: io.stderr,
    limits: o.limits,
    // the command line tool grants the clock and the explicit environment view
    clock: () => performance.timeOrigin + performance.now(),
    processContext: {
      commandLine: o.file === undefined ? ["hs-scheme"] : [o.file, ...o.args],
      environment: o.env,
    },
  });
  if (o.file !== undefined) {
    let src: string;
    try {
      src = await (io.readFile ?? Deno.readTextFile)(o.file);
    } catch (e) {
      io.stderr(`hs scheme: cannot read ${o.file}: ${readFailure(e)}\n`);
      return 1;
    }
    try {
      await interp.evaluate(src, { file: o.file });
      return 0;
    } catch (e) {
      if (e instanceof SchemeExit) return e.code;
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
  const reader = interp.reader(src, "<stdin>");
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
      if (e instanceof SchemeExit) return e.code;
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
        const r = interp.reader(buf, "<repl>");
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
          if (e instanceof SchemeExit) return e.code;
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
