/**
 * End-to-end: the `agent` tool runs a child agent loop with its own session
 * and returns its final answer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import {
  loopbackConf,
  makeWorkspace,
  plainBody,
  runHs,
  sessionsOf,
  writeFile,
} from "../support/workspace.ts";

Deno.test("the agent tool runs a sub-agent in its own session and returns its answer", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([
    { toolCalls: [{ id: "toolu_a", name: "agent", input: { prompt: "summarize the repo" } }] },
    { text: "the child's summary" }, // the sub-agent's only request
    { text: "parent got it" },
  ]);
  try {
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const r = await runHs(["delegate"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "parent got it\n");
    // the child's request carried only its own prompt
    const child = plainBody<{ messages: { role: string; content: unknown }[] }>(
      server.requests[1].body,
    );
    assert.deepEqual(child.messages, [{ role: "user", content: "summarize the repo" }]);
    // the parent received the child's final answer as the tool result
    const parent = server.requests[2].body as { messages: { content: { content: string }[] }[] };
    assert.match(parent.messages.at(-1)!.content[0].content, /the child's summary/);
    // two sessions exist: the parent's and the child's
    const sessions = [...Deno.readDirSync(sessionsOf(w))];
    assert.equal(sessions.length, 2);
  } finally {
    await server.close();
    await w.cleanup();
  }
});
