/**
 * `hs acp`'s room: the Agent Client Protocol served on stdin/stdout (serve.ts), one method
 * per request (agent.ts), what the editor is shown (describe.ts), and the size limit of one
 * message (limit.ts). The command itself is cli/commands/acp.ts.
 *
 * @module
 */
export { type AcpIo, serveAcp } from "./serve.ts";
export { AcpAgent, type AcpFlags, type AcpSdk } from "./agent.ts";
export { describeCall, promptText, replayUpdates, turnUpdates } from "./describe.ts";
export {
  idOfHead,
  limitLines,
  MAX_ACP_MESSAGE_BYTES,
  sharedOutput,
  tooLargeAnswer,
} from "./limit.ts";
