/**
 * A value built when it is first asked for, then kept: how a room keeps a schema (or any
 * table) it may never use out of its module's evaluation. Every module a run loads is
 * evaluated, so a zod schema at module level is built by every run that loads the module,
 * whether or not it parses anything with it (issue 25: "zod schemas are built when first used").
 *
 * @module
 */

/**
 * `make`, called once on the first call of the returned function; later calls return the same
 * value. A throw from `make` is passed on and the next call tries again.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const settings = firstUse(() => z.object({ name: z.string() }));
 * settings().parse({ name: "x" }); // built here, not when the module loaded
 * ```
 */
export function firstUse<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
