/**
 * `hs acp`: the Agent Client Protocol (ACP v1) on stdin/stdout, for editors such as Zed,
 * built on `@agentclientprotocol/sdk`. Sessions are hs's session directories:
 *
 * - `initialize` advertises `loadSession` and embedded context in prompts;
 * - `session/new` resolves the provider and model and creates a session in the
 *   `HARNESS_SESSIONS` of its `cwd`; `session/load` replays one (user, agent, thought and
 *   tool call updates) so the editor shows the conversation;
 * - `session/prompt` runs one turn: text and thinking stream as agent message and thought
 *   chunks, each tool call is a `tool_call` (pending when the model asks for it) updated to
 *   in progress and then completed or failed with its result;
 * - `session/cancel` cancels the running turn (stop reason `cancelled`);
 * - the effect floor's `ask` becomes `session/request_permission` (allow once, allow
 *   always for this session, reject).
 *
 * One harness per working directory, for the connection's lifetime. Nothing but ACP
 * messages is written to stdout; diagnostics go to stderr and `HARNESS_LOG`. Each request
 * is a method of {@link AcpAgent} (agent.ts); this file connects them to the streams.
 *
 * @module
 */
import type { CliContext } from "../base/mod.ts";
import { AcpAgent, type AcpFlags } from "./agent.ts";
import { idOfHead, limitLines, sharedOutput, tooLargeAnswer } from "./limit.ts";

/** The byte streams ACP runs over (stdin/stdout for `hs acp`). */
export interface AcpIo {
  /** What the client sends. */
  input: ReadableStream<Uint8Array>;
  /** Where the answers go. */
  output: WritableStream<Uint8Array>;
}

/** Serves ACP over `io` until the client closes the connection; resolves to the exit code. */
export async function serveAcp(cli: CliContext, flags: AcpFlags, io: AcpIo): Promise<number> {
  const acp = await import("@agentclientprotocol/sdk");
  const { methods } = acp;
  const agent = new AcpAgent(acp, cli, flags);
  const app = acp.agent({ name: "hs" })
    .onRequest(methods.agent.initialize, ({ params }) => agent.initialize(params))
    .onRequest(methods.agent.session.new, ({ params }) => agent.newSession(params))
    .onRequest(
      methods.agent.session.load,
      ({ params, client }) => agent.loadSession(params, client),
    )
    .onRequest(
      methods.agent.session.prompt,
      ({ params, client, signal }) => agent.prompt(params, client, signal),
    )
    .onRequest(methods.agent.session.setMode, ({ params }) => agent.setMode(params))
    .onNotification(methods.agent.session.cancel, ({ params }) => agent.cancel(params));

  // a message over the limit is answered with an error, and the connection goes on
  const output = sharedOutput(io.output);
  const input = limitLines(io.input, async (head, bytes) => {
    const answer = tooLargeAnswer(idOfHead(new TextDecoder().decode(head)), bytes);
    cli.stderr(`hs acp: a message of ${bytes} bytes was refused (the limit is 32 MiB)\n`);
    await output.write(new TextEncoder().encode(answer));
  });
  const connection = app.connect(acp.ndJsonStream(output.stream, input));
  await connection.closed;
  await agent.close();
  return 0;
}
