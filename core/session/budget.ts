/**
 * The context budget of a session's next request, and where a compaction may
 * cut it.
 *
 * The count is the prompt the provider reported for the last answer still in
 * the context (same provider and model), plus an estimate of what came after
 * it; the estimate is calibrated by that report (reported ÷ estimated for the
 * same request). Without such a report it is the estimate alone.
 *
 * @module
 */
import type { ConversationMessage } from "../base/mod.ts";
import type { SessionEntry } from "./entries.ts";
import { messageChars, promptTokens, tokensOfChars } from "./tokens.ts";

/** Calibration factors outside this range are not trusted (a provider's odd usage). */
const RATIO_MIN = 0.25;
const RATIO_MAX = 4;

/** Characters of what a request holds besides messages. */
export interface FixedParts {
  /** The system prompt. */
  systemChars: number;
  /** The tool definitions (as sent). */
  toolsChars: number;
}

/** Tokens of the next request, by section. */
export interface Budget {
  /** Estimated prompt tokens of the next request. */
  tokens: number;
  /** "reported": a provider's figure plus an estimate of what followed; "estimate": no report. */
  basis: "reported" | "estimate";
  /** Tokens per raw estimated token (1 without a report). */
  ratio: number;
  /** Calibrated tokens per section (they add up to `tokens`). */
  sections: { system: number; tools: number; summary: number; messages: number };
  /** Messages the next request holds. */
  messages: number;
}

/**
 * The budget of the next request over a context view (see `Session.contextEntries`), for
 * `provider`/`model`. `ratio` is used when no report applies (e.g. the calibration of the
 * request before a compaction).
 */
export function estimateBudget(
  view: readonly SessionEntry[],
  fixed: FixedParts,
  current: { provider: string; model: string },
  ratio = 1,
): Budget {
  const fixedRaw = tokensOfChars(fixed.systemChars) + tokensOfChars(fixed.toolsChars);
  const raw: number[] = view.map((e) => tokensOfChars(messageChars(e.message)));
  let anchor = -1;
  for (let i = view.length - 1; i >= 0; i--) {
    const e = view[i];
    if (e.message.role !== "assistant" || !e.usage) continue;
    if (promptTokens(e.usage) <= 0) continue;
    if ((e.provider ?? "") !== current.provider) break;
    if (current.model && e.model && e.model !== current.model) break;
    anchor = i;
    break;
  }
  let total: number;
  let basis: Budget["basis"] = "estimate";
  let before = fixedRaw;
  for (let i = 0; i < Math.max(anchor, 0); i++) before += raw[i];
  let after = 0;
  for (let i = Math.max(anchor, 0); i < raw.length; i++) after += raw[i];
  if (anchor >= 0) {
    const reported = promptTokens(view[anchor].usage!);
    const r = reported / Math.max(1, before);
    if (r >= RATIO_MIN && r <= RATIO_MAX) ratio = r;
    total = reported + Math.ceil(after * ratio);
    basis = "reported";
  } else {
    total = Math.ceil((before + after) * ratio);
  }
  // sections: raw shares scaled so that they add up to the total
  let summary = 0;
  let messages = 0;
  view.forEach((e, i) => {
    if (e.summarizes) summary += raw[i];
    else messages += raw[i];
  });
  const sysRaw = tokensOfChars(fixed.systemChars);
  const toolsRaw = tokensOfChars(fixed.toolsChars);
  const allRaw = Math.max(1, sysRaw + toolsRaw + summary + messages);
  const scale = total / allRaw;
  const s = {
    system: Math.round(sysRaw * scale),
    tools: Math.round(toolsRaw * scale),
    summary: Math.round(summary * scale),
    messages: 0,
  };
  s.messages = Math.max(0, total - s.system - s.tools - s.summary);
  return { tokens: total, basis, ratio, sections: s, messages: view.length };
}

/** Where a compaction cuts the context: the head is summarized, the tail stays verbatim. */
export interface CompactionPlan {
  /** The older entries, replaced by a summary. */
  head: SessionEntry[];
  /** The recent entries, kept verbatim. */
  tail: SessionEntry[];
}

/** Options of {@link planCompaction}. */
export interface PlanOptions {
  /** Turns (a user message and what followed) kept verbatim at the end. */
  keepTurns: number;
  /** Most tokens the verbatim tail may hold; later cuts (round boundaries) are tried first. */
  tailTokens: number;
  /** Calibration of the estimate (tokens per raw token). */
  ratio: number;
}

/** The calls an assistant message makes. */
function callsOf(m: ConversationMessage): string[] {
  return m.role === "assistant"
    ? m.blocks.flatMap((b) => (b.type === "tool_call" ? [b.id] : []))
    : [];
}

/**
 * Indices where the context may be cut: before a user message or an assistant message,
 * never inside a tool-call/result exchange (every call before the cut has its result
 * before it), never at 0 and never at the end (the tail is never empty).
 */
export function cutPoints(view: readonly SessionEntry[]): number[] {
  const out: number[] = [];
  const open = new Set<string>();
  for (let i = 0; i < view.length; i++) {
    const m = view[i].message;
    if (i > 0 && open.size === 0 && m.role !== "tool_result") out.push(i);
    if (m.role === "tool_result") open.delete(m.callId);
    for (const id of callsOf(m)) open.add(id);
  }
  return out;
}

/**
 * Plans a compaction: keep the last `keepTurns` turns verbatim, or less when they hold more
 * than `tailTokens` (the cut moves to a later turn or round boundary); summarize the rest.
 * Undefined when there is nothing worth summarizing (no cut, or a head that is only an
 * earlier summary).
 */
export function planCompaction(
  view: readonly SessionEntry[],
  opts: PlanOptions,
): CompactionPlan | undefined {
  const cuts = cutPoints(view);
  if (cuts.length === 0) return undefined;
  const turnStarts = view.flatMap((e, i) =>
    e.message.role === "user" && !e.summarizes && cuts.includes(i) ? [i] : []
  );
  // where keeping `keepTurns` turns cuts (0: there are not that many, keep everything)
  const wanted = turnStarts.length >= opts.keepTurns && opts.keepTurns > 0
    ? turnStarts[turnStarts.length - opts.keepTurns]
    : 0;
  // tail tokens from each cut (suffix sums of the raw estimate, calibrated)
  const suffix: number[] = new Array(view.length + 1).fill(0);
  for (let i = view.length - 1; i >= 0; i--) {
    suffix[i] = suffix[i + 1] + tokensOfChars(messageChars(view[i].message)) * opts.ratio;
  }
  if (wanted === 0 && suffix[0] <= opts.tailTokens) return undefined;
  let cut = cuts.find((c) => c >= wanted && suffix[c] <= opts.tailTokens);
  cut ??= cuts[cuts.length - 1];
  const head = view.slice(0, cut);
  const fresh = head.filter((e) => !e.summarizes);
  if (fresh.length === 0) return undefined;
  return { head, tail: view.slice(cut) };
}
