/**
 * `read_file {path, offset?, limit?}`: prints a file (or a window of it) as
 * `N#HH:text` lines, the anchors `edit_file` expects.
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
import { countNewlines, formatHashLines, splitLineBytes } from "./hashline.ts";
import {
  errorMessage,
  errorResult,
  looksBinary,
  optionalInteger,
  parseInput,
  resolveToolPath,
  toolFs,
} from "./util.ts";

/** Default of `HARNESS_READ_LIMIT`: longest file read without offset/limit. */
export const DEFAULT_READ_LIMIT = 2000;

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() =>
  z.object({
    path: z.string(),
    offset: optionalInteger(),
    limit: optionalInteger(),
  })
);

async function readFile(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const { offset, limit } = parsed.data;
  if (offset !== undefined && offset < 0) return errorResult("offset must be 1 or more");
  if (limit !== undefined && limit < 1) return errorResult("limit must be 1 or more");
  const resolved = resolveToolPath(ctx.cwd, parsed.data.path);
  if (!resolved.ok) return errorResult(resolved.error);
  const path = resolved.path;

  let bytes: Uint8Array;
  try {
    const fs = toolFs(ctx);
    const info = await fs.stat(path);
    if (!info) return errorResult(`file not found: ${path}`);
    if (info.isDirectory) return errorResult(`file not found: ${path} (it is a directory)`);
    if (!info.isFile) return errorResult(`file not found: ${path} (not a regular file)`);
    bytes = await fs.readFile(path);
  } catch (err) {
    return errorResult(`cannot read ${path}: ${errorMessage(err)}`);
  }
  if (looksBinary(bytes)) {
    return errorResult(
      `${path} is a binary file (${bytes.length} bytes); inspect it with bash (e.g. file, xxd)`,
    );
  }

  const maxLines = ctx.settings?.readLimit ?? DEFAULT_READ_LIMIT;
  const total = countNewlines(bytes);
  if (offset === undefined && limit === undefined && total > maxLines) {
    return errorResult(
      `file has ${total} lines (limit: ${maxLines}). Use offset/limit to read a section, ` +
        `or use a subagent to search/summarize the full file.`,
    );
  }

  const start = Math.max(offset ?? 1, 1);
  const lines = splitLineBytes(bytes);
  const window = lines.slice(start - 1, limit === undefined ? undefined : start - 1 + limit);
  return textResult(formatHashLines(window, start));
}

/** The `read_file` tool (read-only). */
export const readFileTool: ToolDefinition = {
  name: "read_file",
  description:
    "Read the contents of a file. Optionally specify a line range. Returns the file content in " +
    "LINENUM#HASH:content format where #HASH is a 2-character verification anchor.",
  describe: "Read file contents with optional line range",
  readOnly: true,
  inputSchema: {
    type: "object",
    properties: {
      path: {
        type: "string",
        description: "Path to the file (absolute or relative to working directory)",
      },
      offset: {
        type: "integer",
        description: "Line number to start reading from (1-indexed, default: 1)",
      },
      limit: {
        type: "integer",
        description: "Maximum number of lines to read (default: entire file)",
      },
    },
    required: ["path"],
  },
  execute: readFile,
};
