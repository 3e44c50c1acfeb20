/**
 * Lifecycle events (seed 002 `ctx.hooks.on(event, handler)`): the boundaries of
 * the loop — session created, turn and round start/end, tool start/done, model
 * request/response metadata — with typed payloads. Payloads carry identities,
 * counts and outcomes, never tool input/output bodies or credentials (the user
 * message is the one body a `turn_start` carries, as the turn's record does).
 *
 * @module
 */
import type { StopReason, Usage } from "../contracts/mod.ts";

/** Fields every turn-scoped payload has. */
export interface TurnScope {
  /** The id of the session the turn runs in. */
  sessionId: string;
  /** "main", or "agent:<parent session id>" for a sub-agent. */
  principal: string;
}

/** The payload of each lifecycle event. */
export interface LifecycleEvents {
  /** A run created a new session directory. */
  session_created: TurnScope & { sessionDir: string; provider: string; model: string };
  /** A user message starts a turn (`turn` = messages in the session before it). */
  turn_start: TurnScope & { turn: number; message: string; provider: string; model: string };
  /** The turn ended (`done`, an error, or a cancel). */
  turn_end: TurnScope & {
    turn: number;
    error: boolean;
    cancelled: boolean;
    rounds: number;
    usage: Usage;
  };
  /** A round (one model request and its tool executions) starts. */
  round_start: TurnScope & { turn: number; round: number };
  /** The model answered; `stop` says whether tools follow. */
  round_end: TurnScope & { turn: number; round: number; stop: StopReason };
  /** A tool call enters the effect seam. */
  tool_start: TurnScope & { callId: string; tool: string; owner: string };
  /** A tool call left the seam. */
  tool_done: TurnScope & {
    callId: string;
    tool: string;
    owner: string;
    error: boolean;
    durationMs: number;
  };
  /** A model request is sent (counts only, never the messages). */
  model_request: TurnScope & {
    round: number;
    provider: string;
    model: string;
    messages: number;
    tools: number;
  };
  /** A model response arrived (or the request failed: `stop` "error"). */
  model_response: TurnScope & {
    round: number;
    provider: string;
    model: string;
    stop: StopReason;
    usage: Usage;
    durationMs: number;
  };
}

/** The name of a lifecycle event. */
export type LifecycleEvent = keyof LifecycleEvents;

/** Every lifecycle event name, in the order of a turn. */
export const LIFECYCLE_EVENTS: readonly LifecycleEvent[] = [
  "session_created",
  "turn_start",
  "round_start",
  "model_request",
  "model_response",
  "round_end",
  "tool_start",
  "tool_done",
  "turn_end",
];

/** Emits a lifecycle event (what the loop is handed); the payload matches the event. */
export type LifecycleEmit = (
  event: LifecycleEvent,
  payload: LifecycleEvents[LifecycleEvent],
) => void;
