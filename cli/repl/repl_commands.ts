/**
 * The REPL's long-session commands: `/model`, `/provider` (switch mid-session;
 * the next request uses it and the session records it), `/compact [focus]`,
 * `/cost`, `/tools`, `/context`, and the status line shown before the prompt
 * (provider, model, the next request's tokens against the model's window).
 *
 * @module
 */
import {
  type ContextReport,
  formatTokens,
  type FrontEnd,
  type HarnessEvent,
  type Pricing,
  resolvePricing,
  type Usage,
} from "../../core/mod.ts";
import { cancelOnInterrupt, type CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe, type Styles, toolsCommand } from "../view/mod.ts";

/** What the REPL's commands read and change. */
export interface ReplState {
  /** The current session (undefined: a new one on the next message). */
  session?: string;
  /** The provider and model the next request uses (undefined: the configured defaults). */
  provider?: string;
  model?: string;
}

/** The help lines of these commands. */
export const LONG_SESSION_HELP =
  `/model <name>    use this model from the next request on (the session records it)
/provider <name> use this provider (its default model) from the next request on
/compact [focus] summarize the older turns now (the originals stay on disk)
/context         what the next request holds, by section, with token counts
/cost            tokens used by this session (and money, where the .conf gives prices)
/tools           the tools the model can call`;

/** The command words (for Tab completion). */
export const LONG_SESSION_COMMANDS = [
  "/model",
  "/provider",
  "/compact",
  "/context",
  "/cost",
  "/tools",
];

/** What a command needs. */
export interface ReplCommandEnv {
  h: FrontEnd;
  cli: CliContext;
  st: Styles;
  state: ReplState;
  /** A view that renders the events of a compaction (the transcript's lines). */
  view?: () => { on(e: HarnessEvent): void; stop(): void };
}

/**
 * Runs `line` when it is one of these commands; false when it is not one (the REPL goes
 * on with its own commands).
 */
export async function longSessionCommand(line: string, env: ReplCommandEnv): Promise<boolean> {
  const m = /^(\/\w+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m || !LONG_SESSION_COMMANDS.includes(m[1])) return false;
  const [, word, arg = ""] = m;
  const { cli, st } = env;
  try {
    switch (word) {
      case "/model":
        await switchModel(arg.trim(), env);
        break;
      case "/provider":
        await switchProvider(arg.trim(), env);
        break;
      case "/compact":
        await compactNow(arg.trim(), env);
        break;
      case "/context":
        cli.stdout(contextLines(await report(env), st).join("\n") + "\n");
        break;
      case "/cost":
        cli.stdout((await costLines(env)).join("\n") + "\n");
        break;
      case "/tools":
        await toolsCommand(env.h, cli);
        break;
    }
  } catch (err) {
    const e = err as Error & { hint?: string };
    cli.stdout(
      st.red(`error: ${safe(e.message)}\n`) + (e.hint ? st.dim(`hint: ${safe(e.hint)}\n`) : ""),
    );
  }
  return true;
}

function report(env: ReplCommandEnv): Promise<ContextReport> {
  const { session, provider, model } = env.state;
  return env.h.runs.contextReport({ session, provider, model });
}

async function switchModel(name: string, env: ReplCommandEnv): Promise<void> {
  const { cli, st, state } = env;
  if (!name) {
    const r = await env.h.catalog.resolve(state.provider, state.model);
    cli.stdout(safe(`${r.model || "(the provider's default)"} at ${r.provider}\n`));
    return;
  }
  const was = await env.h.catalog.resolve(state.provider, state.model);
  const r = await env.h.catalog.resolve(state.provider, name);
  state.provider = r.provider;
  state.model = r.model;
  cli.stdout(st.dim(safe(
    `model ${modelName(was.model)} → ${modelName(r.model)} at ${r.provider}` +
      " from the next request on\n",
  )));
}

