/**
 * The guard chain and the hook chain of the effect seam, one pair of runners
 * for the dispatcher (a tool call: ceiling → guards → floor → core) and for
 * the boundary seam (a turn or a round starting or ending): guards run in
 * order as middleware around an inner step (fail closed; `guard/retry`
 * restarts the chain from the raw value within {@link RETRY_BUDGET}; a guard
 * is not entered again while it runs beyond its re-entrancy bound), hooks run
 * in parallel (fail open).
 *
 * @module
 */
import { resultText, textResult, type ToolResult } from "../base/mod.ts";
import {
  type EffectCall,
  type Guard,
  type Hook,
  type Invoke,
  type Point,
  type Refusal,
  REPLACE_MARK,
  type Retry,
  RETRY_BUDGET,
} from "./effect.ts";

/**
 * Thrown by a chain's inner step to refuse the whole call (the floor's denial, a fail-closed
 * audit): it passes every guard unchanged — whatever a guard's middleware does with the
 * failed `invoke` — and the chain ends refused with its message.
 */
export class ChainRefused extends Error {}

class RetryRequested extends Error {
  constructor(readonly guard: string, readonly reason: string) {
    super(reason);
  }
}

function isRefusal(v: unknown): v is Refusal {
  return typeof v === "object" && v !== null && (v as Refusal).refused === true;
}

function isRetry(v: unknown): v is Retry {
  return typeof v === "object" && v !== null && (v as Retry).retry === true;
}

/** Same text and error flag (marks aside). */
function sameResult(a: ToolResult, b: ToolResult): boolean {
  return resultText(a) === resultText(b) && (a.isError === true) === (b.isError === true);
}

/** The guards that apply to `call`: those of its point (or `*`) whose host-side match holds. */
export function guardsFor(guards: Guard[], call: EffectCall): Guard[] {
  return guards.filter((g) =>
    (g.point === "*" || g.point === call.point) && (!g.match || g.match(call))
  );
}

/** The hooks that observe `point` (theirs or `*`). */
export function hooksAt(hooks: Hook[], point: Point): Hook[] {
  return hooks.filter((h) => h.point === "*" || h.point === point);
}

/** How a guard chain ended. */
export interface ChainEnd {
  /** The result: the inner step's (through the guards), or a refusal's or failure's text. */
  result: ToolResult;
  /** True when the call was refused past the guards (by the inner step, or the retry budget). */
  refused: boolean;
}

/** A step of the chain: a value in, a result out. */
type Step = (value: unknown) => Promise<ToolResult>;

/**
 * The chains of one effect seam. One instance is shared by the dispatcher and the boundary
 * seam, so that a guard running for one (a `*` guard around an `agent` call) counts as
 * entered for the other (the sub-agent's turn).
 */
export class SeamChains {
  /** Guards running now, with how many times each is entered (re-entrancy bound). */
  #active = new Map<string, number>();
  #onHookError?: (hookId: string, message: string) => void;

  /** Creates the chains; collected hook and guard failures (fail open) go to `onHookError`. */
  constructor(onHookError?: (hookId: string, message: string) => void) {
    this.#onHookError = onHookError;
  }

  /**
   * Runs `guards` in order around `inner`, from `call.input` (again from it on `guard/retry`).
   * Never throws: a guard's refusal or failure is an error result, an inner
   * {@link ChainRefused} or an exhausted retry budget ends the chain refused.
   */
  async guard(guards: Guard[], call: EffectCall, inner: Step): Promise<ChainEnd> {
    // Marks accumulate over the whole call: a guard adds, nobody removes.
    const marks = new Set<string>();
    const withMarks = (r: ToolResult): ToolResult => {
      for (const m of r.marks ?? []) marks.add(m);
      return marks.size ? { ...r, marks: [...marks] } : r;
    };
    // Build the chain from the innermost step outwards.
    let next: Step = async (v) => withMarks(await inner(v));
    for (const g of [...guards].reverse()) next = this.#around(g, next, call, marks, withMarks);
    for (let attempt = 1;; attempt++) {
      try {
        return { result: await next(call.input), refused: false };
      } catch (err) {
        if (err instanceof ChainRefused) {
          return { result: textResult(err.message, true), refused: true };
        }
        if (err instanceof RetryRequested) {
          if (attempt <= RETRY_BUDGET) continue;
          const text = `error: refused by guard ${err.guard}: retry budget of ${RETRY_BUDGET} ` +
            `exhausted (${err.reason})`;
          return { result: textResult(text, true), refused: true };
        }
        const text = `error: tool '${call.tool}' failed: ${(err as Error)?.message ?? err}`;
        return { result: textResult(text, true), refused: false };
      }
    }
  }

