/**
 * The port between the follower (`Turn`) and the observer that knows
 * what its stages mean (`Rounds`): the follower asks before a stage,
 * after it, and at each transition `(from, to, output)`; the observer answers
 * with the next {@link Step}. Types only, so that neither imports the other.
 *
 * @module
 */
import type { MessageImage } from "../base/mod.ts";
import type { ChainResult } from "./chain.ts";

/** What the follower does next. */
export type Step =
  /** Run the stage with this context. */
  | { go: "run"; context: Record<string, unknown> }
  /** Go to another state without running this one. */
  | { go: "to"; state: string; context: Record<string, unknown> }
  /** The turn failed: route to `error` with this message. */
  | { go: "fail"; error: string };

/** How a turn ended, as its observer is told. */
export interface TurnEnd {
  /** True when the turn ended in an error (a cancel included). */
  failed: boolean;
  /** Why (empty when not failed). */
  failure: string;
  /** True when the turn was cancelled. */
  cancelled: boolean;
  /** The final output (`output` of the last stage). */
  output: string;
}

/** What the follower calls; the observer knows the stages' meaning. */
export interface TurnObserver {
  /** Before the first stage: a refusal text routes the turn to `error`. */
  begin(message?: string, images?: MessageImage[]): Promise<string | undefined>;
  /**
   * Before `state` runs. `admit` counts a model request against the cap and returns the
   * failure when the cap is passed.
   */
  enter(
    state: string,
    context: Record<string, unknown>,
    admit: () => string | undefined,
  ): Promise<Step>;
  /** After `state` ran with `context` (before error routing): may redirect. */
  ran(state: string, context: Record<string, unknown>, r: ChainResult): Promise<Step | void>;
  /** A transition the stage's `next_state` asked for: may redirect. */
  transition(
    from: string,
    to: string,
    output: Record<string, unknown>,
  ): Promise<{ state: string; context: Record<string, unknown> } | void>;
  /** After the last stage. */
  end(outcome: TurnEnd): Promise<void>;
}
