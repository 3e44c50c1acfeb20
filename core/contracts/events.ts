/**
 * The canonical stream events: what providers emit while a model answers and what
 * the loop emits around it.
 *
 * @module
 */
import type { StopReason, Usage } from "./conversation.ts";

/**
 * Events a provider emits while a model request streams. `recorded` marks a
 * delta already written to `.stream` (by an executable provider itself).
 */
export type ProviderEvent =
  | { type: "text"; text: string; recorded?: boolean }
  | { type: "thinking"; text: string; recorded?: boolean }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; id: string; json: string }
  | { type: "tool_call_end"; index: number; id: string; name: string; input: unknown }
  | { type: "usage"; usage: Usage }
  | { type: "stop"; reason: StopReason }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "error"; message: string };

/** Events the kernel emits around the loop (on top of provider events). */
export type LoopEvent =
  | { type: "session"; id: string; dir: string }
  | { type: "stage"; stage: string }
  | { type: "turn_start"; turn: number; message: string }
  | { type: "round_start"; round: number }
  | { type: "tool_start"; id: string; name: string; input: unknown }
  | { type: "tool_done"; id: string; name: string; error: boolean; result: string; ms: number }
  | { type: "round_end"; round: number; stop: StopReason }
  | { type: "turn_end"; output: string; error: boolean }
  | { type: "notice"; message: string }
  /** A compaction begins: `messages` older messages (about `tokens` tokens) are summarized. */
  | { type: "compact_start"; reason: CompactReason; messages: number; tokens: number }
  /** A compaction ended: the next request holds about `after` tokens instead of `before`. */
  | {
    type: "compact_done";
    reason: CompactReason;
    messages: number;
    before: number;
    after: number;
    /** Seq of the summary message written to the session. */
    summarySeq: number;
  }
  /** A behavior's note (seed 000 §6): origin notes are shown; the others are model context. */
  | { type: "note"; kind: "origin" | "ambient" | "activating"; from: string; message: string }
  /** A pack state accepted an entry (its revision moved). */
  | {
    type: "state";
    plugin: string;
    scope: string;
    revision: number;
    by: "method" | "host";
    method?: string;
  };

/**
 * Why a session is compacted: the next request would pass the threshold, the user asked
 * (`/compact`), or the provider refused a request as too long.
 */
export type CompactReason = "threshold" | "manual" | "overflow";

/** Every event on the bus. */
export type HarnessEvent = ProviderEvent | LoopEvent;
