/**
 * `bash {command, timeout?}`: runs a command in the session's working directory
 * with the tool environment only; returns combined stdout and stderr.
 *
 * @module
 */
import { z } from "zod";
import { firstUse } from "../../core/early/mod.ts";
import {
  DEFAULT_RESULT_FILE_LIMIT,
  textResult,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../../core/mod.ts";
import { DEFAULT_OUTPUT_LIMITS } from "./output_cap.ts";
import { runShell } from "./shell.ts";
import {
  errorMessage,
  errorResult,
  parseInput,
  statOrUndefined,
  trimTrailingNewlines,
} from "./util.ts";

/** Default timeout in seconds (`HARNESS_TOOL_TIMEOUT` overrides it). */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() =>
  z.object({
    command: z.string(),
    timeout: z.union([
      z.number(),
      z.string().regex(/^\s*[0-9]+(\.[0-9]+)?\s*$/).transform(Number),
    ], { error: "must be a number of seconds" }).nullish(),
  })
);

async function bash(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const { command } = parsed.data;
  if (command.includes("\0")) return errorResult("command contains a NUL byte");
  const timeout = parsed.data.timeout ??
    (ctx.settings ? ctx.settings.toolTimeoutMs / 1000 : DEFAULT_TIMEOUT_SECONDS);
  if (!(timeout > 0) || !Number.isFinite(timeout)) {
    return errorResult("timeout must be a positive number of seconds");
  }
  const cwdInfo = await statOrUndefined(ctx.cwd).catch(() => undefined);
  if (!cwdInfo?.isDirectory) return errorResult(`working directory not found: ${ctx.cwd}`);

  let outcome;
  try {
    outcome = await runShell({
      command,
      cwd: ctx.cwd,
      env: { ...ctx.env },
      timeoutMs: Math.min(timeout * 1000, 2 ** 31 - 1),
      signal: ctx.signal,
      sandbox: ctx.effects?.sandbox,
      limits: {
        maxBytes: ctx.settings?.resultLimit ?? DEFAULT_OUTPUT_LIMITS.maxBytes,
        maxLines: DEFAULT_OUTPUT_LIMITS.maxLines,
      },
      spill: {
        sessionDir: ctx.sessionDir,
        callId: ctx.callId,
        maxBytes: ctx.settings?.resultFileLimit ?? DEFAULT_RESULT_FILE_LIMIT,
      },
    });
  } catch (err) {
    return errorResult(`cannot run bash: ${errorMessage(err)}`);
  }
  if (outcome.refused) return errorResult(outcome.refused);

  const parts = [trimTrailingNewlines(outcome.output)].filter((p) => p !== "");
  let isError = false;
  if (outcome.overflow) {
    parts.push(
      "error: the command printed more than HARNESS_RESULT_FILE_LIMIT allows (its process group was stopped)",
    );
    isError = true;
  } else if (outcome.aborted) {
    parts.push("error: command aborted (its process group was killed)");
    isError = true;
  } else if (outcome.timedOut) {
    parts.push(`error: command timed out after ${timeout}s (its process group was killed)`);
    isError = true;
  } else if (outcome.code !== 0) {
    parts.push(`exit code: ${outcome.code}`);
    isError = true;
  }
  return textResult(parts.join("\n\n"), isError);
}

/** The `bash` tool. */
export const bashTool: ToolDefinition = {
  name: "bash",
  description:
    "Execute a bash command in the working directory. Returns combined stdout and stderr. Use " +
    "for running scripts, installing packages, file operations, or any shell command.",
  describe: "Execute bash commands",
  inputSchema: {
    type: "object",
    properties: {
      command: { type: "string", description: "The bash command to execute" },
      timeout: { type: "integer", description: "Timeout in seconds (default: 120)" },
    },
    required: ["command"],
  },
  execute: bash,
};
