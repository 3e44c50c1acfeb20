/**
 * A tool that returns something other than `{content: [{type: "text", text}]}` (a string,
 * `{}`, `{content: [null]}`) does not end the turn (issue 27 point 12: it ended with
 * "Cannot read properties of undefined (reading 'map')" while the audit recorded `ok`): the
 * call becomes an error result that says what was wrong, the audit records an error, and the
 * turn goes on to the model's next answer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RuntimePlugin, ToolResult } from "../../core/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { makeWorkspace } from "../support/workspace.ts";

const returns: Record<string, unknown> = {
  bad_string: "just text",
  bad_empty: {},
  bad_null_block: { content: [null] },
  bad_number_text: { content: [{ type: "text", text: 42 }] },
};

const badTools: RuntimePlugin = {
  id: "bad-tools",
  version: "1",
  apiVersion: 1,
  setup(ctx) {
    for (const [name, value] of Object.entries(returns)) {
      ctx.tools.register({
        name,
        description: name,
        inputSchema: { type: "object" },
        execute: () => Promise.resolve(value as ToolResult),
      });
    }
  },
};

Deno.test("a malformed tool result becomes an error result; the audit says error; the turn goes on", async () => {
  const w = await makeWorkspace();
  const audit = join(w.root, "audit.jsonl");
  const payloads: unknown[] = [];
  const model = scriptedModel([
    { calls: Object.keys(returns).map((name, i) => ({ id: `c${i}`, name, input: {} })) },
    { text: "carried on" },
  ]);
  const send = model.send.bind(model);
  model.send = (payload, m, o) => {
    payloads.push(structuredClone(payload));
    return send(payload, m, o);
  };
  const rig = await makeRig([modelPlugin(model), badTools], {
    config: { runtimePlugins: [{ id: "audit-jsonl", config: { path: audit } }] },
  }, w);
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "carried on");
    const second = JSON.stringify(payloads[1]);
    for (const name of Object.keys(returns)) {
      assert.match(second, new RegExp(`tool '${name}' returned a malformed result`));
    }
    assert.match(second, /"is_error":true/);
    await rig.h.close();
    const events = (await Deno.readTextFile(audit)).trim().split("\n").map((l) => JSON.parse(l));
    const runs = events.filter((e) => e.type === "tool_execution");
    assert.equal(runs.length, 4);
    assert.deepEqual(runs.map((e) => e.outcome), ["error", "error", "error", "error"]);
  } finally {
    await rig.close();
  }
});