  /** Runs `fn` for every hook in parallel; a hook's failure is reported, never raised. */
  async observe(hooks: Hook[], fn: (h: Hook) => unknown): Promise<void> {
    if (hooks.length === 0) return;
    await Promise.all(hooks.map(async (h) => {
      try {
        await fn(h);
      } catch (err) {
        this.#onHookError?.(h.id, (err as Error)?.message ?? String(err));
      }
    }));
  }

  /** One guard around the rest of the chain. */
  #around(
    g: Guard,
    inner: Step,
    call: EffectCall,
    marks: Set<string>,
    withMarks: (r: ToolResult) => ToolResult,
  ): Step {
    return async (value) => {
      const entered = this.#active.get(g.id) ?? 0;
      if (entered > (g.reentrantDepth ?? 0)) {
        return textResult(
          `error: refused by guard ${g.id}: re-entered while it runs (reentrant-depth ${
            g.reentrantDepth ?? 0
          })`,
          true,
        );
      }
      let used = false;
      let coreResult: ToolResult | undefined;
      // what the rest of the chain ended the call with (a refusal past the guards, a retry of
      // the whole chain): it passes this guard whatever the middleware makes of it — a Scheme
      // program sees it as an error it may not swallow
      let signal: ChainRefused | RetryRequested | undefined;
      const invoke: Invoke = async (v) => {
        if (used) throw new Error(`guard ${g.id}: invoke called twice`);
        used = true;
        try {
          coreResult = await inner(v);
        } catch (err) {
          if (err instanceof ChainRefused || err instanceof RetryRequested) signal = err;
          throw err;
        }
        return coreResult;
      };
      let out: ToolResult | Refusal | Retry;
      this.#active.set(g.id, entered + 1);
      try {
        out = await g.middleware(value, invoke, call);
      } catch (err) {
        if (signal) throw signal;
        if (err instanceof ChainRefused) throw err;
        if (coreResult) {
          this.#onHookError?.(g.id, `guard failed after invoke: ${(err as Error)?.message ?? err}`);
          return coreResult;
        }
        return textResult(`error: refused by guard ${g.id} (it failed; guards fail closed)`, true);
      } finally {
        if (entered === 0) this.#active.delete(g.id);
        else this.#active.set(g.id, entered);
      }
      if (signal) throw signal;
      return this.#settle(g, out, coreResult, marks, withMarks);
    };
  }

  /** What a guard's answer makes of the call: a refusal, a retry, or the (kept) result. */
  #settle(
    g: Guard,
    out: ToolResult | Refusal | Retry,
    /** The inner step's result (set once the guard invoked it and it returned). */
    coreResult: ToolResult | undefined,
    marks: Set<string>,
    withMarks: (r: ToolResult) => ToolResult,
  ): ToolResult {
    if (isRefusal(out)) return textResult(`error: refused by guard ${g.id}: ${out.reason}`, true);
    if (isRetry(out)) {
      if (coreResult) {
        this.#onHookError?.(g.id, "guard/retry after invoke: the core result is kept");
        return coreResult;
      }
      throw new RetryRequested(g.id, out.reason);
    }
    if (!coreResult) {
      return textResult(`error: refused by guard ${g.id}: it returned without invoking`, true);
    }
    const returned = withMarks(out);
    if (sameResult(returned, coreResult)) return { ...coreResult, marks: returned.marks };
    if (!g.replace) {
      this.#onHookError?.(
        g.id,
        "replaced the result without the replace capability: the core result is kept",
      );
      return coreResult;
    }
    marks.add(REPLACE_MARK[g.replace]);
    return withMarks(returned);
  }
}
