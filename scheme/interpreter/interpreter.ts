/**
 * The embeddable interpreter: environments, host primitives, evaluation (sync fast path,
 * async when a host primitive returns a Promise), calling Scheme from TypeScript, and the
 * module-loader hook.
 *
 * @module
 */
import {
  apply,
  bindingKey,
  Capture,
  Cell,
  CK,
  DEFAULT_LIMITS,
  Environment,
  KF,
  LazyDefinition,
  lazyHooks,
  type Limits,
  MString,
  nested,
  NIL,
  Pair,
  Prim,
  R,
  Reader,
  Run,
  SchemeError,
  schemeError,
  SchemeLimitError,
  setState,
  State,
  Suspend,
  type Sym,
  sym,
  SymbolTable,
  toSchemeError,
  typeError,
  UNBOUND,
} from "../base/mod.ts";
import { defaultJitAfter } from "../jit/mod.ts";
import { def, installIO, installProcess, type StdPorts, str } from "../primitives/mod.ts";
import { libraryState } from "../lib/mod.ts";

import {
  copyEnv,
  evalDatum,
  evalForms,
  installLazy,
  LOCAL_DEFINITIONS,
  setPrim,
  sharedBase,
} from "./environment.ts";
import type {
  EvalOptions,
  HostPrimitive,
  HostPrimitiveSpec,
  InterpreterOptions,
  LoadedModule,
  ModuleLoader,
} from "./options.ts";

/** Promises of `untimed` primitives: awaiting them does not run the deadline. */
const untimedPromises = new WeakSet<Promise<unknown>>();

/** An embeddable, sandboxed Scheme interpreter. */
export class Interpreter {
  /** The interaction environment. */
  readonly env: Environment;
  /** Default limits. */
  readonly limits: Required<Limits>;
  private state = new State();
  private ports: StdPorts;
  private running = 0;
  private loader?: ModuleLoader;
  private currentFile: string | undefined = undefined;
  /** The symbols and keywords this interpreter's programs interned. */
  private readonly symbols = new SymbolTable();

  /** Creates an interpreter with the standard library plus the given host primitives. */
  constructor(opts: InterpreterOptions = {}) {
    this.env = copyEnv(sharedBase(), "interaction");
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.state.owner = this;
    this.state.symbols = this.symbols;
    const jit = opts.jit ?? defaultJitAfter();
    this.state.jitAfter = jit === false ? 0 : Math.max(0, Math.floor(jit));
    this.loader = opts.loader;
    const t = new Map<string, Prim>();
    this.ports = installIO(t, { out: opts.stdout ?? (() => {}), err: opts.stderr ?? (() => {}) });
    this.installEval(t);
    installProcess(t, opts.processContext ?? {}, opts.clock);
    for (const [name, src] of Object.entries(opts.libraries ?? {})) {
      libraryState(this.env).sources.set(name, src);
    }
    t.forEach((p, name) => setPrim(this.env, name, p));
    // standard names: static symbols (this.define would intern them as a program does)
    const ports = [
      ["current-output-port", this.ports.out],
      ["current-error-port", this.ports.err],
      ["current-input-port", this.ports.in],
    ] as const;
    for (const [name, port] of ports) this.env.table.set(sym(name), new Cell(port, sym(name)));
    for (const [name, spec] of Object.entries(opts.primitives ?? {})) {
      this.definePrimitive(name, spec);
    }
    installLazy(this.env, LOCAL_DEFINITIONS);
  }

  /** Interns `name` as this interpreter's programs would (static symbol if there is one). */
  symbol(name: string): Sym {
    return this.symbols.intern(name);
  }

  /** Number of symbols and keywords this interpreter interned beyond the static ones. */
  symbolCount(): number {
    return this.symbols.size;
  }

  /** A reader of `source` that interns into this interpreter's symbol table. */
  reader(source: string, file = "<eval>"): Reader {
    return new Reader(source, file, { symbols: this.symbols });
  }

  /** Defines (or replaces) a host primitive. */
  definePrimitive(name: string, spec: HostPrimitive | HostPrimitiveSpec): void {
    this.define(name, this.procedure(name, spec));
  }

