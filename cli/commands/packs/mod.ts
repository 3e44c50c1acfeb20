/**
 * `hs packs`: the pack commands (packs.ts) and `hs packs state …` (state.ts).
 *
 * @module
 */
export { register } from "./packs.ts";
