/**
 * A guard's or hook's runtime error, reported (issue 27 point 5): the seam refuses the call
 * (a guard fails closed) or collects the error (a hook fails open), and the program's log —
 * HARNESS_LOG, prefixed with the pack and bot — gets the error with its Scheme backtrace, one
 * `  at name (file:line:col)` line per frame. `hs packs log` lists these entries.
 *
 * @module
 */
import type { Guard, Hook } from "../core/mod.ts";
import { SchemeError } from "../scheme/mod.ts";

/** The first line every reported failure starts with (after the `[pack …]` prefix). */
export const FAILED = " failed: ";

/** A failure as log text: `<what> failed: <message>` and the backtrace, innermost first. */
export function failureReport(what: string, err: unknown): string {
  const first = `${what}${FAILED}${(err as Error)?.message ?? String(err)}`;
  // the error's own place, then one line per active call: `  at name (file:line:col)`
  return err instanceof SchemeError
    ? [first, ...err.report().split("\n").slice(1)].join("\n")
    : first;
}

/** True for a failure of the program itself (not the chain's own control flow). */
function programFailure(err: unknown): boolean {
  return err instanceof SchemeError || err instanceof TypeError;
}

/** Runs `fn`; a program failure is logged, then rethrown for the seam to handle. */
async function reporting<T>(
  what: string,
  log: (t: string) => void,
  fn: () => Promise<T> | T,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (programFailure(err)) log(failureReport(what, err));
    throw err;
  }
}

/** A guard whose middleware's failures are logged with their backtrace. */
export function reportedGuard(g: Guard, what: string, log: (t: string) => void): Guard {
  return {
    ...g,
    middleware: (raw, invoke, call) => reporting(what, log, () => g.middleware(raw, invoke, call)),
  };
}

/** A hook whose callbacks' failures are logged with their backtrace. */
export function reportedHook(h: Hook, what: string, log: (t: string) => void): Hook {
  const { pre, post, postFail } = h;
  return {
    ...h,
    pre: pre && ((value, call) => reporting(`${what} :pre`, log, () => pre(value, call))),
    post: post &&
      ((value, result, call) => reporting(`${what} :post`, log, () => post(value, result, call))),
    postFail: postFail &&
      ((value, failure, call) =>
        reporting(`${what} :post-fail`, log, () => postFail(value, failure, call))),
  };
}
