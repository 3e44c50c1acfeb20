/**
 * Core Scheme value representations.
 *
 * Mapping of Scheme values onto JavaScript:
 * - exact integers: JS `number` (safe integers) or `bigint` (outside the safe range);
 * - exact rationals: {@link Ratio}; inexact reals: {@link Flo};
 * - booleans: JS booleans; strings: JS `string` (immutable) or {@link MString} (mutable);
 * - characters: interned {@link Char}; symbols: interned {@link Sym}; keywords: {@link Keyword};
 * - pairs: {@link Pair}; empty list: {@link NIL}; vectors: JS arrays; bytevectors: `Uint8Array`;
 * - JSON null: {@link NULL}; unspecified value: `undefined`.
 *
 * @module
 */

/** A pair (cons cell). */
export class Pair {
  /** Creates a pair. */
  constructor(public car: unknown, public cdr: unknown) {}
}

/** The empty list singleton type. */
export class Nil {
  /** Printed form. */
  toString(): string {
    return "()";
  }
}
/** The empty list. */
export const NIL: Nil = new Nil();

/** An interned symbol. Compare with `===`. */
export class Sym {
  /** Use {@link sym} to obtain interned symbols. */
  constructor(public readonly name: string) {}
  /** The symbol name. */
  toString(): string {
    return this.name;
  }
}
const symtab = new Map<string, Sym>();
/**
 * Returns the process-wide (static) symbol named `name`: the names of the standard library and
 * those a host makes. Programs intern their own symbols in their interpreter's table (see
 * `SymbolTable` in state.ts), which finds the static symbol first, so both agree.
 */
export function sym(name: string): Sym {
  let s = symtab.get(name);
  if (!s) {
    s = new Sym(name);
    symtab.set(name, s);
  }
  return s;
}

const internals = new Map<string, Sym>();
/**
 * The key of an internal binding (`%name`): an uninterned symbol that no program can spell, so
 * the runtime's helpers stay unreachable from Scheme code.
 */
export function internalSym(name: string): Sym {
  let s = internals.get(name);
  if (!s) {
    s = new Sym(name);
    internals.set(name, s);
  }
  return s;
}
/** The binding key for a standard name: internal for `%…` names, static otherwise. */
export function bindingKey(name: string): Sym {
  return name.startsWith("%") ? internalSym(name) : sym(name);
}
let gensymCounter = 0;
/** Returns a fresh uninterned symbol. */
export function gensym(prefix = "g"): Sym {
  return new Sym(`${prefix}${++gensymCounter}`);
}

/** An interned keyword (`:name`). Self-evaluating; calling one on a dict reads that key. */
export class Keyword {
  /** Use {@link keyword} to obtain interned keywords. */
  constructor(public readonly name: string) {}
}
const kwtab = new Map<string, Keyword>();
/** Returns the process-wide interned keyword `:name` (pass the name without the colon). */
export function keyword(name: string): Keyword {
  let k = kwtab.get(name);
  if (!k) {
    k = new Keyword(name);
    kwtab.set(name, k);
  }
  return k;
}

/** Read access to the static tables, for the per-interpreter symbol tables of state.ts. */
export const symbolTableHooks: {
  staticSym: (name: string) => Sym | undefined;
  staticKeyword: (name: string) => Keyword | undefined;
  keyword: (name: string) => Keyword;
} = {
  staticSym: (name) => symtab.get(name) ?? (isLibraryName(name) ? sym(name) : undefined),
  staticKeyword: (name) => kwtab.get(name),
  keyword,
};

/** A Unicode character (one code point). Interned: compare with `===`. */
export class Char {
  /** Use {@link char} to obtain interned characters. */
  constructor(public readonly code: number) {}
}
const chartab = new Map<number, Char>();
/** Returns the interned character with code point `code`. */
export function char(code: number): Char {
  let c = chartab.get(code);
  if (!c) {
    c = new Char(code);
    chartab.set(code, c);
  }
  return c;
}

/** A mutable string (result of `make-string`, `string-copy`, `string`, ...). */
export class MString {
  /** Creates a mutable string holding `s`. */
  constructor(public s: string) {}
  /** The current contents. */
  toString(): string {
    return this.s;
  }
}

/** An exact rational with a denominator > 1 (always normalised). */
export class Ratio {
  /** Use the numeric tower helpers to build ratios. */
  constructor(public readonly num: bigint, public readonly den: bigint) {}
}

/** An inexact real number. */
export class Flo {
  /** Wraps a JS double. */
  constructor(public readonly v: number) {}
}

/**
 * A non-real complex number: rectangular parts, each an exact or inexact real. Complex numbers
 * whose imaginary part is an exact zero are reals and never built.
 */
export class Complex {
  /** Use `makeRect` (complex.ts) to build complex numbers. */
  constructor(
    public readonly re: number | bigint | Ratio | Flo,
    public readonly im: number | bigint | Ratio | Flo,
  ) {}
}

