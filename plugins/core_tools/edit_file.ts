/**
 * `edit_file {path, edits}`: anchor-checked line edits (see `edit_apply.ts`),
 * written atomically; small files are printed back with fresh anchors.
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
import {
  applyEdits,
  checkAnchors,
  checkOverlaps,
  EDIT_TYPES,
  editSummaries,
  isCrlf,
  joinLines,
  planEdits,
} from "./edit_apply.ts";
import { countNewlines, formatHashLines, splitLineBytes } from "./hashline.ts";
import {
  errorMessage,
  errorResult,
  looksBinary,
  parseInput,
  resolveToolPath,
  toolFs,
} from "./util.ts";

/** Files with at most this many lines are printed back after an edit. */
export const PRINT_BACK_MAX_LINES = 80;

/** The tool's input, built on its first call. */
const inputSchema = firstUse(() => {
  const editSchema = z.object({
    type: z.string(),
    pos: z.string().nullish(),
    end: z.string().nullish(),
    content: z.union([z.array(z.string()), z.string(), z.null()], {
      error: "must be a list of strings, a string, or null",
    }).optional(),
  });
  return z.object({ path: z.string(), edits: z.array(editSchema) });
});

async function editFile(input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const parsed = parseInput(inputSchema(), input);
  if (!parsed.ok) return parsed.result;
  const resolved = resolveToolPath(ctx.cwd, parsed.data.path);
  if (!resolved.ok) return errorResult(resolved.error);
  const path = resolved.path;
  const fs = toolFs(ctx);

  let original: Uint8Array;
  try {
    const info = await fs.stat(path);
    if (!info) return errorResult(`file not found: ${path}`);
    if (!info.isFile) return errorResult(`file not found: ${path} (not a regular file)`);
    original = await fs.readFile(path);
  } catch (err) {
    return errorResult(`cannot read ${path}: ${errorMessage(err)}`);
  }
  if (looksBinary(original)) return errorResult(`${path} is a binary file; not editing it`);

  const plan = planEdits(parsed.data.edits);
  if (!plan.ok) return errorResult(plan.error);
  const lines = splitLineBytes(original);
  const stale = checkAnchors(plan.value, lines);
  if (stale) return textResult(stale, true);
  const overlap = checkOverlaps(plan.value);
  if (overlap) return errorResult(overlap);

  const updated = joinLines(applyEdits(lines, plan.value, isCrlf(lines)), original);
  try {
    await fs.writeFileAtomic(path, updated);
  } catch (err) {
    return errorResult(`cannot write ${path}: ${errorMessage(err)}`);
  }

  const report = [`edited ${path}:`, ...editSummaries(plan.value).map((s) => `  - ${s}`), ""];
  const total = countNewlines(updated);
  if (total <= PRINT_BACK_MAX_LINES) {
    report.push(formatHashLines(splitLineBytes(updated)));
  } else {
    report.push(`(${total} lines — use read_file to view)`);
  }
  return textResult(report.join("\n").replace(/\n+$/, ""));
}

/** The `edit_file` tool. */
export const editFileTool: ToolDefinition = {
  name: "edit_file",
  description:
    "Edit files using LINE#ID anchors from read_file output. Read the file first, copy anchors " +
    "exactly, then apply edits. Re-read after each successful edit before editing the same file " +
    "again.",
  describe: "Edit files using LINE#HASH anchors from read_file output",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path to the file" },
      edits: {
        type: "array",
        description: "Array of edit operations",
        items: {
          type: "object",
          properties: {
            type: {
              type: "string",
              enum: [...EDIT_TYPES],
              description: "Edit operation type",
            },
            pos: { type: "string", description: "Start anchor LINE#HASH (e.g. '5#ZM')" },
            end: {
              type: "string",
              description: "End anchor LINE#HASH for replace_range (inclusive)",
            },
            content: {
              type: ["array", "string", "null"],
              description: "New content lines (array of strings preferred, null to delete range)",
              items: { type: "string" },
            },
          },
          required: ["type"],
        },
      },
    },
    required: ["path", "edits"],
  },
  execute: editFile,
};
