/**
 * Loading a behavior program (seed 000 §3): a fresh sandboxed interpreter,
 * the registration forms bound as host primitives, the program's top-level
 * forms evaluated one by one. Top-level forms register; bodies do not run.
 * A registration form anywhere but at the top level is a load error
 * (callback-time registration) — found by reading the program, before any of
 * it runs — and one called from a callback later is refused too.
 *
 * Each guard gets a consent hash over its declaration id, point, matchers,
 * capabilities, contract and everything its handler can reach in the pack
 * (consent_hash.ts).
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, resolve } from "../core/early/mod.ts";
import {
  Dict,
  formatLoc,
  fromJson,
  Interpreter,
  type Json,
  type Limits,
  locations,
  NIL,
  Pair,
  ReadError,
  SchemeError,
  SchemeLimitError,
  Sym,
  write,
} from "../scheme/mod.ts";
import {
  type BehaviorPoint,
  emptyRegistrations,
  type GuardDecl,
  LoadError,
  parseGuard,
  parseHook,
  parseMethod,
  parseReducer,
  parseSubscriber,
  parseTool,
  POINTS,
  REGISTRATION_FORMS,
  type Registrations,
} from "./forms.ts";
import { consentHashes, type ProgramForm } from "./consent_hash.ts";
import { schemaBindings } from "./schema.ts";
import { refusal, retry } from "./outcome.ts";
import { BehaviorRuntime, installRuntime } from "./runtime.ts";

/** Limits of a behavior program: one evaluation (loading, or one callback). */
export const BEHAVIOR_LIMITS: Limits = {
  fuel: 5_000_000,
  timeoutMs: 2_000,
  maxCells: 4_000_000,
  maxStringLength: 4_000_000,
  maxVectorLength: 1_000_000,
  maxDepth: 10_000,
};

/** A guard with its consent hash. */
export interface HashedGuard extends GuardDecl {
  /** SHA-256 (hex) of the declaration and of what its handler reaches (consent_hash.ts). */
  hash: string;
  /** Index of the top-level form that declared it, in {@link LoadedProgram.forms}. */
  form: number;
}

/** A loaded program. */
export interface LoadedProgram {
  /** The program's entry file. */
  file: string;
  /** Every file it read (entry and required), in load order. */
  files: string[];
  /** Every top-level form it evaluated, in load order (what consent hashes reach over). */
  forms: ProgramForm[];
  registrations: Omit<Registrations, "guards"> & { guards: HashedGuard[] };
  /** The sandboxed interpreter the program lives in. */
  interpreter: Interpreter;
  /** What runs in it now, and its host services (`call/method`, `self/notify`). */
  runtime: BehaviorRuntime;
  /** Runs the program's `validate/configuration` predicates; the first failure's text. */
  validateConfiguration(): Promise<string | undefined>;
}

/** Options of {@link loadProgram}. */
export interface LoadOptions {
  /** Absolute path of the program (`.scm`). */
  file: string;
  /** Directory every file must stay inside (the pack root). */
  root: string;
  /** The bot's `configuration` (JSON), readable as `(configuration)`. */
  configuration?: Json;
  /** Limits (default {@link BEHAVIOR_LIMITS}). */
  limits?: Limits;
  /** Where `display`/`write` output goes (default: discarded). */
  log?: (text: string) => void;
  /** Reads a file (default: Deno.readTextFileSync). */
  read?: (path: string) => string;
  /** The runtime (and host services) of the program's callbacks (default: none). */
  runtime?: BehaviorRuntime;
  /**
   * A bot's program (default) or a pack's `states` module, which registers one
   * `define/reducer` and its methods, nothing else.
   */
  kind?: "bot" | "state";
}

function isInside(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}

/** Walks a datum; calls `visit` for every list (pair) in call position, skipping quoted data. */
function walkCalls(datum: unknown, visit: (p: Pair) => void): void {
  const seen = new Set<unknown>();
  const walk = (d: unknown) => {
    if (!(d instanceof Pair) || seen.has(d)) return;
    seen.add(d);
    const head = d.car;
    if (head instanceof Sym && (head.name === "quote" || head.name === "quasiquote")) return;
    visit(d);
    for (let p: unknown = d; p instanceof Pair; p = p.cdr) walk(p.car);
  };
  walk(datum);
}

function headName(d: unknown): string | undefined {
  return d instanceof Pair && d.car instanceof Sym ? d.car.name : undefined;
}

