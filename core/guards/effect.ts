/**
 * The vocabulary of the effect seam: an effect call at its point, the guards
 * that run around it (middleware, fail closed) and the hooks that observe it
 * (fail open). The dispatcher (a tool call) and the boundary seam (a turn or
 * a round starting or ending) run the same guards and hooks through the
 * chains of `chain.ts`.
 *
 * @module
 */
import type { Owner, ToolResult } from "../base/mod.ts";

/** Where an effect happens. */
export type Point =
  | "read"
  | "write"
  | "edit"
  | "shell"
  | "mcp"
  | "agent"
  | "tool"
  | "turn"
  | "round";

/**
 * One effect as guards and hooks see it: a tool call (dispatched), or a turn or round
 * boundary (point and tool `turn` / `round`, its record as the input; it never enters the
 * dispatcher: see `core/boundaries.ts`).
 */
export interface EffectCall {
  /** The effect point the call is dispatched at. */
  point: Point;
  /** The tool's name (a boundary's kind at a boundary). */
  tool: string;
  /** Who registered the tool (a built-in, an executable, a runtime plugin, a behavior). */
  owner: Owner;
  /** Which agent asks: "main" or "agent:<session id>". */
  principal: string;
  /** The model's id of the call (a fresh id per phase at a boundary). */
  callId: string;
  /** The call's input. */
  input: unknown;
  /** The session id of the run the call belongs to (when there is one). */
  session?: string;
}

/** A guard's refusal. */
export interface Refusal {
  /** Marks a refusal. */
  refused: true;
  /** Why the call was refused (shown to the model). */
  reason: string;
}

/** A guard's request to run the chain again from the raw value (`guard/retry`). */
export interface Retry {
  /** Marks a retry request. */
  retry: true;
  /** Why the chain is run again. */
  reason: string;
}

/** Single-use continuation handed to a guard. */
export type Invoke = (value: unknown) => Promise<ToolResult>;

/** Critical-path middleware. */
export interface Guard {
  /** Identifies the guard (in messages and the re-entrancy bound). */
  id: string;
  /** The effect point it guards (`*`: every point). */
  point: Point | "*";
  /** Host-side match; a miss never enters the middleware. */
  match?: (call: EffectCall) => boolean;
  /**
   * The declared capability to replace the result, with its contract. A guard without it
   * passes the core's result on unchanged (marks aside); a replacement it makes anyway is
   * surfaced as a failure and the core's result is kept.
   */
  replace?: "redaction" | "summarize";
  /** How many times the guard may be entered again while it runs (default 0). */
  reentrantDepth?: number;
  /**
   * Runs around the call: passes a (possibly rewritten) value to `invoke`, or refuses, or asks for
   * a retry.
   */
  middleware(
    raw: unknown,
    invoke: Invoke,
    call: EffectCall,
  ): Promise<ToolResult | Refusal | Retry>;
}

/** How many times one call's guard chain may be restarted by `guard/retry`. */
export const RETRY_BUDGET = 3;

/** The mark a declared replacement leaves, by contract. */
export const REPLACE_MARK: Record<"redaction" | "summarize", string> = {
  redaction: "redacted",
  summarize: "summarized",
};

/** Parallel observer (fail open). */
export interface Hook {
  /** Identifies the hook (in failure reports). */
  id: string;
  /** The effect point it observes (`*`: every point). */
  point: Point | "*";
  /** Observes the call before it runs (its return value is ignored). */
  pre?(value: unknown, call: EffectCall): unknown;
  /** Observes a successful result. */
  post?(value: unknown, result: ToolResult, call: EffectCall): unknown;
  /** Observes a failed call with its error text. */
  postFail?(value: unknown, failure: string, call: EffectCall): unknown;
}
