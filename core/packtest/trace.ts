/**
 * What `hs packs test` observes of the seam: every guard wrapped so that its decision on a call
 * is recorded (allow, rewrite with the new value, refuse with the reason, retry, a replaced
 * result, a failure), every hook wrapped so that the ones that fired are recorded, and the
 * run's events (a tool call's start and result, the states its methods changed, notes). The
 * wrappers change nothing: same id, point, match, capability and bound; the decision is the
 * guard's own answer, passed on as it was.
 *
 * @module
 */
import { resultText, type ToolResult } from "../base/mod.ts";
import type { HarnessEvent } from "../base/mod.ts";
import type { EffectCall, Guard, Hook, Invoke } from "../guards/mod.ts";

/** How the seam sees through a tracer (HarnessOptions.seamTrace). */
export interface SeamTrace {
  /** The guard as the chain runs it. */
  guard(g: Guard): Guard;
  /** The hook as the seam runs it. */
  hook(h: Hook): Hook;
  /** A `call/method` a bot's program made (`from`: `<pack>/<bot>`; `error` when it failed). */
  method?(m: { from: string; binding: string; method: string; error?: string }): void;
}

/** One guard's decision on one pass of a call's chain. */
export interface GuardDecision {
  guard: string;
  decision: "allow" | "rewrite" | "refuse" | "retry" | "error";
  /** The value passed on (a rewrite's). */
  value?: unknown;
  /** A refusal's, a retry's or a failure's reason. */
  reason?: string;
  /** The guard returned another result than the core's: `redaction`/`summarize`, or `kept`. */
  replaced?: string;
}

/** A hook that fired. */
export interface HookFire {
  hook: string;
  phase: "pre" | "post" | "post-fail";
}

/** One step of a test: a tool call, or a turn or round boundary a pack acted on. */
export interface TraceStep {
  kind: "call" | "turn" | "round";
  /** The tool call's number (1-based over the test), for calls. */
  n?: number;
  /** The model's call id (a boundary's own id). */
  id: string;
  tool: string;
  input: unknown;
  guards: GuardDecision[];
  hooks: HookFire[];
  /** The `call/method` calls made while it ran (`binding.method`, a failure with its reason). */
  methods: string[];
  /** The state entries appended while it ran (`pack scope revision N (method)`). */
  commits: string[];
  notes: string[];
  result?: { text: string; error: boolean };
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function isThenable(v: unknown): boolean {
  return typeof (v as { then?: unknown } | null)?.then === "function";
}

/** Records what the seam and the run did, step by step. */
export class Tracer implements SeamTrace {
  readonly steps: TraceStep[] = [];
  #byId = new Map<string, TraceStep>();
  #guards = new WeakMap<Guard, Guard>();
  #hooks = new WeakMap<Hook, Hook>();
  #calls = 0;
  /** The tool call running now (between its start and its result). */
  #current?: TraceStep;
  /** The step outside tool calls (the turn) that methods and notes belong to. */
  #turn?: TraceStep;

