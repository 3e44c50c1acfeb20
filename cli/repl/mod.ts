/**
 * Running the agent from the command line: the REPL (its loop, view, line editor and key
 * decoding, its `/` commands) and one headless message (once.ts).
 *
 * @module
 */
export { sessionUsage, statusText } from "./repl_commands.ts";
export { agentCommand } from "./once.ts";
export { runRepl } from "./repl.ts";
