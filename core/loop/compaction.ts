/**
 * The budget of a turn's requests and their compaction: the calibrated token
 * estimate, the threshold (`HARNESS_COMPACT_AT` × window, within the room
 * the output leaves), the provider's "too long" refusal, `compact()` (the
 * `compact` stage summarizes the older messages into one) and the `/context`
 * report. Handed what it reads — the session, the adapter, a stage call,
 * the settings, the model's limits, the event sink — never the Turn.
 *
 * @module
 */
import type { CompactReason, HarnessEvent, ProtocolAdapter, Usage } from "../base/mod.ts";
import type { HarnessConfig } from "../config/mod.ts";
import type { ResolvedLimits } from "../providers/mod.ts";
import {
  type Budget,
  estimateBudget,
  type FixedParts,
  planCompaction,
  type Session,
} from "../session/mod.ts";
import type { ChainResult } from "./chain.ts";
import { compactInstruction } from "./compact_hooks.ts";
import { type ContextReport, contextSections } from "./context_report.ts";
import type { FixedRequestParts } from "./turn_services.ts";
import { str } from "./values.ts";

/** The outcome of a compaction. */
export type CompactOutcome =
  | {
    ok: true;
    /** Seq of the summary message. */
    summarySeq: number;
    /** Context messages replaced by the summary. */
    messages: number;
    /** Estimated tokens of the next request before and after. */
    before: number;
    after: number;
  }
  | {
    ok: false;
    error: string;
    hint: string;
    /** True when there was nothing to summarize (only what is kept verbatim). */
    nothing?: boolean;
  };

/** Share of the window the verbatim tail of a compaction may hold. */
const TAIL_SHARE = 0.3;