  /** The step of `call` (created when first seen). */
  #step(call: { callId: string; point: string; tool: string; input: unknown }): TraceStep {
    const known = this.#byId.get(call.callId);
    if (known) return known;
    const boundary = call.point === "turn" || call.point === "round";
    const step: TraceStep = {
      kind: boundary ? call.point as "turn" | "round" : "call",
      ...(boundary ? {} : { n: ++this.#calls }),
      id: call.callId,
      tool: call.tool,
      input: call.input,
      guards: [],
      hooks: [],
      methods: [],
      commits: [],
      notes: [],
    };
    this.#byId.set(call.callId, step);
    this.steps.push(step);
    return step;
  }

  /** The guard, its decisions recorded. */
  guard(g: Guard): Guard {
    const known = this.#guards.get(g);
    if (known) return known;
    const traced: Guard = {
      ...g,
      middleware: async (raw, invoke, call) => {
        const d: GuardDecision = { guard: g.id, decision: "allow" };
        this.#step(call).guards.push(d);
        let passed: { value: unknown } | undefined;
        let core: ToolResult | undefined;
        let innerFailed = false;
        const inv: Invoke = async (v) => {
          passed = { value: v };
          try {
            core = await invoke(v);
          } catch (err) {
            innerFailed = true; // the floor (or the audit) refused past this guard
            throw err;
          }
          return core;
        };
        try {
          const out = await g.middleware(raw, inv, call);
          settle(d, out, raw, passed, core, g);
          return out;
        } catch (err) {
          if (innerFailed) {
            // the guard passed the call on; what refused it is further in (the result says)
            if (!same(passed!.value, raw)) {
              Object.assign(d, { decision: "rewrite", value: passed!.value });
            }
          } else {
            d.decision = "error";
            d.reason = (err as Error)?.message ?? String(err);
          }
          throw err;
        }
      },
    };
    this.#guards.set(g, traced);
    return traced;
  }

  /** The hook, the phases it fired in recorded. */
  hook(h: Hook): Hook {
    const known = this.#hooks.get(h);
    if (known) return known;
    // a pack hook answers undefined at once for a call it does not apply to (its match, its
    // agent, the boundary's phase) and a promise of its callback's run when it does
    const wrap = <A extends unknown[]>(
      phase: HookFire["phase"],
      fn: ((...a: A) => unknown) | undefined,
      callOf: (...a: A) => EffectCall,
    ) =>
      fn &&
      ((...a: A) => {
        const out = fn.apply(h, a);
        if (isThenable(out)) this.#step(callOf(...a)).hooks.push({ hook: h.id, phase });
        return out;
      });
    const traced: Hook = {
      ...h,
      pre: wrap("pre", h.pre, (_v, c) => c),
      post: wrap("post", h.post, (_v, _r, c) => c),
      postFail: wrap("post-fail", h.postFail, (_v, _f, c) => c),
    };
    this.#hooks.set(h, traced);
    return traced;
  }

  /** A run event: tool calls start and end, states commit, notes are left. */
  event(e: HarnessEvent): void {
    if (e.type === "turn_start") {
      this.#turn = undefined;
    } else if (e.type === "tool_start") {
      this.#current = this.#step({ callId: e.id, point: "tool", tool: e.name, input: e.input });
      this.#current.tool = e.name;
      this.#current.input = e.input;
    } else if (e.type === "tool_done") {
      const s = this.#byId.get(e.id);
      if (s) s.result = { text: e.result, error: e.error };
      this.#current = undefined;
    } else if (e.type === "state") {
      const by = e.method ? ` (${e.method})` : e.by === "host" ? " (host)" : "";
      this.#owner().commits.push(`${e.plugin} ${e.scope} revision ${e.revision}${by}`);
    } else if (e.type === "note") {
      this.#owner().notes.push(`${e.from} (${e.kind}): ${e.message}`);
    }
  }

  /** A `call/method` of a bot's program: it belongs to the call running now, else the turn. */
  method(m: { from: string; binding: string; method: string; error?: string }): void {
    const what = `${m.binding}.${m.method}`;
    this.#owner().methods.push(m.error ? `${what} (failed: ${m.error})` : what);
  }

  #owner(): TraceStep {
    if (this.#current) return this.#current;
    return this.#turn ??= this.#step({
      callId: `turn-${this.steps.length}`,
      point: "turn",
      tool: "turn",
      input: {},
    });
  }

  /** The tool calls, in order. */
  calls(): TraceStep[] {
    return this.steps.filter((s) => s.kind === "call");
  }
}

/** Fills a guard's decision from its answer. */
function settle(
  d: GuardDecision,
  out: unknown,
  raw: unknown,
  passed: { value: unknown } | undefined,
  core: ToolResult | undefined,
  g: Guard,
): void {
  const o = out as { refused?: boolean; retry?: boolean; reason?: string } | null;
  if (o?.refused === true) {
    d.decision = "refuse";
    d.reason = o.reason;
    return;
  }
  if (o?.retry === true) {
    d.decision = "retry";
    d.reason = o.reason;
    return;
  }
  if (!passed) {
    d.decision = "refuse";
    d.reason = "it returned without invoking";
    return;
  }
  if (!same(passed.value, raw)) {
    d.decision = "rewrite";
    d.value = passed.value;
  }
  const r = out as ToolResult;
  if (
    core && (resultText(r) !== resultText(core) || (r.isError === true) !== (core.isError === true))
  ) {
    d.replaced = g.replace ?? "kept";
  }
}