/** Rejects registration forms that are not at the top level (statically, before anything runs). */
function checkPlacement(forms: unknown[], file: string): void {
  const check = (form: unknown, topLevel: boolean) => {
    const head = headName(form);
    if (head === "begin" && topLevel) {
      for (let p = (form as Pair).cdr; p instanceof Pair; p = p.cdr) check(p.car, true);
      return;
    }
    const start = topLevel && head && REGISTRATION_FORMS.has(head) ? (form as Pair).cdr : form;
    walkCalls(start, (p) => {
      const h = headName(p);
      if (h && REGISTRATION_FORMS.has(h)) {
        throw new LoadError(
          `${h} inside another form: callback-time registration (behavior forms register only ` +
            "at the top level of a program)",
          formatLoc(locations.get(p)) === "?" ? file : formatLoc(locations.get(p)),
        );
      }
    });
  };
  for (const f of forms) check(f, true);
}

/** Loads a behavior program. Throws a {@link LoadError} (with file:line:col) on any problem. */
export async function loadProgram(opts: LoadOptions): Promise<LoadedProgram> {
  const root = resolve(opts.root);
  const entry = resolve(opts.file);
  const read = opts.read ?? ((p: string) => Deno.readTextFileSync(p));
  const regs = emptyRegistrations();
  const guardForms = new Map<GuardDecl, number>();
  const files: string[] = [];
  const forms: ProgramForm[] = [];
  const st: LoadState = {
    phase: "load",
    currentForm: NIL,
    currentIndex: -1,
    currentFile: entry,
    seq: 0,
  };
  const runtime = opts.runtime ?? new BehaviorRuntime();
  const interp = new Interpreter({
    limits: opts.limits ?? BEHAVIOR_LIMITS,
    stdout: runtime.sink(opts.log),
    stderr: runtime.sink(opts.log),
  });
  installRuntime(interp, runtime);
  const isProcedure = (v: unknown) => interp.callSync("procedure?", v) === true;
  const here = () => {
    const l = locations.get(st.currentForm as object);
    return l ? formatLoc(l) : relative(root, st.currentFile) || st.currentFile;
  };
  const registering = (form: string, fn: (...args: unknown[]) => unknown) =>
  (
    ...args: unknown[]
  ) => {
    if (st.phase !== "load") {
      throw new Error(
        `${form} called from a callback: callback-time registration (behavior forms register ` +
          "only at the top level of a program)",
      );
    }
    return fn(...args);
  };

  const validatorLocs = new Map<object, string>();
  defineForms(
    interp,
    { regs, guardForms, st, here, isProcedure, registering, validatorLocs },
    opts.configuration,
  );

  const loaded = new Set<string>();
  const loadFile = async (path: string, from: string): Promise<void> => {
    const abs = resolve(path);
    if (!isInside(abs, root)) {
      throw new LoadError(`${relative(root, abs)} escapes the pack root ${root}`, from);
    }
    if (loaded.has(abs)) return; // required twice: loaded once
    loaded.add(abs);
    let text: string;
    try {
      text = read(abs);
    } catch {
      throw new LoadError(`cannot read ${abs} (a missing file)`, from);
    }
    files.push(abs);
    let fileForms: unknown[];
    try {
      fileForms = interp.reader(text, abs).readAll();
    } catch (err) {
      throw readErrorOf(err, abs);
    }
    checkPlacement(fileForms, abs);
    const { currentFile: outerFile, currentForm: outerForm, currentIndex: outerIndex } = st;
    st.currentFile = abs;
    try {
      for (const form of fileForms) {
        st.currentForm = form;
        st.currentIndex = forms.push({ datum: form, file: relative(root, abs) }) - 1;
        try {
          await interp.evalDatum(form, { file: abs });
        } catch (err) {
          throw loadErrorOf(err, form, abs);
        }
      }
    } finally {
      st.currentFile = outerFile;
      st.currentForm = outerForm;
      st.currentIndex = outerIndex;
    }
  };
  interp.definePrimitive(
    "require",
    registering("require", (name: unknown) => {
      const n = typeof name === "string" ? name : undefined;
      if (!n) throw new TypeError("require: expected a file name string");
      const from = here();
      const target = isAbsolute(n) ? n : join(dirname(st.currentFile), n);
      return loadFile(target, from);
    }),
  );

  await loadFile(entry, entry);
  checkModule(regs, opts.kind, entry);
  st.phase = "run";
  st.currentForm = NIL;
  const guards = await hashedGuards(regs.guards, guardForms, forms, opts.configuration);
  return {
    file: entry,
    files,
    forms,
    registrations: { ...regs, guards },
    interpreter: interp,
    runtime,
    validateConfiguration: configurationValidator(regs.validators, validatorLocs, {
      runtime,
      interp,
      opts,
      entry,
    }),
  };
}

