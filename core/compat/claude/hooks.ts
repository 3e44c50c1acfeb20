/**
 * Claude Code's `hooks` at the hs stages that match them:
 *
 * | event | where in hs | blocking (exit 2, or a JSON decision) |
 * | --- | --- | --- |
 * | `PreToolUse` | `tool_exec/05-claude` — before the call enters the seam | the call is answered with the reason as an error result (the model reads it) |
 * | `PostToolUse` | `tool_done/05-claude` — before the result is saved | the reason is appended to the result the model reads |
 * | `SessionStart` | `start/20-claude` — a session's first turn in this process | — (its stdout / `additionalContext` is context for the turn) |
 * | `UserPromptSubmit` | `start/20-claude` — each turn | the turn ends with the reason as its output, the model is not asked |
 * | `Stop` | a loop-end addendum — the model ended a round | the reason is the next round's closing user message |
 *
 * Each hook runs in the OS sandbox like every hook ({@link runClaudeHook}); its input has
 * `session_id`, `transcript_path`, `cwd`, `hook_event_name` and the event's own fields
 * (`tool_name`, `tool_input`, `tool_response`, `prompt`, `source`, `stop_hook_active`), with
 * hs's tools named as Claude Code names them (`tool_names.ts`).
 *
 * @module
 */
import { type LoopEndInfo, type StageHook, stageHook, type TurnApi } from "../../loop/mod.ts";
import { type HookAnswer, type HookRunDeps, runClaudeHook } from "./hook_run.ts";
import type { ClaudeLayout } from "./layout.ts";
import { type ClaudeHook, type HookEvent, matches, readSettings } from "./settings.ts";
import { claudeToolInput, claudeToolName } from "./tool_names.ts";

type Json = Record<string, unknown>;

/** The command hooks of an event, in settings order (user, then projects from `/` down). */
export function hooksOf(layout: ClaudeLayout, event: HookEvent, value?: string): ClaudeHook[] {
  const out: ClaudeHook[] = [];
  for (const f of layout.current().settingsFiles) {
    for (const h of readSettings(f)?.hooks ?? []) {
      if (h.event === event && (value === undefined || matches(h.matcher, value))) out.push(h);
    }
  }
  return out;
}

/** Runs the hooks of an event in order; stops at the first that blocks. */
async function runAll(
  hooks: ClaudeHook[],
  input: Json,
  deps: HookRunDeps,
  where: { cwd: string; signal?: AbortSignal; stage: string; session?: string },
): Promise<{ blocked?: HookAnswer; context: string[]; failed?: string; stop?: string }> {
  const context: string[] = [];
  let failed: string | undefined;
  for (const h of hooks) {
    const a = await runClaudeHook(h, input, deps, where);
    if (a.context) context.push(a.context);
    if (a.failed) failed ??= `${h.command}: ${a.failed}`;
    if (a.stop) return { context, stop: a.stop, failed };
    if (a.blocked) return { blocked: a, context, failed };
  }
  return { context, failed };
}

function common(t: TurnApi, cwd: string): Json {
  return {
    session_id: t.session.id,
    transcript_path: t.session.dir,
    cwd,
    permission_mode: "default",
  };
}

/** A sub-agent's turn (Claude Code runs no session, prompt or stop hooks for those). */
const subAgent = (principal: unknown) =>
  typeof principal === "string" && principal.startsWith("agent:");

const note = (t: TurnApi, message: string) =>
  t.continuation.add({ kind: "ambient", from: "claude-code hooks", message, boundary: "round" });

