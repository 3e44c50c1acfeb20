/**
 * The expectations of a test script checked against what the seam did (core/packtest/trace.ts):
 * each names a tool call (its number or id) and what must hold of it — its outcome, the guard
 * that decided, the reason, the input that reached the floor, the result, the hooks that fired.
 *
 * @module
 */
import type { Expectation } from "./script.ts";
import type { TraceStep } from "./trace.ts";

/** An expectation and whether it held (with what was seen when it did not). */
export interface Checked {
  expectation: Expectation;
  ok: boolean;
  /** What did not hold, one sentence each. */
  problems: string[];
}

/** The outcome of a tool call: the first guard that refused (or failed), else a rewrite. */
export function outcomeOf(s: TraceStep): "allowed" | "rewritten" | "refused" | "failed" {
  if (s.guards.some((d) => d.decision === "error")) return "failed";
  if (s.guards.some((d) => d.decision === "refuse") || isRefused(s)) return "refused";
  if (s.guards.some((d) => d.decision === "rewrite")) return "rewritten";
  return "allowed";
}

function isRefused(s: TraceStep): boolean {
  return s.result?.error === true &&
    /^error: (refused|permission denied|tool '.*' (is not available|not found))/
      .test(s.result.text);
}

/** Whether `id` names guard or hook `full` (its whole id, or the part after the last `/`). */
export function names(id: string, full: string): boolean {
  return full === id || full.endsWith(`/${id}`);
}

/** True when every field of `want` is in `got` with an equal value (objects: recursively). */
function holds(want: unknown, got: unknown): boolean {
  if (want !== null && typeof want === "object" && !Array.isArray(want)) {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return false;
    return Object.entries(want).every(([k, v]) => holds(v, (got as Record<string, unknown>)[k]));
  }
  return JSON.stringify(want) === JSON.stringify(got);
}

/** The input that reached the floor: the last rewrite's value, else the model's input. */
export function reachedInput(s: TraceStep): unknown {
  const rewrites = s.guards.filter((d) => d.decision === "rewrite");
  return rewrites.length ? rewrites.at(-1)!.value : s.input;
}

/** The label of what an expectation names (`call 2`, `call c1`, `turn 1`). */
export function labelOf(e: Expectation): string {
  return e.turn !== undefined ? `turn ${e.turn}` : `call ${e.call}`;
}

/** The start of user turn `n` as the guards saw it (a step of its own when one decided). */
function turnStep(steps: TraceStep[], n: number): TraceStep {
  const seen = steps.find((s) => {
    const r = s.input as { turn?: unknown; phase?: unknown } | null;
    return s.kind === "turn" && r?.turn === n && r?.phase === "start";
  });
  return seen ??
    {
      kind: "turn",
      id: `turn-${n}`,
      tool: "turn",
      input: {},
      guards: [],
      hooks: [],
      methods: [],
      commits: [],
      notes: [],
    };
}

/** Checks one expectation against the steps of a test. */
export function check(e: Expectation, steps: TraceStep[]): Checked {
  const calls = steps.filter((c) => c.kind === "call");
  const s = e.turn !== undefined
    ? turnStep(steps, e.turn)
    : typeof e.call === "number"
    ? calls[e.call - 1]
    : calls.find((c) => c.id === e.call);
  if (!s) {
    return {
      expectation: e,
      ok: false,
      problems: [`${labelOf(e)} was never made (the test made ${calls.length} tool call(s))`],
    };
  }
  const problems: string[] = [];
  const outcome = outcomeOf(s);
  if (e.tool !== undefined && e.tool !== s.tool) {
    problems.push(`expected tool ${e.tool}, the call was ${s.tool}`);
  }
  if (e.outcome !== undefined && e.outcome !== outcome) {
    problems.push(`expected ${e.outcome}, it was ${outcome}`);
  }
  if (e.guard !== undefined) {
    const deciding = s.guards.filter((d) => d.decision !== "allow" || e.outcome === "allowed");
    if (!deciding.some((d) => names(e.guard!, d.guard))) {
      const by = deciding.map((d) => `${d.guard} (${d.decision})`).join(", ") || "no guard";
      problems.push(`expected guard ${e.guard} to decide, decided by: ${by}`);
    }
  }
  if (e.reason !== undefined) {
    const reasons = s.guards.map((d) => d.reason ?? "").concat(s.result?.text ?? "");
    if (!reasons.some((r) => r.includes(e.reason!))) {
      problems.push(`expected a reason containing ${JSON.stringify(e.reason)}`);
    }
  }
  if (e.input !== undefined && !holds(e.input, reachedInput(s))) {
    problems.push(
      `expected the input ${JSON.stringify(e.input)}, the floor got ${
        JSON.stringify(reachedInput(s))
      }`,
    );
  }
  if (e.result !== undefined && !(s.result?.text ?? "").includes(e.result)) {
    problems.push(
      `expected a result containing ${JSON.stringify(e.result)}, got ${
        JSON.stringify(s.result?.text ?? "(none)")
      }`,
    );
  }
  for (const h of e.hooks ?? []) {
    if (!s.hooks.some((f) => names(h, f.hook))) problems.push(`expected hook ${h} to fire`);
  }
  return { expectation: e, ok: problems.length === 0, problems };
}
