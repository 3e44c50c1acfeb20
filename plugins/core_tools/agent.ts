/**
 * `agent {prompt, bot?, model?, provider?, tools?}`: runs a child agent loop through
 * `ctx.runAgent` — as a named bot of a behavior pack when `bot` is given, holding at most the
 * `tools` it asks for (and never more than its parent) — and returns its final output.
 *
 * @module
 */
import { z } from "zod";
import { firstUse } from "../../core/early/mod.ts";
import {
  textResult,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "../../core/mod.ts";
import { errorMessage, errorResult, parseInput, trimTrailingNewlines } from "./util.ts";

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() => {
  const optionalName = z.string().nullish().transform((v) => v?.trim() || undefined);
  return z.object({
    prompt: z.string(),
    bot: optionalName,
    agent: optionalName,
    model: optionalName,
    provider: optionalName,
    tools: z.array(z.string()).nullish().transform((v) => v ?? undefined),
  });
});

async function agent(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const { prompt, bot, agent: named, model, provider, tools } = parsed.data;
  if (prompt.trim() === "") return errorResult("prompt is required");
  if (!ctx.runAgent) return errorResult("sub-agents are not available in this session");
  try {
    const result = await ctx.runAgent({
      prompt,
      bot,
      agent: named,
      model,
      provider,
      tools,
      signal: ctx.signal,
    });
    const output = trimTrailingNewlines(result.output);
    if (result.error) return textResult(output || "error: subagent failed with no output", true);
    return textResult(output || "subagent completed with no output");
  } catch (err) {
    return errorResult(`subagent failed: ${errorMessage(err)}`);
  }
}

/** The `agent` tool (sub-agents). */
export const agentTool: ToolDefinition = {
  name: "agent",
  description:
    "Spawn a subagent to handle a complex or independent task. The subagent runs a full agent " +
    "loop with its own session, then returns its final output. Use for tasks that benefit from " +
    "focused, isolated execution.",
  describe: "Spawn a subagent to handle a task",
  inputSchema: {
    type: "object",
    properties: {
      prompt: {
        type: "string",
        description:
          "The task for the subagent to perform. Be specific — include context, expected output, and constraints.",
      },
      bot: {
        type: "string",
        description: "A named agent to run as (optional): a pack's bot or a project agent",
      },
      model: {
        type: "string",
        description: "Model override (optional, defaults to the provider's default model)",
      },
      provider: {
        type: "string",
        description: "Provider override (optional, defaults to parent's provider)",
      },
      tools: {
        type: "array",
        items: { type: "string" },
        description:
          "The tools the subagent may use (optional; it never holds a tool you do not hold)",
      },
    },
    required: ["prompt"],
  },
  execute: agent,
};
