/**
 * The Scheme library behavior packs are written against (seed 000 §3–§4):
 * the registration forms (`define/tool`, `guard/*`, `hook/*`,
 * `define/reducer`, `define/method`, `subscribe`, `require`,
 * `validate/configuration`), `refuse`, `guard/retry`, the `z/` schema
 * constructors, and the program loader that checks them.
 *
 * @module
 */
export * from "./forms.ts";
export * from "./program.ts";
export * from "./outcome.ts";
export * from "./schema.ts";
export * from "./seam.ts";
export * from "./loader.ts";
export * from "./runtime.ts";
export * from "./state_module.ts";
export * from "./commands.ts";
export * from "./consent_hash.ts";
