/**
 * Runs one Claude Code command hook the way that ecosystem does — `sh -c <command>`
 * with the event's JSON on stdin and `CLAUDE_PROJECT_DIR` set — inside hs's OS
 * sandbox like every hook, and reads its answer: exit 0 (stdout may hold a JSON
 * decision, or for `UserPromptSubmit` / `SessionStart` plain text that becomes
 * context), exit 2 (blocks; stderr is the reason), anything else (a non-blocking
 * error, logged).
 *
 * @module
 */
import type { ChildSandbox } from "../../base/mod.ts";
import { runExecutable, systemBinary } from "../../exec/mod.ts";
import type { ClaudeHook } from "./settings.ts";

/** What running the hooks of a stage needs. */
export interface HookRunDeps {
  /** The environment of a hook of `stage` (the `HARNESS_*` set, no provider key). */
  env(stage: string, session?: string): Record<string, string>;
  /** The OS sandbox hooks run in. */
  sandbox: ChildSandbox;
  /** HARNESS_LOG. */
  log(line: string): void;
}

/** A hook's answer. */
export interface HookAnswer {
  /** The hook blocks (exit 2, `decision: "block"`, `permissionDecision: "deny"`). */
  blocked: boolean;
  /** Why (exit 2's stderr, or the JSON's reason). */
  reason: string;
  /** Context to add for the model (`additionalContext`, or plain stdout where that counts). */
  context?: string;
  /** `continue: false`: stop the turn, with `stopReason`. */
  stop?: string;
  /** hs could not run the hook (sandbox refusal, not found, timeout). */
  failed?: string;
}

type Json = Record<string, unknown>;

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Runs one hook with `input` on stdin; never throws. */
export async function runClaudeHook(
  hook: ClaudeHook,
  input: Json,
  deps: HookRunDeps,
  where: { cwd: string; signal?: AbortSignal; stage: string; session?: string },
): Promise<HookAnswer> {
  const sh = systemBinary("sh") ?? "/bin/sh";
  const r = await runExecutable(sh, {
    args: ["-c", hook.command],
    stdin: JSON.stringify({ ...input, hook_event_name: hook.event }),
    env: { ...deps.env(where.stage, where.session), CLAUDE_PROJECT_DIR: hook.projectDir },
    cwd: where.cwd,
    timeoutMs: hook.timeout * 1000,
    signal: where.signal,
    sandbox: deps.sandbox,
    keepEnv: ["CLAUDE_PROJECT_DIR"],
    what: `Claude Code hook ${hook.event} of ${hook.file}`,
    maxStdoutBytes: 1024 * 1024,
  });
  const label = `[claude] ${hook.event} hook \`${hook.command}\` (${hook.file})`;
  if (r.timedOut || r.aborted || r.code === 126 || r.code === 127) {
    const why = r.timedOut
      ? `timed out after ${hook.timeout} s`
      : r.aborted
      ? "cancelled"
      : `could not run: ${r.stderr.trim().split("\n").slice(-2).join(" ")}`;
    deps.log(`${label} ${why}`);
    return { blocked: false, reason: "", failed: why };
  }
  if (r.code === 2) {
    return { blocked: true, reason: r.stderr.trim() || `blocked by ${hook.command}` };
  }
  if (r.code !== 0) {
    deps.log(`${label} exited ${r.code}: ${r.stderr.trim()}`);
    return { blocked: false, reason: "" };
  }
  return answerOf(r.stdout.trim(), hook.event);
}

/** Reads an exit-0 hook's stdout. */
function answerOf(out: string, event: string): HookAnswer {
  let json: Json | undefined;
  if (out.startsWith("{")) {
    try {
      const v = JSON.parse(out);
      if (v && typeof v === "object" && !Array.isArray(v)) json = v as Json;
    } catch { /* plain text */ }
  }
  const plainContext = event === "UserPromptSubmit" || event === "SessionStart";
  if (!json) return { blocked: false, reason: "", context: plainContext && out ? out : undefined };
  const specific = (json.hookSpecificOutput ?? {}) as Json;
  const answer: HookAnswer = { blocked: false, reason: "" };
  if (json.continue === false) answer.stop = str(json.stopReason) || "stopped by a hook";
  if (str(specific.additionalContext)) answer.context = str(specific.additionalContext);
  const permission = str(specific.permissionDecision);
  if (permission === "deny" || permission === "ask") {
    answer.blocked = true;
    answer.reason = str(specific.permissionDecisionReason) ||
      (permission === "ask" ? "a hook asks for approval, which hs refuses" : "denied by a hook");
  } else if (json.decision === "block" || json.decision === "deny") {
    answer.blocked = true;
    answer.reason = str(json.reason) || "blocked by a hook";
  }
  return answer;
}
