/**
 * Which top-level forms of a program a form can reach, read from the program's data before
 * (and without) expanding it: what each top-level form defines, assigns (`set!`) and mentions,
 * and the closure of a set of root forms over those facts.
 *
 * The analysis over-approximates, never under: a form "mentions" every symbol in it, quoted
 * data and local names included (a local that shadows a global pulls the global in), so an
 * edit of anything the roots can call is seen. A form is reached when it
 * - defines a reached name (every definition of it, in every file, in load order),
 * - or may change one: it assigns it (`set!` anywhere in it, a callback's body included), or
 *   mentions it while it is bound to a value other than a procedure literal (it may mutate the
 *   value: `vector-set!` on a shared table, …) — itself or through a definition it calls,
 *   transitively (a top-level `(swap!)` whose definition `set!`s a reached helper).
 * A top-level use of a macro the program defines may define anything: it is taken to define
 * every symbol it mentions. When a reached form mentions a name that evaluates data as code
 * (`eval`, `interaction-environment` by default), every form is reached.
 *
 * @module
 */
import { Pair, Sym } from "../base/mod.ts";

/** How a top-level name is bound: to a procedure literal or macro (fixed unless assigned), or to a value. */
export type Binding = "procedure" | "value";

/** What one top-level form does to the global environment, as read. */
export interface TopLevelFacts {
  /** Names it binds at the top level. */
  defines: Map<string, Binding>;
  /** Names it assigns (`set!` anywhere in it). */
  assigns: Set<string>;
  /** Every symbol it mentions. */
  mentions: Set<string>;
  /** True when some pair, vector or dict occurs twice in it (datum labels: maybe a cycle). */
  shared: boolean;
}

/** Options of {@link topLevelFacts} and {@link reachableForms}. */
export interface ReachOptions {
  /** Macros the program defines (a top-level use may define anything). */
  macros?: ReadonlySet<string>;
  /**
   * Forms that bind their first argument, a quoted name, globally: `(define/tool 'name …)`.
   * The binding is a procedure.
   */
  quotedDefiners?: ReadonlySet<string>;
  /** Names that reach every global (default: `eval`, `interaction-environment`). */
  dynamic?: ReadonlySet<string>;
}

/** The forms reached, and whether a dynamic name made it every form. */
export interface Reach {
  /** Indices of the reached forms, ascending (load order). */
  forms: number[];
  /** Every symbol the reached forms mention. */
  mentions: Set<string>;
  /** True when a reached form mentions a dynamic name (every form is reached). */
  dynamic: boolean;
}

const DYNAMIC: ReadonlySet<string> = new Set(["eval", "interaction-environment"]);
const PROCEDURE_HEADS = new Set(["lambda", "case-lambda", "named-lambda"]);

function headOf(d: unknown): string | undefined {
  return d instanceof Pair && d.car instanceof Sym ? d.car.name : undefined;
}

function second(p: Pair): unknown {
  return p.cdr instanceof Pair ? p.cdr.car : undefined;
}

function third(p: Pair): unknown {
  return p.cdr instanceof Pair && p.cdr.cdr instanceof Pair ? p.cdr.cdr.car : undefined;
}

/**
 * Walks a datum (pairs, vectors, dicts), calling `visit` on every pair and symbol once; true
 * when some object occurs twice.
 */
function walk(datum: unknown, visit: (d: Pair | Sym) => void): boolean {
  const seen = new Set<object>();
  let shared = false;
  const stack: object[] = [];
  const push = (x: unknown) => {
    if (x instanceof Sym) visit(x);
    else if (typeof x === "object" && x !== null) stack.push(x);
  };
  push(datum);
  while (stack.length) {
    let d: unknown = stack.pop()!;
    // a list is walked along its spine: its elements are pushed, its pairs visited here
    while (d instanceof Pair) {
      if (seen.has(d)) {
        shared = true;
        break;
      }
      seen.add(d);
      visit(d);
      push(d.car);
      d = d.cdr;
    }
    if (d instanceof Pair || typeof d !== "object" || d === null) {
      if (d instanceof Sym) visit(d);
      continue;
    }
    // containers only: atoms (the empty list, keywords, characters) are often one object
    const items = Array.isArray(d)
      ? d
      : d instanceof Map
      ? [...d.values()]
      : "map" in d && (d as { map: unknown }).map instanceof Map
      ? [...(d as { map: Map<string, unknown> }).map.values()]
      : undefined;
    if (!items) continue;
    if (seen.has(d)) {
      shared = true;
      continue;
    }
    seen.add(d);
    for (const x of items) push(x);
  }
  return shared;
}

/** The name a `(define (name …) …)` header defines (curried headers included). */
function headerName(h: unknown): string | undefined {
  while (h instanceof Pair) h = h.car;
  return h instanceof Sym ? h.name : undefined;
}