/** Multiple values (anything but exactly one value). */
export class Values {
  /** Wraps the list of values. */
  constructor(public readonly vals: unknown[]) {}
}

/** The JSON `null` value (distinct from the empty list and from #f). */
export class JsonNull {
  /** Printed form. */
  toString(): string {
    return "null";
  }
}
/** The JSON `null` singleton. */
export const NULL: JsonNull = new JsonNull();

/** The end-of-file object type. */
export class Eof {}
/** The end-of-file object. */
export const EOF: Eof = new Eof();

/** An ordered, immutable, string-keyed map. */
export class Dict {
  /** Wraps a map (never mutated after construction). */
  constructor(public readonly map: Map<string, unknown>) {}
}

/** A record type descriptor created by `define-record-type`. */
export class RecordType {
  /** Creates a record type. */
  constructor(public readonly name: string, public readonly fields: string[]) {}
}

/** A record instance. */
export class Record {
  /** Creates a record instance. */
  constructor(public readonly type: RecordType, public readonly fields: unknown[]) {}
}

/** A promise created by `delay`, `delay-force` or `make-promise`. */
export class SPromise {
  /** `box` is shared between chained promises (R7RS reference semantics). */
  constructor(public box: { done: boolean; value: unknown }) {}
}

/** A parameter object created by `make-parameter`. */
export class Parameter {
  /** Creates a parameter with an initial value and optional converter. */
  constructor(public value: unknown, public readonly converter: unknown) {}
}

/** An environment specifier (for `eval`): a table of global bindings. */
export class Environment {
  /** Name → binding (a {@link Cell} for variables, or a syntax object). */
  readonly table: Map<Sym, unknown> = new Map();
  /** Keys copied from the parent on first use (not defined here). */
  readonly inherited: Set<Sym> = new Set();
  /**
   * Creates an environment that inherits the bindings of `parent` lazily: a binding is copied
   * (a variable gets its own cell) the first time it is looked up, so creating an environment
   * costs nothing and redefining a name never reaches the parent.
   */
  constructor(public readonly parent: Environment | null = null, public readonly name = "env") {}

  /** The binding of `key` here, copying it from the parent on first use. */
  get(key: Sym): unknown {
    let v = this.table.get(key);
    if (v === undefined && this.parent !== null) {
      const pv = this.parent.get(key);
      if (pv !== undefined) {
        v = pv instanceof Cell ? new Cell(pv.value, key) : pv;
        this.table.set(key, v);
        this.inherited.add(key);
      }
    }
    return v;
  }
}

/** A global variable cell. */
export class Cell {
  /** Creates a cell; `value` is {@link UNBOUND} until defined. */
  constructor(public value: unknown, public readonly name: Sym) {}
}
/** Marker for an unbound global cell. */
export const UNBOUND: unique symbol = Symbol("unbound");

/**
 * The value of a global whose definition (library Scheme source) is compiled on first
 * reference: start-up compiles nothing a program does not use. `home` is the environment the
 * definition belongs to; copies of that environment force it there and copy the value.
 */
export class LazyDefinition {
  /** Creates a lazy definition of `source` (one `(define …)` form) in `home`. */
  constructor(public readonly source: string, public readonly home: Environment) {}
}

/** Hook set by interpreter.ts: compiles the lazy definition held by `cell`, sets its value. */
export const lazyHooks: { force: (cell: Cell) => void } = { force: () => {} };

/** Library source whose identifiers have not been collected yet (see {@link internSourceSymbols}). */
const librarySources: string[] = [];
/** The identifiers of library source collected so far. */
const libraryNames = new Set<string>();
/** The pending library source as one text, for {@link occursAsToken} (built on first use). */
let pendingText = "";
/** Misses answered by searching the text; after {@link SEARCHES} the identifiers are collected. */
let searches = 0;
const SEARCHES = 64;

/**
 * Makes every identifier of library source a static symbol, so data and names a program reads
 * before the library's code is compiled (lazily) are the same symbols the library uses. The
 * source is only remembered here (start-up makes no symbol a program does not use): a name a
 * program interns that is not a static symbol yet is looked for in the source, and becomes one
 * if it occurs there.
 */
export function internSourceSymbols(source: string): void {
  librarySources.push(source);
  pendingText = "";
}

/**
 * True when `name` occurs in the library source given to {@link internSourceSymbols}. A
 * program's first {@link SEARCHES} new names are searched for in the text as whole tokens (a few
 * microseconds each: a small program never pays for collecting ~400 identifiers, ~3 ms cold);
 * after that the identifiers are collected once and looked up. The search may also find a name
 * in a comment or a string: it then becomes a static symbol too, which changes nothing a
 * program sees, and such names are a fixed, small set (whole tokens of the library text).
 */
