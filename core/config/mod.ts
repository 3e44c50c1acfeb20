/**
 * The `HARNESS_*` settings, parsed once into a typed {@link HarnessConfig}.
 *
 * @module
 */
export * from "./config.ts";
