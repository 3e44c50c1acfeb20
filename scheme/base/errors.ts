/**
 * Error types: Scheme error objects, the JS exception that carries a raised Scheme object,
 * and sandbox limit errors.
 *
 * @module
 */
import { formatLoc, type Loc, NIL, Pair } from "./types.ts";

/** Kinds of built-in error objects. */
export type ErrorKind =
  | "error"
  | "type"
  | "arity"
  | "unbound"
  | "syntax"
  | "read"
  | "file"
  | "range"
  | "host"
  | "limit";

/** A Scheme error object (what `error` creates; `error-object?` is true of it). */
export class ErrorObject {
  /** Creates an error object. */
  constructor(
    public readonly message: string,
    public readonly irritants: unknown = NIL,
    public readonly kind: ErrorKind = "error",
    public loc?: Loc,
  ) {}
}

/** One backtrace frame. */
export interface TraceFrame {
  /** Procedure or form name, when known. */
  name: string;
  /** Source location of the call. */
  loc?: Loc;
}

/** Printer hook, installed by printer.ts to avoid an import cycle (`max`: length cap). */
export const errorHooks: { write: (x: unknown, max?: number) => string } = {
  write: (x) => String(x),
};

/** Hook set by state.ts: the Scheme backtrace at this moment (innermost first). */
export const traceHooks: { snapshot: () => TraceFrame[] } = { snapshot: () => [] };

/** Longest message text an error formats (irritants are cut with `…` past it). */
export const MAX_MESSAGE_LENGTH = 2000;

/**
 * The JS exception carrying a raised Scheme object (`payload`). Everything Scheme raises, and
 * every host exception converted by the runtime, reaches the host as a SchemeError.
 */
export class SchemeError extends Error {
  /** Scheme backtrace, innermost first (the call sites active when the error was made). */
  trace: TraceFrame[] = traceHooks.snapshot();
  /** Dynamic state at the raise point (runtime internal). */
  dyn: unknown = undefined;
  /** Creates an error carrying `payload`; its message is formatted on first use. */
  constructor(public readonly payload: unknown, public continuable = false) {
    super();
    this.name = "SchemeError";
    let text: string | undefined;
    Object.defineProperty(this, "message", {
      get: () => (text ??= describePayload(payload)),
      set: (v: string) => void (text = v),
      configurable: true,
      enumerable: false,
    });
  }
  /** Location of the innermost known frame (or of the error object). */
  get loc(): Loc | undefined {
    const p = this.payload;
    if (p instanceof ErrorObject && p.loc) return p.loc;
    return this.trace.find((f) => f.loc)?.loc;
  }
  /** Full report: message then `at name (file:line:col)` per frame. */
  report(): string {
    const lines = [`error: ${this.message}`];
    const p = this.payload;
    if (p instanceof ErrorObject && p.loc) lines.push(`  at ${formatLoc(p.loc)}`);
    for (const f of this.trace) lines.push(`  at ${f.name} (${formatLoc(f.loc)})`);
    return lines.join("\n");
  }
}

/** Which sandbox limit was exceeded. */
export type LimitKind = "fuel" | "deadline" | "memory" | "depth";

/** Raised when a sandbox limit is exceeded. Scheme handlers (`guard`) cannot catch it. */
export class SchemeLimitError extends SchemeError {
  /** Creates a limit error of the given kind. */
  constructor(public readonly kind: LimitKind, msg: string) {
    super(new ErrorObject(msg, NIL, "limit"));
    this.name = "SchemeLimitError";
  }
}

/**
 * Raised by `exit` / `emergency-exit`: ends the evaluation (after the `dynamic-wind` exits, unless
 * emergency). Scheme handlers cannot catch it; the host reads `code`.
 */
export class SchemeExit extends SchemeError {
  /** Creates an exit with the process-style code (0 = success). */
  constructor(public readonly code: number, public readonly emergency: boolean) {
    super(new ErrorObject(`exit ${code}`, NIL, "error"));
    this.name = "SchemeExit";
  }
}

/** Formats a raised payload as a message of at most about {@link MAX_MESSAGE_LENGTH} chars. */
export function describePayload(p: unknown): string {
  const cap = (s: string) =>
    s.length > MAX_MESSAGE_LENGTH ? s.slice(0, MAX_MESSAGE_LENGTH) + "…" : s;
  if (p instanceof ErrorObject) {
    let s = cap(p.message);
    let it = p.irritants;
    let n = 0;
    while (it instanceof Pair && s.length < MAX_MESSAGE_LENGTH) {
      if (++n > 1000) break;
      s += " " + errorHooks.write(it.car, MAX_MESSAGE_LENGTH - s.length);
      it = it.cdr;
    }
    if (it instanceof Pair) s += " …";
    return cap(s);
  }
  return cap("non-error object raised: " + errorHooks.write(p, MAX_MESSAGE_LENGTH));
}

/** Creates a SchemeError with an error object of the given kind. */
export function schemeError(
  kind: ErrorKind,
  message: string,
  irritants: unknown[] = [],
  loc?: Loc,
): SchemeError {
  let l: unknown = NIL;
  for (let i = irritants.length - 1; i >= 0; i--) l = new Pair(irritants[i], l);
  return new SchemeError(new ErrorObject(message, l, kind, loc));
}

/** Throws a type error: `proc: expected <what>, got <value>`. */
export function typeError(proc: string, what: string, got: unknown): never {
  throw schemeError("type", `${proc}: expected ${what}, got`, [got]);
}

/** Throws a range error. */
export function rangeError(proc: string, what: string, got: unknown): never {
  throw schemeError("range", `${proc}: ${what} out of range:`, [got]);
}

/** Converts any thrown JS value into a SchemeError (host exceptions never leak raw). */
export function toSchemeError(e: unknown): SchemeError {
  if (e instanceof SchemeError) return e;
  const text = e instanceof Error ? String(e.message) : "";
  // the JS engine's own limits: stack overflow is depth (tested without a regular expression,
  // which could itself overflow here), oversized values are memory
  if (text.indexOf("call stack") >= 0 || text.indexOf("Stack overflow") >= 0) {
    return new SchemeLimitError("depth", "recursion depth exceeded (JS stack exhausted)");
  }
  if (e instanceof RangeError) {
    if (
      /invalid (string|array|typed array) length|bigint|size exceeded|allocation/i.test(e.message)
    ) {
      return new SchemeLimitError("memory", `allocation limit exceeded (${e.message})`);
    }
  }
  const msg = e instanceof Error ? e.message : String(e);
  return schemeError("host", `host error: ${msg}`);
}
