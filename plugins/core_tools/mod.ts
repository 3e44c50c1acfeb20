/**
 * The core tools as a runtime plugin: `bash`, `read_file`, `write_file`,
 * `edit_file`, `skill` and `agent`, with the reference's names, schemas and
 * output formats, plus the hashline (line anchor) functions they share.
 *
 * @module
 */
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
export { coreTools, coreToolsPlugin } from "./plugin.ts";
