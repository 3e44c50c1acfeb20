/**
 * The process context (R7RS 6.14) and time (`(scheme time)`), answered from what the host grants:
 * a command line and an environment view (empty by default), and a clock (none by default:
 * `current-jiffy` and `current-second` raise until the host passes one). `exit` ends the
 * evaluation with a {@link SchemeExit} the host reads.
 *
 * @module
 */
import { Flo, NIL, Pair, schemeError, SchemeExit } from "../base/mod.ts";
import { def, type PrimTable, str } from "./util.ts";

/** What the host grants the process-context and time procedures. */
export interface ProcessContext {
  /** `(command-line)`: the program name then its arguments (default: empty list). */
  commandLine?: string[];
  /** `(get-environment-variables)`: the variables visible to the program (default: none). */
  environment?: Record<string, string>;
}

/** A clock: milliseconds since the Unix epoch (fractional allowed, e.g. performance-based). */
export type Clock = () => number;

function exitCode(x: unknown): number {
  if (x === undefined || x === true) return 0;
  if (x === false) return 1;
  if (typeof x === "number" && Number.isInteger(x)) return x & 255;
  return 1;
}

/** Installs `command-line`, `get-environment-variable(s)`, `exit`, and the time procedures. */
export function installProcess(t: PrimTable, ctx: ProcessContext, clock?: Clock): void {
  const args = ctx.commandLine ?? [];
  const env = Object.entries(ctx.environment ?? {});
  def(t, "command-line", 0, 0, () => {
    let r: unknown = NIL;
    for (let i = args.length - 1; i >= 0; i--) r = new Pair(args[i], r);
    return r;
  });
  def(t, "get-environment-variables", 0, 0, () => {
    let r: unknown = NIL;
    for (let i = env.length - 1; i >= 0; i--) r = new Pair(new Pair(env[i][0], env[i][1]), r);
    return r;
  });
  def(t, "get-environment-variable", 1, 1, (name) => {
    const n = str("get-environment-variable", name);
    const e = env.find(([k]) => k === n);
    return e ? e[1] : false;
  });
  def(t, "exit", 0, 1, (x) => {
    throw new SchemeExit(exitCode(x), false);
  });
  def(t, "emergency-exit", 0, 1, (x) => {
    throw new SchemeExit(exitCode(x), true);
  });
  const noClock = (name: string) => (): never => {
    throw schemeError("error", `${name}: no clock granted by the host`);
  };
  // jiffies are microseconds from the first reading, so they stay exact small integers
  let origin: number | undefined;
  def(
    t,
    "current-jiffy",
    0,
    0,
    clock
      ? () => {
        const now = clock();
        origin ??= now;
        return Math.round((now - origin) * 1000);
      }
      : noClock("current-jiffy"),
  );
  def(t, "jiffies-per-second", 0, 0, () => 1_000_000);
  def(
    t,
    "current-second",
    0,
    0,
    clock ? () => new Flo(clock() / 1000) : noClock("current-second"),
  );
}
