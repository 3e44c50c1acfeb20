/**
 * Scripted loopback LLM server for demos and end-to-end tests.
 *
 * ```ts
 * const server = await startScriptedServer([{ text: "hello" }]);
 * // point a provider at `${server.url}/v1/messages` …
 * await server.close();
 * ```
 *
 * @module
 */
export { startScriptedServer } from "./server.ts";
export type {
  RecordedRequest,
  ScriptedFault,
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedToolCall,
  ScriptedTurn,
} from "./types.ts";
