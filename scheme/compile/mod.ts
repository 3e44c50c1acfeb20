/**
 * The compiler: macro expansion (`syntax-rules`, the derived forms), the syntactic
 * environment, literals, and the translation of expanded S-expressions into tree nodes
 * (scheme/nodes/) over lexically addressed frames.
 *
 * @module
 */
export { initCompiler } from "./compiler.ts";
export { compileToplevel } from "./toplevel.ts";
export { SPECIALS } from "./syntax.ts";
export { installDerivedForms } from "./expander.ts";
