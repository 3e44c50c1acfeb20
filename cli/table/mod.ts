/**
 * The built-in commands' table (name, usage, description, module) and the help printed
 * from it, which an entry may print before anything else loads.
 *
 * @module
 */
export * from "./command_table.ts";
export { builtinHelpAnswer, writeStdout } from "./early_help.ts";
