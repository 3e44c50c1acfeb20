/** The harness version (also `HARNESS_VERSION`). */
export const VERSION = "0.1.0";
