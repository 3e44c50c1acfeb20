/**
 * The environment every interpreter starts from: the base environment shared by all of them
 * (stateless primitives, derived forms, the prelude, defined lazily on first use), the
 * libraries compiled on first import, evaluation of forms in an environment, and the hooks the
 * runtime calls back into (applying keywords and parameters, naming procedures in print).
 *
 * @module
 */
import {
  applyHooks,
  arityError,
  bindingKey,
  callBody,
  Capture,
  CaseLambda,
  Cell,
  Closure,
  Continuation,
  DEFAULT_LIMITS,
  Environment,
  EOF,
  internSourceSymbols,
  Keyword,
  KF,
  LazyDefinition,
  lazyHooks,
  Parameter,
  paramValue,
  Prim,
  printHooks,
  R,
  Reader,
  Run,
  schemeError,
  setState,
  splitDefinitions,
  State,
  Suspend,
  type Sym,
  UNBOUND,
} from "../base/mod.ts";
import { compileToplevel, initCompiler, installDerivedForms, SPECIALS } from "../compile/mod.ts";
import {
  LAZY,
  type LazyLibrary,
  libraryHooks,
  LOCAL_PRELUDE,
  PRELUDE,
  TEST_LIBRARY,
} from "../lib/mod.ts";
import {
  dictRef,
  installControl,
  installDict,
  installHashTables,
  installLists,
  installNumbers,
  installStrings,
  installVectors,
  type PrimTable,
} from "../primitives/mod.ts";

initCompiler(SPECIALS.get("lambda")!, SPECIALS.get("letrec")!);

applyHooks.other = (fn, args) => {
  if (fn instanceof Keyword) {
    if (args.length < 1 || args.length > 2) arityError(":" + fn.name, args.length);
    return dictRef(args[0], fn, args[1]);
  }
  if (fn instanceof Parameter) {
    if (args.length !== 0) arityError("parameter", args.length);
    return paramValue(fn, fn.value);
  }
  throw schemeError("type", "not a procedure:", [fn]);
};

printHooks.procName = (x) => {
  if (x instanceof Closure) return `#<procedure ${x.lam.name}>`;
  if (x instanceof Prim) return `#<procedure ${x.name}>`;
  if (x instanceof CaseLambda) return `#<procedure ${x.name}>`;
  if (x instanceof Continuation) return "#<continuation>";
  if (typeof x === "object" && x && x.constructor?.name === "Port") return "#<port>";
  return null;
};

let baseEnv: Environment | null = null;

/** Installs the stateless primitives straight into `env` (no table in between). */
function installStateless(env: Environment): void {
  const t: PrimTable = { set: (name, p) => setPrim(env, name, p) };
  installLists(t);
  installNumbers(t);
  installStrings(t);
  installVectors(t);
  installControl(t);
  installDict(t);
}

function buildBase(): Environment {
  const env = new Environment(null, "base");
  // forEach, not for…of: no iterator result and entry array per binding (fewer objects for the
  // first collection, which often comes during start-up, to look at)
  SPECIALS.forEach((sp, name) => env.table.set(bindingKey(name), sp));
  installDerivedForms(env);
  installStateless(env);
  installLazy(env, PRELUDE_DEFINITIONS);
  return env;
}

const PRELUDE_DEFINITIONS = splitDefinitions(PRELUDE);
export const LOCAL_DEFINITIONS = splitDefinitions(LOCAL_PRELUDE);
internSourceSymbols(PRELUDE);
internSourceSymbols(LOCAL_PRELUDE);
internSourceSymbols(TEST_LIBRARY);

/** Binds the standard name `name` to primitive `p` in `env`. */
export function setPrim(env: Environment, name: string, p: unknown): void {
  const k = bindingKey(name);
  env.table.set(k, new Cell(p, k));
}

/** Installs each definition of `defs` in `env` as a {@link LazyDefinition}. */
export function installLazy(env: Environment, defs: Map<string, string>): void {
  defs.forEach((src, name) => {
    const k = bindingKey(name);
    env.table.set(k, new Cell(new LazyDefinition(src, env), k));
  });
}

/** Runs `thunk` under a fresh state with generous limits (library code, not the program's). */
function asLibrary<T>(thunk: () => T): T {
  const st = new State();
  st.reset({ ...DEFAULT_LIMITS, timeoutMs: 60_000 });
  const prev = R;
  setState(st);
  try {
    const r = new Run().run(thunk);
    if (r instanceof Suspend) throw schemeError("error", "library code suspended");
    return r as T;
  } finally {
    setState(prev);
  }
}

lazyHooks.force = (cell) => {
  const def = cell.value as LazyDefinition;
  const home = def.home.table.get(cell.name) as Cell;
  if (home.value instanceof LazyDefinition) {
    home.value = UNBOUND; // the definition may refer to itself
    try {
      asLibrary(() =>
        evalDatum(new Reader(def.source, "<prelude>", { internal: true }).read(), def.home)
      );
    } catch (e) {
      home.value = def;
      throw e;
    }
  }
  cell.value = home.value;
};

const libraryExports = new Map<LazyLibrary, Map<Sym, unknown>>();
/** Compiles a lazy library once per process (in a copy of the base environment). */
function loadLibrary(name: string): Map<Sym, unknown> {
  const lib = LAZY[name];
  let exports = libraryExports.get(lib);
  if (exports) return exports;
  const env = copyEnv(baseEnv!, `library ${name}`);

  if (lib.hashTables) {
    const t = new Map<string, Prim>();
    installHashTables(t);
    for (const [n, p] of t) env.table.set(bindingKey(n), new Cell(p, bindingKey(n)));
  }
  asLibrary(() => evalForms(new Reader(lib.source, `<library ${name}>`, { internal: true }), env));
  exports = new Map();
  for (const [k, v] of env.table) {
    if (env.inherited.has(k)) continue;
    const hidden = k.name.startsWith("%") && k === bindingKey(k.name);
    if (v instanceof Cell && !hidden) exports.set(k, v.value);
  }
  libraryExports.set(lib, exports);
  return exports;
}
libraryHooks.load = loadLibrary;

/** A new environment inheriting (lazily, see {@link Environment.get}) from `from`. */
export function copyEnv(from: Environment, name: string): Environment {
  return new Environment(from, name);
}

/** Evaluates all data from `reader` as top-level forms in `env` (resumable). */
export function evalForms(reader: Reader, env: Environment): unknown {
  let last: unknown = undefined;
  const step = (): unknown => {
    for (;;) {
      const d = reader.read();
      if (d === EOF) return last;
      const { node, size } = compileToplevel(d, env);
      const frame = new Array(size);
      frame[0] = null;
      try {
        last = callBody(node, frame);
      } catch (e) {
        if (e instanceof Capture) {
          e.frames.push(
            new KF((v) => {
              last = v;
              return step();
            }),
          );
        }
        throw e;
      }
    }
  };
  return step();
}

/** Evaluates one datum as a top-level form in `env`. */
export function evalDatum(d: unknown, env: Environment): unknown {
  const { node, size } = compileToplevel(d, env);
  const frame = new Array(size);
  frame[0] = null;
  return callBody(node, frame);
}

/** The shared base environment, built by the first interpreter. */
export function sharedBase(): Environment {
  return baseEnv ??= buildBase();
}
