/**
 * The core tools as one runtime plugin (`core-tools`): the list of their definitions and the plugin that registers them.
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
