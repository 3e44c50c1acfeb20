/**
 * Executable tools (PROTOCOLS "Tools"): `--schema` (cached), `--describe`,
 * `--exec`.
 *
 * @module
 */
export * from "./executable_tools.ts";