function isLibraryName(name: string): boolean {
  if (librarySources.length === 0) return libraryNames.has(name);
  if (searches < SEARCHES) {
    searches++;
    if (libraryNames.has(name)) return true;
    pendingText ||= librarySources.join("\n");
    return occursAsToken(pendingText, name);
  }
  while (librarySources.length > 0) collectIdentifiers(librarySources.pop()!, libraryNames);
  pendingText = "";
  return libraryNames.has(name);
}

/** True when `name` occurs in `text` between delimiters (a whole token). */
function occursAsToken(text: string, name: string): boolean {
  if (name.length === 0) return false;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const end = i + name.length;
    if (
      (i === 0 || DELIMITER[text.charCodeAt(i - 1)] === 1) &&
      (end === text.length || DELIMITER[text.charCodeAt(end)] === 1)
    ) return true;
  }
  return false;
}

/** Adds the identifiers of `source` to `out` (not %internal, #syntax, :keywords or numbers). */
function collectIdentifiers(source: string, out: Set<string>): void {
  const n = source.length;
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (DELIMITER[c] === 1) {
      if (c === 34) { // skip a string literal
        i++;
        while (i < n && source.charCodeAt(i) !== 34) i += source.charCodeAt(i) === 92 ? 2 : 1;
      } else if (c === 59) { // skip a comment
        while (i < n && source.charCodeAt(i) !== 10) i++;
      }
      i++;
      continue;
    }
    const start = i;
    while (i < n && DELIMITER[source.charCodeAt(i)] !== 1) i++;
    if (c !== 37 && c !== 35 && c !== 58 && !(c >= 48 && c <= 57) && c !== 46) {
      const d = source.charCodeAt(start + 1);
      if (!((c === 43 || c === 45) && d >= 48 && d <= 57)) out.add(source.slice(start, i));
    }
  }
}
const DELIMITER = new Uint8Array(128);
for (const ch of " \t\n\r()'`,\"[];|") DELIMITER[ch.charCodeAt(0)] = 1;

/**
 * Splits library source into its top-level `(define name …)` forms, by name: each starts a line
 * with `(define name` or `(define (name` and runs to the next one. (A scan with `indexOf`, not a
 * regular expression: it runs at every start, when V8 would compile the expression first.)
 */
export function splitDefinitions(source: string): Map<string, string> {
  const out = new Map<string, string>();
  let name = "", from = 0;
  let i = source.startsWith("(define ") ? 0 : source.indexOf("\n(define ");
  while (i >= 0) {
    const at = source.charCodeAt(i) === 10 ? i + 1 : i;
    let j = at + 8;
    if (source.charCodeAt(j) === 40) j++;
    let k = j;
    for (let c = source.charCodeAt(k); k < source.length && c > 32 && c !== 40 && c !== 41;) {
      c = source.charCodeAt(++k);
    }
    if (k > j) {
      if (name) out.set(name, source.slice(from, at));
      name = source.slice(j, k);
      from = at;
    }
    i = source.indexOf("\n(define ", at);
  }
  if (name) out.set(name, source.slice(from));
  return out;
}

/** A source location. */
export interface Loc {
  /** File name as given to the reader. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
}
/** Source locations of pairs read from source text. */
export const locations: WeakMap<object, Loc> = new WeakMap();

/** Formats a location as `file:line:col`. */
export function formatLoc(loc: Loc | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : "?";
}

/** Builds a proper list from an array. */
export function list(...xs: unknown[]): unknown {
  let r: unknown = NIL;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}

/** Builds a list from an array, with an optional tail. */
export function arrayToList(xs: readonly unknown[], tail: unknown = NIL): unknown {
  let r = tail;
  for (let i = xs.length - 1; i >= 0; i--) r = new Pair(xs[i], r);
  return r;
}

/** Immutable bytevectors (literals); pairs and vectors that are literals are frozen instead. */
export const immutableBytes: WeakSet<Uint8Array> = new WeakSet();

/** True if `x` is a literal constant (frozen pair or vector, literal bytevector). */
export function isImmutable(x: object): boolean {
  return x instanceof Uint8Array ? immutableBytes.has(x) : Object.isFrozen(x);
}

/** Converts a proper list to an array; returns null for improper or cyclic lists. */
export function listToArray(x: unknown): unknown[] | null {
  const out: unknown[] = [];
  let slow = x;
  while (x instanceof Pair) {
    out.push(x.car);
    x = x.cdr;
    if (out.length % 2 === 0) {
      slow = (slow as Pair).cdr;
      if (slow === x && x instanceof Pair) return null;
    }
  }
  return x === NIL ? out : null;
}

/** True for JS and mutable strings. */
export function isString(x: unknown): x is string | MString {
  return typeof x === "string" || x instanceof MString;
}