/** The stage hooks that run Claude Code's hooks, and its `Stop` hooks as a loop-end addendum. */
export function claudeHooks(layout: ClaudeLayout, deps: HookRunDeps): {
  stageHooks: StageHook[];
  stop: (info: LoopEndInfo) => Promise<string | undefined>;
} {
  const started = new Set<string>();
  const stopping = new Map<string, number>();
  const cwdOf = (t: TurnApi) => t.session.conf.cwd || layout.cwd;

  const preToolUse = stageHook({
    stage: "tool_exec",
    name: "05-claude",
    run: async (input, ctx) => {
      const t = ctx.turn;
      const queue = Array.isArray(input.tool_calls) ? input.tool_calls as Json[] : [];
      if ((typeof input.call_id === "string" && "result" in input) || queue.length === 0) {
        return input;
      }
      const [call, ...rest] = queue;
      const name = String(call.name ?? "");
      const hooks = hooksOf(layout, "PreToolUse", claudeToolName(name));
      if (hooks.length === 0) return input;
      const cwd = cwdOf(t);
      const r = await runAll(
        hooks,
        {
          ...common(t, cwd),
          tool_name: claudeToolName(name),
          tool_input: claudeToolInput(name, call.input, cwd),
          tool_use_id: call.id,
        },
        deps,
        { cwd, signal: t.signal, stage: "tool_exec", session: t.session.dir },
      );
      for (const c of r.context) note(t, c);
      const why = r.blocked?.reason ?? r.stop ??
        (r.failed ? `a PreToolUse hook could not run (${r.failed}), so the call is refused` : "");
      if (!why) return input;
      return {
        call_id: call.id,
        name,
        input: call.input ?? {},
        result: `error: blocked by a PreToolUse hook: ${why}`,
        error: true,
        claude_blocked: true,
        tool_calls: rest,
        next_state: "tool_done",
      };
    },
  });

  const postToolUse = stageHook({
    stage: "tool_done",
    name: "05-claude",
    run: async (input, ctx) => {
      if (input.claude_blocked === true) {
        const { claude_blocked: _, ...rest } = input;
        return rest;
      }
      const name = String(input.name ?? "");
      const hooks = hooksOf(layout, "PostToolUse", claudeToolName(name));
      if (hooks.length === 0) return input;
      const t = ctx.turn;
      const cwd = cwdOf(t);
      const result = typeof input.result === "string" ? input.result : JSON.stringify(input.result);
      const r = await runAll(
        hooks,
        {
          ...common(t, cwd),
          tool_name: claudeToolName(name),
          tool_input: claudeToolInput(name, input.input, cwd),
          tool_response: { output: result, is_error: input.error === true },
          tool_use_id: input.call_id,
        },
        deps,
        { cwd, signal: t.signal, stage: "tool_done", session: t.session.dir },
      );
      const extra = [...r.context, ...(r.blocked ? [r.blocked.reason] : [])];
      if (r.stop) extra.push(`stop: ${r.stop}`);
      if (extra.length === 0) return input;
      return { ...input, result: `${result}\n\n[PostToolUse hook] ${extra.join("\n")}` };
    },
  });

  const promptHooks = stageHook({
    stage: "start",
    name: "20-claude",
    run: async (input, ctx) => {
      const t = ctx.turn;
      if (subAgent((t as { principal?: unknown }).principal)) return input;
      const cwd = cwdOf(t);
      const where = { cwd, signal: t.signal, stage: "start", session: t.session.dir };
      const first = !started.has(t.session.dir);
      started.add(t.session.dir);
      const submit = hooksOf(layout, "UserPromptSubmit");
      const starting = first && hooksOf(layout, "SessionStart").length > 0;
      if (!starting && submit.length === 0) return input;
      const msgs = t.session.messages(); // read only when a hook needs it
      const users = msgs.filter((m) => m.role === "user");
      if (starting) {
        const source = users.length > 1 ? "resume" : "startup";
        const hooks = hooksOf(layout, "SessionStart", source);
        if (hooks.length) {
          const r = await runAll(hooks, { ...common(t, cwd), source }, deps, where);
          for (const c of r.context) note(t, c);
        }
      }
      const hooks = submit;
      if (hooks.length === 0) return input;
      const last = users.at(-1);
      const prompt = last && last.role === "user" ? last.text : "";
      const r = await runAll(hooks, { ...common(t, cwd), prompt }, deps, where);
      for (const c of r.context) note(t, c);
      const why = r.blocked?.reason ?? r.stop;
      if (!why) return input;
      return { output: `prompt blocked by a UserPromptSubmit hook: ${why}`, next_state: "done" };
    },
  });

  const stop = async (info: LoopEndInfo): Promise<string | undefined> => {
    const hooks = hooksOf(layout, "Stop");
    if (hooks.length === 0 || subAgent(info.principal)) return undefined;
    const times = stopping.get(info.session) ?? 0;
    if (times >= 5) {
      stopping.delete(info.session);
      return undefined;
    }
    const cwd = layout.cwd;
    const r = await runAll(
      hooks,
      {
        session_id: info.session,
        transcript_path: "",
        cwd,
        permission_mode: "default",
        stop_hook_active: times > 0,
      },
      deps,
      { cwd, stage: "done" },
    );
    if (!r.blocked) {
      stopping.delete(info.session);
      return undefined;
    }
    stopping.set(info.session, times + 1);
    return r.blocked.reason || "a Stop hook asks you to go on";
  };

  return { stageHooks: [preToolUse, postToolUse, promptHooks], stop };
}
