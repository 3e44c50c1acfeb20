/**
 * `hs packs test`'s parts: the test script and session cassettes, the cassette provider, the
 * seam tracer and the expectations.
 *
 * @module
 */
export * from "./script.ts";
export * from "./provider.ts";
export * from "./trace.ts";
export * from "./expect.ts";