/** A provider's refusal of a request that does not fit its context window. */
const OVERFLOW =
  /prompt is too long|context[ _-]length|context window|maximum context|context_length_exceeded|too many (input )?tokens|input is too long|exceeds? the (model's )?(context|maximum)/i;

/** Whether an error message is a provider's "the prompt does not fit" refusal. */
export function isContextOverflow(message: string): boolean {
  return OVERFLOW.test(message);
}

/** What a {@link Compaction} is handed. */
export interface CompactionInit {
  /** The session whose context is measured and compacted. */
  session: Session;
  /** The provider of the requests. */
  provider: string;
  /** The model of the requests. */
  model: string;
  /** The adapter of the provider's protocol (it may change once the protocol is known). */
  adapter(): ProtocolAdapter;
  /** Runs a stage of the turn (`compact`), the session re-read after an executable hook. */
  stages(stage: string, input: Record<string, unknown>): Promise<ChainResult>;
  /** The settings (`compactAt`, `compactKeep`). */
  config: HarnessConfig;
  /** The model's window and output limit. */
  limits: ResolvedLimits;
  /** The event sink of the turn (compact_start, compact_done). */
  emit(event: HarnessEvent): void;
  /** The system prompt and tools of a request as the built-in hooks make them. */
  parts(): Promise<FixedRequestParts>;
  /** Adds the summary request's usage to the turn's total. */
  noteUsage(usage: Usage): void;
}

/** The budget and compaction of one turn's requests. */
export class Compaction {
  #o: CompactionInit;
  /** The last calibration of the token estimate (reported ÷ estimated). */
  #ratio = 1;

  /** Creates the budget of a turn. */
  constructor(init: CompactionInit) {
    this.#o = init;
  }

  /** The budget of the next request, given the sizes of its system prompt and tools. */
  budget(fixed: FixedParts): Budget {
    const b = estimateBudget(this.#o.session.contextEntries(), fixed, {
      provider: this.#o.provider,
      model: this.#o.model,
    }, this.#ratio);
    this.#ratio = b.ratio;
    return b;
  }

  /** Tokens the next request may hold before it is compacted (undefined: never by size). */
  limit(): number | undefined {
    const share = this.#o.config.compactAt;
    const window = this.#o.limits.context;
    if (!share || !window) return undefined;
    const room = window - (this.#o.limits.maxOutput ?? 0);
    return Math.floor(Math.min(share * window, room > 0 ? room : window));
  }

  /** True when the request in `context` (assembled) would pass the compaction threshold. */
  overThreshold(context: Record<string, unknown>): boolean {
    const limit = this.limit();
    if (limit === undefined) return false;
    const b = this.budget({
      systemChars: str(context.system).length,
      toolsChars: JSON.stringify(context.tools ?? []).length,
    });
    return b.tokens > limit;
  }

  /** What the next request holds, by section, with token counts (for /context). */
  async report(): Promise<ContextReport> {
    const o = this.#o;
    const fixed = await o.parts();
    const toolsChars = JSON.stringify(fixed.tools).length;
    const budget = this.budget({ systemChars: fixed.system.length, toolsChars });
    return contextSections({
      provider: o.provider,
      model: o.model,
      limits: o.limits,
      compactAt: this.limit(),
      budget,
      system: fixed.system.length - fixed.skills.length,
      skills: fixed.skills.length,
      toolsChars,
      tools: fixed.tools.length,
      view: o.session.contextEntries(),
      compacted: o.session.entries().filter((e) => e.compacted !== undefined).length,
    });
  }

  /**
   * Compacts the session: the older part of the context is summarized by the `compact`
   * stage (built-in `10-summarize`: one model request) into one message; the last turns
   * stay verbatim; the replaced files stay on disk, marked. `system`/`tools`: those of the
   * request being prepared (default: assembled as for a request).
   */
  async compact(
    reason: CompactReason,
    opts: { focus?: string; system?: string; tools?: unknown[] } = {},
  ): Promise<CompactOutcome> {
    const hint = reason === "manual"
      ? "the session is unchanged; try again, or start a new session with /new"
      : "the session is unchanged (nothing was marked compacted); retry, compact with /compact, or set HARNESS_COMPACT_AT=off";
    try {
      return await this.#compact(reason, opts, hint);
    } catch (err) {
      return { ok: false, error: `compaction failed: ${(err as Error).message}`, hint };
    }
  }

  async #compact(
    reason: CompactReason,
    opts: { focus?: string; system?: string; tools?: unknown[] },
    hint: string,
  ): Promise<CompactOutcome> {
    const o = this.#o;
    o.session.refresh(true);
    let system = opts.system;
    let tools = opts.tools;
    if (system === undefined || tools === undefined) {
      const fixed = await o.parts();
      system ??= fixed.system;
      tools ??= fixed.tools;
    }
    const fixed = { systemChars: system.length, toolsChars: JSON.stringify(tools).length };
    const before = this.budget(fixed);
    const window = o.limits.context;
    const tailTokens = window
      ? TAIL_SHARE * window
      : reason === "overflow"
      ? TAIL_SHARE * before.tokens
      : Number.POSITIVE_INFINITY;
    const view = o.session.contextEntries();
    const plan = planCompaction(view, {
      keepTurns: o.config.compactKeep,
      tailTokens,
      ratio: before.ratio,
    });
    if (!plan) {
      return {
        ok: false,
        error: "nothing to compact: the context holds only what is kept verbatim",
        nothing: true,
        hint: `the last ${o.config.compactKeep} turn(s) stay verbatim (HARNESS_COMPACT_KEEP)`,
      };
    }
    const headTokens = before.tokens - Math.round(
      estimateBudget(plan.tail, { systemChars: 0, toolsChars: 0 }, {
        provider: "",
        model: "",
      }, before.ratio).tokens,
    );
    o.emit({
      type: "compact_start",
      reason,
      messages: plan.head.length,
      tokens: Math.max(0, headTokens),
    });
    const instruction = compactInstruction(opts.focus);
    const pad = (n: number) => String(n).padStart(4, "0");
    const input: Record<string, unknown> = {
      reason,
      focus: opts.focus ?? "",
      provider: o.provider,
      model: o.model,
      system,
      tools,
      messages: o.adapter().buildMessages([
        ...plan.head.map((e) => e.message),
        { role: "user", seq: 0, text: instruction },
      ]),
      instruction,
      compact: {
        from: pad(plan.head[0].summarizes?.[0] ?? plan.head[0].seq),
        to: pad(plan.head.at(-1)!.seq),
        keep_from: pad(plan.tail[0].seq),
        messages: plan.head.length,
        tokens: before.tokens,
        window: window ?? null,
      },
    };
    const r = await o.stages("compact", input);
    if (!r.ok) {
      const why = str(r.output.error) || "the compact stage failed";
      return { ok: false, error: `compaction failed: ${why}`, hint };
    }
    const summary = str(r.output.summary).trim();
    if (!summary) {
      return {
        ok: false,
        error: 'compaction failed: the compact stage printed no "summary"',
        hint,
      };
    }
    const u = r.output.usage as Usage | undefined;
    const usage = u && typeof u.input_tokens === "number" && typeof u.output_tokens === "number"
      ? u
      : undefined;
    if (usage) o.noteUsage(usage);
    const summarySeq = o.session.writeSummary({
      summary,
      replaces: plan.head,
      reason,
      provider: o.provider,
      model: str(r.output.model) || o.model,
      usage,
    });
    const after = this.budget(fixed);
    o.emit({
      type: "compact_done",
      reason,
      messages: plan.head.length,
      before: before.tokens,
      after: after.tokens,
      summarySeq,
    });
    return {
      ok: true,
      summarySeq,
      messages: plan.head.length,
      before: before.tokens,
      after: after.tokens,
    };
  }
}