/** The top-level bindings of one form into `out`. */
function collectDefines(
  form: unknown,
  opts: ReachOptions,
  mentions: Set<string>,
  out: Map<string, Binding>,
): void {
  const head = headOf(form);
  if (!head) return;
  const p = form as Pair;
  const bind = (name: string | undefined, b: Binding) => {
    if (name === undefined) return;
    // a name bound twice by one form is a value unless every binding is a procedure
    out.set(name, out.get(name) === "value" ? "value" : b);
  };
  if (head === "begin") {
    for (let x = p.cdr; x instanceof Pair; x = x.cdr) collectDefines(x.car, opts, mentions, out);
  } else if (head === "define") {
    const target = second(p);
    if (target instanceof Sym) {
      const value = headOf(third(p));
      bind(target.name, value && PROCEDURE_HEADS.has(value) ? "procedure" : "value");
    } else bind(headerName(target), "procedure");
  } else if (head === "define-syntax" || head === "define-macro") {
    bind(headerName(second(p)), "procedure");
  } else if (head === "define-record-type") {
    walk(p.cdr, (d) => d instanceof Sym && bind(d.name, "procedure"));
  } else if (head === "define-values") {
    walk(second(p), (d) => d instanceof Sym && bind(d.name, "value"));
  } else if (opts.quotedDefiners?.has(head)) {
    const q = second(p);
    if (headOf(q) === "quote" && second(q as Pair) instanceof Sym) {
      bind((second(q as Pair) as Sym).name, "procedure");
    }
  } else if (opts.macros?.has(head)) {
    for (const m of mentions) bind(m, "value");
  }
}

/** What a top-level form defines, assigns and mentions. */
export function topLevelFacts(form: unknown, opts: ReachOptions = {}): TopLevelFacts {
  const mentions = new Set<string>();
  const assigns = new Set<string>();
  const shared = walk(form, (d) => {
    if (d instanceof Sym) mentions.add(d.name);
    else if (headOf(d) === "set!" && second(d) instanceof Sym) assigns.add((second(d) as Sym).name);
  });
  const defines = new Map<string, Binding>();
  collectDefines(form, opts, mentions, defines);
  return { defines, assigns, mentions, shared };
}

function add(m: Map<string, number[]>, k: string, i: number): void {
  const l = m.get(k);
  if (l) l.push(i);
  else m.set(k, [i]);
}

/** The macros a program's top-level forms define (`define-syntax`, `define-macro`). */
function macrosOf(forms: unknown[]): Set<string> {
  const out = new Set<string>();
  const visit = (f: unknown) => {
    const head = headOf(f);
    if (head === "begin") {
      for (let x = (f as Pair).cdr; x instanceof Pair; x = x.cdr) visit(x.car);
    } else if (head === "define-syntax" || head === "define-macro") {
      const n = headerName(second(f as Pair));
      if (n) out.add(n);
    }
  };
  forms.forEach(visit);
  return out;
}

/**
 * The facts of a program's top-level forms (in load order), indexed by name: who defines,
 * assigns and mentions each. Built once, asked {@link ProgramFacts.reach} for many roots.
 */
export class ProgramFacts {
  #facts: TopLevelFacts[];
  #definers = new Map<string, number[]>();
  /** By name: the forms that may change it (see {@link ProgramFacts.effectsOf}). */
  #changers = new Map<string, number[]>();
  #values = new Set<string>();
  #dynamic: ReadonlySet<string>;

  /** Reads the facts of `forms`, the program's top-level forms in load order. */
  constructor(forms: unknown[], opts: ReachOptions = {}) {
    const o = { ...opts, macros: opts.macros ?? macrosOf(forms) };
    this.#dynamic = opts.dynamic ?? DYNAMIC;
    this.#facts = forms.map((f) => topLevelFacts(f, o));
    this.#facts.forEach((f, i) => {
      for (const [name, b] of f.defines) {
        add(this.#definers, name, i);
        if (b === "value") this.#values.add(name);
      }
    });
    this.#facts.forEach((_, i) => {
      for (const name of this.effectsOf(i)) add(this.#changers, name, i);
    });
  }

  /**
   * The names evaluating form `index` may change: those it or a definition it calls
   * (transitively: every definition of a name it mentions, and theirs) assigns or touches
   * while bound to a value. A top-level `(swap!)` whose definition `set!`s a helper changes
   * the helper.
   */
  effectsOf(index: number): Set<string> {
    const effects = new Set<string>();
    const seen = new Set<number>();
    const names = new Set<string>();
    const forms = [index];
    while (forms.length) {
      const i = forms.pop()!;
      if (seen.has(i)) continue;
      seen.add(i);
      const f = this.#facts[i];
      for (const a of f.assigns) effects.add(a);
      for (const m of f.mentions) {
        if (this.#values.has(m)) effects.add(m);
        if (names.has(m)) continue;
        names.add(m);
        for (const j of this.#definers.get(m) ?? []) forms.push(j);
      }
    }
    return effects;
  }

  /** The facts of the form at `index`. */
  factsOf(index: number): TopLevelFacts {
    return this.#facts[index];
  }

  /**
   * The top-level forms the `roots` (indices into the forms) reach: the roots, every form
   * defining a name a reached form mentions, every form that may change one (its effects) —
   * to a fixed point.
   */
  reach(roots: number[]): Reach {
    const included = new Set<number>();
    const reached = new Set<string>();
    const forms: number[] = [...roots];
    let dynamic = false;
    while (forms.length) {
      const i = forms.pop()!;
      if (included.has(i)) continue;
      included.add(i);
      for (const name of this.#facts[i].mentions) {
        if (reached.has(name)) continue;
        reached.add(name);
        if (this.#dynamic.has(name)) dynamic = true;
        for (const j of this.#definers.get(name) ?? []) forms.push(j);
        for (const j of this.#changers.get(name) ?? []) forms.push(j);
      }
    }
    if (dynamic) {
      for (let i = 0; i < this.#facts.length; i++) {
        if (included.has(i)) continue;
        included.add(i);
        for (const name of this.#facts[i].mentions) reached.add(name);
      }
    }
    return { forms: [...included].sort((a, b) => a - b), mentions: reached, dynamic };
  }
}
