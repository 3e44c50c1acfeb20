/**
 * The core tools as a runtime plugin: `bash`, `read_file`, `write_file`,
 * `edit_file`, `skill` and `agent`, with the reference's names, schemas and
 * output formats, plus the hashline (line anchor) functions they share.
 *
 * @module
 */
import type { RuntimePlugin, ToolDefinition } from "../../core/mod.ts";
import { agentTool } from "./agent.ts";
import { bashTool } from "./bash.ts";
import { editFileTool } from "./edit_file.ts";
import { readFileTool } from "./read_file.ts";
import { skillTool } from "./skill.ts";
import { writeFileTool } from "./write_file.ts";

export { agentTool } from "./agent.ts";
export { bashTool, DEFAULT_TIMEOUT_SECONDS } from "./bash.ts";
export { editFileTool, PRINT_BACK_MAX_LINES } from "./edit_file.ts";
export { DEFAULT_READ_LIMIT, readFileTool } from "./read_file.ts";
export { parseSkillDocument, skillTool } from "./skill.ts";
export { writeFileTool } from "./write_file.ts";
export {
  type Anchor,
  countNewlines,
  formatHashLine,
  formatHashLines,
  HASH_ALPHABET,
  hashLine,
  lineAnchor,
  parseAnchor,
  splitLineBytes,
  stripAnchorPrefix,
} from "./hashline.ts";

/** Every core tool, in a stable order. */
export const coreTools: readonly ToolDefinition[] = [
  bashTool,
  readFileTool,
  writeFileTool,
  editFileTool,
  skillTool,
  agentTool,
];

/** Runtime plugin registering the core tools (`id: "core-tools"`). */
export const coreToolsPlugin: RuntimePlugin = {
  id: "core-tools",
  version: "0.1.0",
  apiVersion: 1,
  setup(ctx) {
    for (const tool of coreTools) ctx.tools.register(tool);
  },
};
