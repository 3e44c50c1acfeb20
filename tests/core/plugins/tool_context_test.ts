/**
 * A tool's context: its child environment is built when the tool reads it (most tools start
 * no child), through the plugin's stale guard too, and is then the tool_exec environment.
 */
import assert from "node:assert/strict";
import { type RuntimePlugin, textResult } from "../../../core/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "./_helpers.ts";

Deno.test("a tool's ctx.env is built on first read, the tool_exec environment, the same object after", async () => {
  const seen: { lazy: boolean; stage?: string; same?: boolean; cwd?: string }[] = [];
  const tools: RuntimePlugin = {
    id: "ctx-tools",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name: "ctx_probe",
        description: "probe",
        inputSchema: { type: "object" },
        execute: (input, c) => {
          const lazy = typeof Object.getOwnPropertyDescriptor(c, "env")?.get === "function";
          if ((input as { read?: boolean }).read) {
            seen.push({ lazy, stage: c.env.HARNESS_STAGE, same: c.env === c.env, cwd: c.cwd });
          } else seen.push({ lazy });
          return Promise.resolve(textResult("ok"));
        },
      });
    },
  };
  const model = scriptedModel([
    {
      calls: [
        { id: "a", name: "ctx_probe", input: {} },
        { id: "b", name: "ctx_probe", input: { read: true } },
      ],
    },
    { text: "done" },
  ]);
  const rig = await makeRig([modelPlugin(model), tools]);
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    assert.deepEqual(seen, [
      { lazy: true },
      { lazy: true, stage: "tool_exec", same: true, cwd: rig.w.ws },
    ]);
  } finally {
    await rig.close();
  }
});
