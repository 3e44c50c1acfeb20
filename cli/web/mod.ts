/**
 * `hs web`: the sessions, `/context`, `/plugins` and the plugins' pages in a
 * browser, served by the harness itself on loopback with a per-run token
 * (see docs/web.md). This folder is the server, its pages and its embedded
 * assets; `cli/web.ts` registers the command.
 *
 * @module
 */
export { startWebServer, type WebServer, type WebServerOptions } from "./server.ts";
export {
  type PendingAsk,
  questionText,
  type TurnState,
  WebRuns,
  type WebRunsOptions,
} from "./runs.ts";
export {
  type Admission,
  hostNames,
  isLoopback,
  isWildcard,
  newToken,
  SECURITY_HEADERS,
  WebAccess,
} from "./access.ts";
export { SessionTail, type TailEvent } from "./tail.ts";
export { escapeHtml, Html, markup } from "./html.ts";
export { renderMessage } from "./transcript.ts";
export { view as renderData } from "./data_view.ts";
