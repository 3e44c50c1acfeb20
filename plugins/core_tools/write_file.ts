/**
 * `write_file {path, content}`: creates or atomically replaces a file, creating
 * parent directories; answers `wrote N bytes to <abs path>`.
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
import { errorMessage, errorResult, parseInput, resolveToolPath, toolFs } from "./util.ts";

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() => z.object({ path: z.string(), content: z.string() }));

async function writeFile(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const resolved = resolveToolPath(ctx.cwd, parsed.data.path);
  if (!resolved.ok) return errorResult(resolved.error);
  const path = resolved.path;
  const data = new TextEncoder().encode(parsed.data.content);
  try {
    const fs = toolFs(ctx);
    const info = await fs.stat(path);
    if (info?.isDirectory) return errorResult(`${path} is a directory`);
    await fs.writeFileAtomic(path, data);
  } catch (err) {
    return errorResult(`cannot write ${path}: ${errorMessage(err)}`);
  }
  return textResult(`wrote ${data.length} bytes to ${path}`);
}

/** The `write_file` tool. */
export const writeFileTool: ToolDefinition = {
  name: "write_file",
  description:
    "Create or overwrite a file with the given content. Parent directories are created automatically.",
  describe: "Create or overwrite files",
  inputSchema: {
    type: "object",
    properties: {
      path: {
        type: "string",
        description: "Path to the file (absolute or relative to working directory)",
      },
      content: {
        type: "string",
        description: "Content to write to the file",
      },
    },
    required: ["path", "content"],
  },
  execute: writeFile,
};
