import assert from "node:assert/strict";
import type { SubAgentRequest } from "../../../core/mod.ts";
import { agentTool } from "../../../plugins/core_tools/mod.ts";
import { makeCtx, run } from "./helpers.ts";

Deno.test("agent: calls ctx.runAgent and returns its final output", async () => {
  const seen: SubAgentRequest[] = [];
  const controller = new AbortController();
  const ctx = makeCtx("/tmp", {
    signal: controller.signal,
    runAgent: (req) => {
      seen.push(req);
      return Promise.resolve({ output: "the answer\n", sessionDir: "/s/1", error: false });
    },
  });
  const r = await run(agentTool, { prompt: "find it", model: "m1", provider: " " }, ctx);
  assert.deepEqual(r, { text: "the answer", isError: false });
  assert.equal(seen.length, 1);
  assert.equal(seen[0].prompt, "find it");
  assert.equal(seen[0].model, "m1");
  assert.equal(seen[0].provider, undefined);
  assert.equal(seen[0].signal, controller.signal);
});

Deno.test("agent: empty output, failures and missing support", async () => {
  const ok = (output: string, error = false) =>
    makeCtx("/tmp", { runAgent: () => Promise.resolve({ output, sessionDir: "", error }) });
  assert.deepEqual(await run(agentTool, { prompt: "p" }, ok("")), {
    text: "subagent completed with no output",
    isError: false,
  });
  assert.deepEqual(await run(agentTool, { prompt: "p" }, ok("boom", true)), {
    text: "boom",
    isError: true,
  });
  const throwing = makeCtx("/tmp", { runAgent: () => Promise.reject(new Error("no provider")) });
  assert.deepEqual(await run(agentTool, { prompt: "p" }, throwing), {
    text: "error: subagent failed: no provider",
    isError: true,
  });
  assert.deepEqual(await run(agentTool, { prompt: "p" }, makeCtx("/tmp")), {
    text: "error: sub-agents are not available in this session",
    isError: true,
  });
  assert.deepEqual(await run(agentTool, {}, ok("x")), {
    text: "error: prompt is required",
    isError: true,
  });
  assert.deepEqual(await run(agentTool, { prompt: "p", model: 7 }, ok("x")), {
    text: "error: model must be a string",
    isError: true,
  });
});