async function switchProvider(name: string, env: ReplCommandEnv): Promise<void> {
  const { cli, st, state } = env;
  const all = await env.h.catalog.providers();
  if (!name) {
    const current = (await env.h.catalog.resolve(state.provider, state.model)).provider;
    for (const p of all) {
      const mark = p.name === current ? st.green("●") : " ";
      cli.stdout(`${mark} ${safe(p.name)}  ${st.dim(safe(p.origin))}\n`);
    }
    return;
  }
  if (!all.some((p) => p.name === name)) {
    cli.stdout(st.red(safe(`no provider "${name}"`)) + st.dim(" — /provider lists them\n"));
    return;
  }
  const was = await env.h.catalog.resolve(state.provider, state.model);
  const r = await env.h.catalog.resolve(name, "");
  state.provider = r.provider;
  state.model = r.model;
  cli.stdout(st.dim(safe(
    `provider ${was.provider} → ${r.provider}, model ${modelName(was.model)} → ` +
      `${modelName(r.model)} from the next request on\n`,
  )));
}

async function compactNow(focus: string, env: ReplCommandEnv): Promise<void> {
  const { cli, st, state } = env;
  if (!state.session) {
    cli.stdout(st.dim("nothing to compact: no session yet\n"));
    return;
  }
  // Ctrl-C cancels the summary request; the session is then unchanged
  const controller = new AbortController();
  const stopListening = cancelOnInterrupt(
    controller,
    () => cli.stdout(st.yellow("\n^C cancelling the compaction…\n")),
  );
  const view = env.view?.();
  let r;
  try {
    r = await env.h.runs.compact({
      session: state.session,
      provider: state.provider,
      model: state.model,
      focus: focus || undefined,
      signal: controller.signal,
      onEvent: view ? (e) => view.on(e) : undefined,
    });
  } finally {
    view?.stop();
    stopListening();
  }
  if (!r.ok) {
    cli.stdout(st.red(`${safe(r.error)}\n`) + st.dim(`hint: ${safe(r.hint)}\n`));
    return;
  }
  const at = await env.h.catalog.resolve(state.provider, state.model);
  cli.stdout(st.dim(safe(
    `${r.messages} messages summarized by ${modelName(at.model)} at ${at.provider}: ` +
      `the next request ${exact(r.before)} → ${exact(r.after)} tokens (estimated)\n`,
  )));
}

/** A model's name as the user reads it (the provider's default when none is set). */
function modelName(model: string | undefined): string {
  return model || "(the provider's default)";
}

