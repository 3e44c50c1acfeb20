/**
 * Syntactic environment objects shared by the compiler and the macro expanders: identifiers
 * renamed by macros ({@link Alias}), macros, special forms and compile-time scopes.
 *
 * @module
 */
import { type Environment, type Loc, locations, Pair, Sym } from "../base/mod.ts";

/** A compile-time lambda scope: counts the slots of its runtime frame. */
export class LamScope {
  /** Next free slot (slot 0 holds the parent frame). */
  size = 1;
  /** The compiler's nesting depth where the lambda's body starts (see `callWeight`). */
  nestBase = 0;
  /** Creates a scope nested in `parent`. */
  constructor(public parent: LamScope | null) {}
}

/** A local variable binding. */
export class VarBinding {
  /** Slot `slot` of frames of `lam`. */
  constructor(public lam: LamScope, public slot: number) {}
}

/** A block of lexical bindings (lambda parameters, let variables, local macros). */
export class Block {
  /** Identifier → binding. */
  vars: Map<Ident, VarBinding | Macro> = new Map();
  /** Creates a block. */
  constructor(public parent: Block | null, public lam: LamScope) {}
}

/** An identifier renamed by a macro expansion. Resolves in the macro definition's scope. */
export class Alias {
  /** Creates an alias for `orig` closed over `block` of `env`. */
  constructor(public orig: Ident, public block: Block | null, public env: Environment | null) {}
}

/** Identifiers: symbols or aliases. */
export type Ident = Sym | Alias;

/** True for identifiers. */
export function isIdent(x: unknown): x is Ident {
  return x instanceof Sym || x instanceof Alias;
}

/** Strips aliases from an identifier. */
export function rootSym(x: Ident): Sym {
  while (x instanceof Alias) x = x.orig;
  return x;
}

/** Compile-time context passed to macro transformers. */
export interface ExpandCtx {
  /** Scope of the macro use. */
  block: Block | null;
  /** Global environment being compiled against. */
  env: Environment;
}

/** A macro: a transformer from form to form. */
export class Macro {
  /** Creates a macro. */
  constructor(public name: string, public expand: (form: Pair, ctx: ExpandCtx) => unknown) {}
}

/** A special form, compiled natively by the compiler. */
export class Special {
  /** Creates a special form marker. */
  constructor(public name: string) {}
}

/** All special forms by name. */
export const SPECIALS: Map<string, Special> = new Map();
for (
  const n of [
    "quote",
    "lambda",
    "define",
    "set!",
    "if",
    "begin",
    "let",
    "letrec",
    "letrec*",
    "define-syntax",
    "let-syntax",
    "letrec-syntax",
    "syntax-rules",
    "case-lambda",
    "named-lambda",
    "%guard",
    "include",
    "define-library",
    "syntax-error",
  ]
) SPECIALS.set(n, new Special(n));

/** Returns the special form named `n`. */
export function SP(n: string): Special {
  return SPECIALS.get(n)!;
}

/** Copies the location of `from` onto pairs of `to` lacking one (shallow spine walk). */
export function inheritLoc(to: unknown, from: unknown): void {
  const loc = locations.get(from as object) as Loc | undefined;
  if (!loc) return;
  let n = 0;
  const walk = (x: unknown, depth: number) => {
    while (x instanceof Pair && n++ < 2000) {
      if (locations.has(x)) return;
      locations.set(x, loc);
      if (depth < 3) walk(x.car, depth + 1);
      x = x.cdr;
    }
  };
  walk(to, 0);
}
