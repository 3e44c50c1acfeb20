/**
 * The text of `hs packs test`'s report: per tool call, the call, each guard's decision, the
 * hooks that fired, the methods that committed and the result; the boundaries a pack acted
 * on; the expectations; a summary line.
 *
 * @module
 */
import {
  type GuardDecision,
  labelOf,
  outcomeOf,
  type PackTestReport,
  type TraceStep,
} from "../../../core/mod.ts";
import { sanitizeForTerminal as safe, type Styles } from "../../view/mod.ts";

const MAX_SHOWN = 200;

function short(v: unknown): string {
  const text = typeof v === "string" ? v : JSON.stringify(v) ?? "";
  const one = text.replace(/\s*\n\s*/g, " ⏎ ");
  return safe(one.length > MAX_SHOWN ? `${one.slice(0, MAX_SHOWN)}…` : one);
}

function decisionLine(d: GuardDecision, st: Styles): string {
  const head = `  guard ${safe(d.guard)}: `;
  const replaced = d.replaced
    ? d.replaced === "kept"
      ? st.yellow(" (replaced the result without the replace capability: the core's is kept)")
      : ` (result replaced: ${d.replaced})`
    : "";
  switch (d.decision) {
    case "allow":
      return `${head}${st.green("allow")}${replaced}`;
    case "rewrite":
      return `${head}${st.yellow("rewrite")} → ${short(d.value)}${replaced}`;
    case "refuse":
      return `${head}${st.red("refuse")} — ${short(d.reason ?? "")}`;
    case "retry":
      return `${head}${st.yellow("retry")} — ${short(d.reason ?? "")}`;
    case "error":
      return `${head}${st.red("ERROR")} — ${short(d.reason ?? "")} (fails closed)`;
  }
}

function stepLines(s: TraceStep, st: Styles): string[] {
  const out = s.kind === "call"
    ? [`${st.bold(`call ${s.n}`)} ${safe(s.tool)} ${short(s.input)}  ${st.dim(safe(s.id))}`]
    : [`${st.bold(s.kind)} ${short(s.input)}`];
  for (const d of s.guards) out.push(decisionLine(d, st));
  for (const h of s.hooks) out.push(`  hook ${safe(h.hook)}: ${h.phase}`);
  if (s.methods.length) out.push(`  methods: ${safe(s.methods.join(", "))}`);
  if (s.commits.length) out.push(`  state: ${safe(s.commits.join(", "))}`);
  for (const n of s.notes) out.push(`  note ${short(n)}`);
  if (s.result) {
    const tag = s.kind === "call" ? ` ${outcomeOf(s)}` : "";
    out.push(`  result${tag}${s.result.error ? " (error)" : ""}: ${short(s.result.text)}`);
  }
  return out;
}

/** The report as lines of text. */
export function renderReport(r: PackTestReport, st: Styles): string[] {
  const out = [
    st.bold(safe(`pack ${r.pack}, bot ${r.bot}`)) +
    st.dim(safe(`  ${r.source} (${r.turns.length} turn(s))`)),
  ];
  for (const s of r.steps) out.push(...stepLines(s, st));
  for (const [i, t] of r.turns.entries()) {
    if (t.error) out.push(st.red(`turn ${i + 1} ended in an error: ${short(t.output)}`));
  }
  for (const n of r.notes) out.push(st.dim(safe(n)));
  if (r.log.length) out.push("log:", ...r.log.map((l) => `  ${short(l)}`));
  if (r.checks.length) out.push("expectations:");
  for (const c of r.checks) {
    const what = safe(`${labelOf(c.expectation)}: ${JSON.stringify(c.expectation)}`);
    if (c.ok) out.push(`  ${st.green("ok")}   ${what}`);
    else out.push(`  ${st.red("FAIL")} ${what}`, ...c.problems.map((p) => `       ${safe(p)}`));
  }
  const calls = r.steps.filter((s) => s.kind === "call").length;
  const decisions = r.steps.reduce((n, s) => n + s.guards.length, 0);
  const failed = r.checks.filter((c) => !c.ok).length;
  const parts = [
    `${calls} tool call(s)`,
    `${decisions} guard decision(s)`,
    ...(r.checks.length
      ? [`${r.checks.length - failed}/${r.checks.length} expectation(s) held`]
      : []),
    ...(r.guardErrors ? [`${r.guardErrors} guard error(s)`] : []),
  ];
  out.push(`${parts.join(", ")}: ${r.passed ? st.green("passed") : st.red("FAILED")}`);
  if (r.kept) out.push(st.dim(safe(`kept: ${r.kept}`)));
  return out;
}
