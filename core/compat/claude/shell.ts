/**
 * The `!command` lines of a slash command, run as a `bash` tool call through the
 * effect seam — the guards, the floor's rules (a `Bash(…)` deny rule included) and the
 * OS sandbox — by the registered `bash` tool, outside any turn.
 *
 * @module
 */
import {
  resultText,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../../base/mod.ts";
import type { EffectCall } from "../../guards/mod.ts";

/** What running a command line needs. */
export interface ShellDeps {
  /** The effect seam. */
  dispatch(call: EffectCall, core: (input: unknown) => Promise<ToolResult>): Promise<ToolResult>;
  /** The registered `bash` tool, if any. */
  bash(): ToolDefinition | undefined;
  /** The tool context of a call outside a turn (its cwd, environment, floor). */
  context(signal: AbortSignal, callId: string): ToolContext;
}

let seq = 0;

/** Runs `command` as the `bash` tool through the seam; resolves to what it printed. */
export function shellThroughSeam(deps: ShellDeps) {
  return async (command: string, session?: string): Promise<string> => {
    const bash = deps.bash();
    if (!bash) return `error: no bash tool to run \`${command}\``;
    const signal = new AbortController().signal;
    const callId = `command-${++seq}`;
    const r = await deps.dispatch(
      {
        point: "shell",
        tool: "bash",
        owner: { kind: "builtin", id: "claude-code" },
        principal: "main",
        callId,
        input: { command },
        session,
      },
      (input) => bash.execute(input, deps.context(signal, callId)),
    );
    return resultText(r).replace(/\n+$/, "");
  };
}