/** A token count in full digits (`12,345`). */
function exact(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The status line: provider, model, the next request's tokens against the window. */
export async function statusLine(env: ReplCommandEnv): Promise<string> {
  const r = await report(env);
  return statusText(r);
}

/** The status text of a context report (see {@link statusLine}). */
export function statusText(r: ContextReport): string {
  const parts = [`${r.provider} · ${r.model || "default model"}`];
  const tokens = `${r.budget.basis === "estimate" ? "≈" : ""}${formatTokens(r.budget.tokens)}`;
  if (r.limits.context) {
    const pct = Math.round((100 * r.budget.tokens) / r.limits.context);
    parts.push(`${tokens} / ${formatTokens(r.limits.context)} tokens (${pct}%)`);
  } else parts.push(`${tokens} tokens`);
  if (r.compacted > 0) parts.push(`${r.compacted} compacted`);
  return safe(parts.join(" · "));
}

/** `/context`: what the next request holds, by section. */
export function contextLines(r: ContextReport, st: Styles): string[] {
  const out: string[] = [];
  const window = r.limits.context;
  out.push(
    `${st.bold("next request")}  ${safe(`${r.provider} · ${r.model || "default model"}`)}` +
      st.dim(`  (${r.budget.basis === "reported" ? "provider-reported + estimate" : "estimate"})`),
  );
  const width = Math.max(...r.sections.map((s) => s.name.length), 5);
  for (const s of r.sections) {
    const items = s.items !== undefined
      ? st.dim(`  ${s.items} item${s.items === 1 ? "" : "s"}`)
      : "";
    out.push(`  ${safe(s.name.padEnd(width))}  ${formatTokens(s.tokens).padStart(6)}${items}`);
  }
  out.push(`  ${"total".padEnd(width)}  ${formatTokens(r.budget.tokens).padStart(6)}`);
  if (window) {
    const pct = Math.round((100 * r.budget.tokens) / window);
    out.push(
      `window ${formatTokens(window)} tokens (${safe(r.limits.source)}), output up to ${
        formatTokens(r.limits.maxOutput ?? 0)
      }; ${pct}% used`,
    );
  } else out.push(st.dim("window unknown (set context= in the provider's .conf)"));
  if (r.compactAt) {
    out.push(st.dim(`compacts past ${formatTokens(r.compactAt)} tokens (HARNESS_COMPACT_AT)`));
  }
  if (r.compacted > 0) {
    out.push(st.dim(`${r.compacted} message files compacted (still on disk)`));
  }
  return out;
}

/** Usage summed over a session's message files, per provider and model. */
export function sessionUsage(
  entries: readonly { usage?: Usage; provider?: string; model?: string }[],
): Map<string, { provider: string; model: string; usage: Usage; requests: number }> {
  const out = new Map<
    string,
    { provider: string; model: string; usage: Usage; requests: number }
  >();
  for (const e of entries) {
    if (!e.usage) continue;
    const provider = e.provider ?? "";
    const model = e.model ?? "";
    const key = `${provider}\u0000${model}`;
    const cur = out.get(key) ??
      { provider, model, usage: { input_tokens: 0, output_tokens: 0 }, requests: 0 };
    cur.usage.input_tokens += e.usage.input_tokens;
    cur.usage.output_tokens += e.usage.output_tokens;
    cur.usage.cache_read_input_tokens = (cur.usage.cache_read_input_tokens ?? 0) +
      (e.usage.cache_read_input_tokens ?? 0);
    cur.usage.cache_creation_input_tokens = (cur.usage.cache_creation_input_tokens ?? 0) +
      (e.usage.cache_creation_input_tokens ?? 0);
    cur.requests++;
    out.set(key, cur);
  }
  return out;
}

/** Dollars of `usage` at `p` (prices per million tokens). */
export function costOf(usage: Usage, p: Pricing): number {
  return (usage.input_tokens * p.input + usage.output_tokens * p.output +
    (usage.cache_read_input_tokens ?? 0) * (p.cacheRead ?? p.input) +
    (usage.cache_creation_input_tokens ?? 0) * (p.cacheWrite ?? p.input)) / 1_000_000;
}

async function costLines(env: ReplCommandEnv): Promise<string[]> {
  const { h, st, state } = env;
  if (!state.session) return [st.dim("no session yet: nothing used")];
  const s = h.sessions.open(state.session);
  s.refresh(false);
  const providers = await h.catalog.providers();
  const out: string[] = [];
  let total = 0;
  let priced = false;
  for (const row of sessionUsage(s.entries()).values()) {
    const u = row.usage;
    const info = providers.find((p) => p.name === row.provider);
    const price = info ? await resolvePricing(info.provider, row.model) : undefined;
    let money = "";
    if (price) {
      const c = costOf(u, price);
      total += c;
      priced = true;
      money = `  $${c.toFixed(4)}`;
    }
    out.push(safe(
      `${row.provider || "?"} · ${row.model || "?"}: ${row.requests} request${
        row.requests === 1 ? "" : "s"
      }, in ${formatTokens(u.input_tokens)}, out ${formatTokens(u.output_tokens)}` +
        `, cache read ${formatTokens(u.cache_read_input_tokens ?? 0)}` +
        `, cache write ${formatTokens(u.cache_creation_input_tokens ?? 0)}${money}`,
    ));
  }
  if (out.length === 0) return [st.dim("no usage recorded in this session yet")];
  out.push(
    priced
      ? `total $${total.toFixed(4)}`
      : st.dim("no prices configured (price_input= / price_output= in the provider's .conf)"),
  );
  return out;
}