/** The program's `validate/configuration` predicates run, pure, on the bot's configuration. */
function configurationValidator(
  validators: unknown[],
  locs: Map<object, string>,
  c: { runtime: BehaviorRuntime; interp: Interpreter; opts: LoadOptions; entry: string },
): () => Promise<string | undefined> {
  return async () => {
    const config = fromJson((c.opts.configuration ?? {}) as Json);
    for (const pred of validators) {
      const at = locs.get(pred as object) ?? c.entry;
      let ok: unknown;
      try {
        // a pure predicate: no I/O, no call/method, no self/notify, no state/propose
        ok = await c.runtime.within({ kind: "validate" }, () => c.interp.call(pred, config));
      } catch (err) {
        return `${at}: validate/configuration failed (a failing predicate blocks ` +
          `activation, like #f): ${(err as Error).message.replace(/^host error: /, "")}`;
      }
      if (ok === false) {
        return `${at}: validate/configuration returned #f for the bot's configuration ` +
          "(#f blocks activation: give the configuration the predicate expects)";
      }
    }
    return undefined;
  };
}

/** What the registration forms of one load share. */
interface LoadState {
  /** "run" once loading ended: a registration from a callback is refused. */
  phase: "load" | "run";
  /** The top-level form being evaluated (its location and source). */
  currentForm: unknown;
  /** Its index among the program's top-level forms (load order). */
  currentIndex: number;
  /** The file being loaded (`require` resolves against it). */
  currentFile: string;
  /** Declaration order of guards and hooks. */
  seq: number;
}