  /**
   * A host procedure as a Scheme value, bound to no name: for passing a callback into
   * Scheme (e.g. a single-use continuation) without defining a global.
   */
  procedure(name: string, spec: HostPrimitive | HostPrimitiveSpec): unknown {
    const s: HostPrimitiveSpec = typeof spec === "function" ? { fn: spec } : spec;
    const inner = s.fn;
    const fn: HostPrimitive = s.untimed
      ? (...args) => {
        const r = inner(...args);
        if (r instanceof Promise) untimedPromises.add(r);
        return r;
      }
      : inner;
    return new Prim(name, fn, s.minArgs ?? 0, s.maxArgs ?? Infinity, true);
  }

  /** Defines a global variable. */
  define(name: string, value: unknown): void {
    const s = this.symbol(name);
    const c = this.env.get(s);
    if (c instanceof Cell) c.value = value;
    else this.env.table.set(s, new Cell(value, s));
  }

  /** Returns a global's value, or undefined if unbound. */
  lookup(name: string): unknown {
    const c = this.env.get(this.symbol(name));
    if (c instanceof Cell && c.value instanceof LazyDefinition) lazyHooks.force(c);
    return c instanceof Cell && c.value !== UNBOUND ? c.value : undefined;
  }

  /** Defines `eval` and the environment procedures, which need this interpreter. */
  private installEval(t: Map<string, Prim>): void {
    def(t, "eval", 1, 2, (x, env) => {
      const e = env === undefined ? this.env : env;
      if (!(e instanceof Environment)) typeError("eval", "environment", env);
      return evalDatum(x, e as Environment);
    });
    def(t, "interaction-environment", 0, 0, () => this.env);
    const fresh = () => {
      const e = copyEnv(sharedBase(), "environment");
      for (const [k, v] of t) e.table.set(bindingKey(k), new Cell(v, bindingKey(k)));
      return e;
    };
    def(t, "environment", 0, Infinity, fresh);
    def(t, "scheme-report-environment", 0, 1, fresh);
    def(t, "null-environment", 0, 1, fresh);
    def(t, "environment?", 1, 1, (x) => x instanceof Environment);
    const load = new Prim(
      "%load-module",
      (name: unknown) => {
        if (!this.loader) throw schemeError("file", "require: no module loader configured");
        const n = str("require", name);
        const r = this.loader(n, this.currentFile);
        const fin = (m: LoadedModule | null) => {
          if (!m) throw schemeError("file", "require: module not found:", [name]);
          return [m.source, m.file];
        };
        return r instanceof Promise ? r.then(fin) : fin(r);
      },
      1,
      1,
      true,
    );
    t.set("%load-module", load);
    def(t, "require", 1, 1, (name: unknown) => {
      const lm = load.fn(name);
      if (lm instanceof Promise) {
        const c = new Capture(CK.Await, lm);
        c.frames.push(
          new KF((v) => {
            const [src, file] = v as [string, string];
            return evalForms(this.reader(src, file), this.env);
          }),
        );
        throw c;
      }
      const [src, file] = lm as [string, string];
      return evalForms(this.reader(src, file), this.env);
    });
  }

  /**
   * Makes this interpreter's state current. A call made while one of its runs is executing
   * synchronously (a host primitive calling back into Scheme) nests in it: same budget and
   * dynamic state. Any other call starts fresh: new budget, empty dynamic state.
   */
  private enter(limits?: Limits): State {
    const prev = R;
    setState(this.state);
    if (this.running === 0) {
      this.state.reset({ ...this.limits, ...limits });
      this.state.dyn = null;
      this.state.depth = 0;
      this.state.sp = 0;
    }
    return prev;
  }

  /** Runs `start` counted as a running evaluation (host callbacks then nest in it). */
  private step(_run: Run, start: () => unknown): unknown {
    this.running++;
    try {
      return start();
    } finally {
      this.running--;
    }
  }

