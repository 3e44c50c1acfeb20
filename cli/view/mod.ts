/**
 * What the command line shows: terminal rendering (styles, sanitizing, the streamed transcript),
 * Markdown, errors, and the views commands and the REPL share (plugins, tools, pack results,
 * rewinds).
 *
 * @module
 */
export {
  colorEnabled,
  jsonForTerminal,
  sanitizeForTerminal,
  type Styles,
  styles,
  TranscriptRenderer,
} from "./render.ts";
export { renderResult, runPackCommand } from "./pack_view.ts";
export { rewoundText } from "./rewind_view.ts";
export { toolsCommand } from "./tools_view.ts";
export {
  fenceLanguage,
  type HighlightRun,
  highlightRuns,
  loadMarkdown,
  type MarkdownLibs,
  markdownLibs,
  MarkdownStream,
  visibleControls,
} from "./markdown.ts";
export { pluginLines, pluginReports } from "./plugins_view.ts";
export { reportError, usageErrorText } from "./errors.ts";
export { printFloor } from "./floor_view.ts";
export { displayWidth, loadTextWidth } from "./text_width.ts";