/** What {@link defineForms} binds the forms to. */
interface FormsContext {
  regs: Registrations;
  /** The top-level form (index) that declared each guard. */
  guardForms: Map<GuardDecl, number>;
  st: LoadState;
  here(): string;
  isProcedure(v: unknown): boolean;
  registering(form: string, fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown;
  /** Where each `validate/configuration` predicate was declared (`file:line:col`). */
  validatorLocs: Map<object, string>;
}

/**
 * Binds the schema helpers, `refuse`, `guard/retry`, `configuration` and the registration
 * forms (`guard/<point>`, `hook/<point>`, `define/tool`, `define/reducer`, `define/method`,
 * `subscribe`, `validate/configuration`) as host primitives of the program's interpreter.
 */
function defineForms(interp: Interpreter, c: FormsContext, configuration: unknown): void {
  const validatorLocs = c.validatorLocs;
  const { regs, guardForms, st, here, isProcedure, registering } = c;
  for (const [name, value] of Object.entries(schemaBindings())) {
    if (typeof value === "function") interp.definePrimitive(name, value as () => unknown);
    else interp.define(name, value);
  }
  interp.definePrimitive("refuse", { fn: (why) => refusal(why), minArgs: 1, maxArgs: 1 });
  interp.definePrimitive("guard/retry", { fn: (why) => retry(why), minArgs: 0, maxArgs: 1 });
  interp.definePrimitive("configuration", {
    fn: () => fromJson((configuration ?? {}) as Json),
    maxArgs: 0,
  });
  for (const point of POINTS as readonly BehaviorPoint[]) {
    interp.definePrimitive(
      `guard/${point}`,
      registering(`guard/${point}`, (...args) => {
        const g = parseGuard(point, args, isProcedure, here(), ++st.seq);
        if (regs.guards.some((x) => x.id === g.id)) {
          throw new TypeError(`guard/${point}: a guard with :id ${g.id} is already declared`);
        }
        regs.guards.push(g);
        guardForms.set(g, st.currentIndex);
      }),
    );
    interp.definePrimitive(
      `hook/${point}`,
      registering(`hook/${point}`, (...args) => {
        regs.hooks.push(parseHook(point, args, isProcedure, here(), ++st.seq));
      }),
    );
  }
  interp.definePrimitive(
    "define/tool",
    registering("define/tool", (...args) => {
      const t = parseTool(args, isProcedure, here());
      if (regs.tools.some((x) => x.name === t.name)) {
        throw new TypeError(`define/tool: ${t.name} is already defined`);
      }
      regs.tools.push(t);
      if (t.kind !== "tool") interp.define(t.name, t.handler);
    }),
  );
  const noJsonParse = (form: string) => {
    if (write(st.currentForm).includes("JSON.parse")) {
      throw new TypeError(
        `${form}: the handler's source contains JSON.parse; schema repair is host work ` +
          "(declare :input/:output schemas instead)",
      );
    }
  };
  interp.definePrimitive(
    "define/reducer",
    registering("define/reducer", (...args) => {
      if (regs.reducer) {
        throw new TypeError(
          `define/reducer: a second reducer in the module (the first is at ${regs.reducer.loc})`,
        );
      }
      noJsonParse("define/reducer");
      regs.reducer = parseReducer(args, isProcedure, here());
    }),
  );
  interp.definePrimitive(
    "define/method",
    registering("define/method", (...args) => {
      noJsonParse("define/method");
      const m = parseMethod(args, isProcedure, here());
      if (regs.methods.some((x) => x.name === m.name)) {
        throw new TypeError(`define/method: ${m.name} is already defined`);
      }
      regs.methods.push(m);
    }),
  );
  interp.definePrimitive(
    "subscribe",
    registering("subscribe", (...args) => {
      regs.subscribers.push(parseSubscriber(args, isProcedure, here()));
    }),
  );
  interp.definePrimitive(
    "validate/configuration",
    registering("validate/configuration", (pred: unknown) => {
      if (!isProcedure(pred)) {
        throw new TypeError("validate/configuration: expected a predicate procedure");
      }
      regs.validators.push(pred);
      validatorLocs.set(pred as object, here());
    }),
  );
}

/** What a reader error means and what was expected instead. */
const READ_HINTS: [RegExp, string][] = [
  [
    /^unexpected end of input in list/,
    "this list is never closed: expected ')' before the end of the file",
  ],
  [/^mismatched parenthesis/, "this bracket does not close the list it ends (expected ')')"],
  [/^unexpected '\)'/, "a ')' with no open list: expected a datum or the end of the file"],
  [/^unterminated string/, "this string is never closed: expected '\"'"],
  [/^unterminated block comment/, "this #| comment is never closed: expected '|#'"],
  [/^unexpected end of input/, "the file ends inside a datum: expected the rest of it"],
];

/** A reader error as a load error at the place it names, saying what was expected. */
function readErrorOf(err: unknown, file: string): LoadError {
  const msg = (err as Error).message;
  const loc = err instanceof ReadError && err.loc ? formatLoc(err.loc) : file;
  const hint = READ_HINTS.find(([re]) => re.test(msg))?.[1];
  return new LoadError(`cannot read the program: ${hint ? `${hint} (${msg})` : msg}`, loc);
}

/** A failure of one top-level form as a load error at its location. */
function loadErrorOf(err: unknown, form: unknown, file: string): LoadError {
  if (err instanceof LoadError) return err;
  const loc = formatLoc(locations.get(form as object)) === "?"
    ? file
    : formatLoc(locations.get(form as object));
  if (err instanceof SchemeLimitError) {
    return new LoadError(`loading stopped by the sandbox (${err.kind}): ${err.message}`, loc);
  }
  const msg = err instanceof SchemeError
    ? err.message.replace(/^host error: /, "")
    : (err as Error).message;
  return new LoadError(msg, loc);
}

/** What a loaded module must be: a method needs a reducer; a state module only a state. */
function checkModule(regs: Registrations, kind: LoadOptions["kind"], entry: string): void {
  if (regs.methods.length > 0 && !regs.reducer) {
    throw new LoadError(
      "define/method needs a state: declare its define/reducer in the module",
      regs.methods[0].loc,
    );
  }
  if (kind === "state") {
    if (!regs.reducer) {
      throw new LoadError("a state module defines one reducer (define/reducer)", entry);
    }
    const other = [...regs.guards, ...regs.hooks, ...regs.tools, ...regs.subscribers][0];
    if (other || regs.validators.length) {
      throw new LoadError(
        "a state module registers define/reducer and define/method only (guards, hooks, " +
          "tools and subscribers belong to a bot's program)",
        other?.loc ?? entry,
      );
    }
  }
}

/** Each guard with its consent hash and the index of its top-level form. */
async function hashedGuards(
  decls: GuardDecl[],
  guardForms: Map<GuardDecl, number>,
  forms: ProgramForm[],
  configuration: Json | undefined,
): Promise<HashedGuard[]> {
  const declared = decls.map((decl) => ({ decl, form: guardForms.get(decl)! }));
  const hashes = await consentHashes(forms, declared, configuration ?? {});
  return declared.map((g, i) => ({ ...g.decl, hash: hashes[i], form: g.form }));
}

/** True for a Scheme dict (what JSON objects become). */
export function isDict(v: unknown): v is Dict {
  return v instanceof Dict;
}