  /** Runs `thunk` to completion, awaiting the promises of asynchronous primitives. */
  private async drive(thunk: () => unknown, limits?: Limits): Promise<unknown> {
    const prev = this.enter(limits);
    try {
      const run = new Run();
      let r = this.step(run, () => run.run(thunk));
      while (r instanceof Suspend) {
        const budget = this.state.saveBudget();
        let ok = true;
        let v: unknown;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const untimed = untimedPromises.has(r.promise);
        const waited = Date.now();
        try {
          v = untimed ? await r.promise : await Promise.race([
            r.promise,
            new Promise((_, rej) => {
              timer = setTimeout(
                () => rej(new SchemeLimitError("deadline", "time limit exceeded")),
                Math.max(0, budget.deadline - Date.now()),
              );
            }),
          ]);
        } catch (e) {
          ok = false;
          v = e;
        } finally {
          clearTimeout(timer);
          // the host's time is not the program's: the deadline moves by what it took
          if (untimed) budget.deadline += Date.now() - waited;
        }
        setState(this.state);
        this.state.restoreBudget(budget);
        r = this.step(run, () => run.resume(ok, v));
      }
      return r;
    } catch (e) {
      throw toSchemeError(e);
    } finally {
      setState(prev);
    }
  }

  /**
   * Runs `thunk` synchronously (nested in a running evaluation when called back from a host
   * primitive).
   */
  private driveSync(thunk: () => unknown, limits?: Limits): unknown {
    if (this.running > 0 && R === this.state) {
      // a host primitive calling back into Scheme: a nested run of the running evaluation
      // (same budget and dynamic state); captures for outer continuations pass through as is
      return nested(thunk);
    }
    const prev = this.enter(limits);
    try {
      const run = new Run();
      const r = this.step(run, () => run.run(thunk));
      if (r instanceof Suspend) {
        r.promise.catch(() => {});
        throw schemeError("error", "asynchronous primitive used in synchronous evaluation");
      }
      return r;
    } catch (e) {
      throw toSchemeError(e);
    } finally {
      setState(prev);
    }
  }

  /** Evaluates all forms in `source`; resolves to the value of the last one. */
  evaluate(source: string, opts: EvalOptions = {}): Promise<unknown> {
    this.currentFile = opts.file;
    return this.drive(
      () => evalForms(this.reader(source, opts.file ?? "<eval>"), this.env),
      opts.limits,
    );
  }

  /** Like {@link evaluate} but synchronous; raises if a host primitive returns a Promise. */
  evaluateSync(source: string, opts: EvalOptions = {}): unknown {
    this.currentFile = opts.file;
    return this.driveSync(
      () => evalForms(this.reader(source, opts.file ?? "<eval>"), this.env),
      opts.limits,
    );
  }

  /** Evaluates one already-read datum as a top-level form. */
  evalDatum(datum: unknown, opts: EvalOptions = {}): Promise<unknown> {
    return this.drive(() => evalDatum(datum, this.env), opts.limits);
  }

  /** Calls a Scheme procedure (or the global named `proc`) with Scheme values. */
  call(proc: unknown, ...args: unknown[]): Promise<unknown> {
    const fn = this.resolveProc(proc);
    return this.drive(() => apply(fn, args));
  }

  /** Synchronous {@link call}; fastest path for calling Scheme from TypeScript. */
  callSync(proc: unknown, ...args: unknown[]): unknown {
    const fn = this.resolveProc(proc);
    return this.driveSync(() => apply(fn, args));
  }

  /** The procedure `proc`, or the global it names. */
  private resolveProc(proc: unknown): unknown {
    if (typeof proc === "string") {
      const v = this.lookup(proc);
      if (v === undefined) throw schemeError("unbound", `unbound variable: ${proc}`);
      return v;
    }
    return proc;
  }
}

/** Converts a JS string to a Scheme string and back (helpers for hosts). */
export function schemeString(x: unknown): string {
  if (typeof x === "string") return x;
  if (x instanceof MString) return x.s;
  return typeError("schemeString", "string", x);
}

/** Builds a Scheme list from a JS array. */
export function toList(xs: readonly unknown[]): unknown {
  let r: unknown = NIL;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}

/** Is `x` a Scheme error raised value? (re-export convenience) */
export function isSchemeError(x: unknown): x is SchemeError {
  return x instanceof SchemeError;
}

/** Symbol helper for hosts. */
export function symbol(name: string): Sym {
  return sym(name);
}
