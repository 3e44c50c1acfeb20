/**
 * The foundation of the Scheme: its values and types, errors and limits, the
 * runtime state (fuel, deadline, memory), the numeric tower, the reader and
 * the printer. The primitives and the compiler build on it; it imports
 * nothing else of `scheme/`.
 *
 * @module
 */
export * from "./types.ts";
export * from "./errors.ts";
export * from "./procedures.ts";
export * from "./state.ts";
export * from "./apply.ts";
export * from "./dynamic.ts";
export * from "./driver.ts";
export * from "./numbers.ts";
export * from "./number_functions.ts";
export * from "./number_syntax.ts";
export * from "./printer.ts";
export * from "./reader.ts";
