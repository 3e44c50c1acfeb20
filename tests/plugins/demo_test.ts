/** `deno task demo:plugins` works offline: four plugins, one tool-using turn, audit and lifecycle seen. */
import assert from "node:assert/strict";
import { runPluginDemo } from "../../demo/plugins/run.ts";

Deno.test("the four-plugin demo runs offline", async () => {
  const lines: string[] = [];
  const r = await runPluginDemo((l) => lines.push(l));
  assert.equal(r.result.error, false, r.result.message);
  assert.match(r.result.output, /5 words, and ticket HS-42 is open/);
  for (const id of ["demo-model", "demo-tools", "demo-audit", "tickets"]) {
    assert.ok(r.status.includes(`${id} 1.0.0 active`), r.status.join(","));
  }
  assert.deepEqual(
    r.audit.map((e) => `${e.type}:${e.tool}`),
    [
      "permission:word_count",
      "tool_execution:word_count",
      "permission:tickets__lookup",
      "tool_execution:tickets__lookup",
    ],
  );
  assert.deepEqual(r.lifecycle, [
    "turn 1 started",
    "word_count done (ok)",
    "tickets__lookup done (ok)",
    "turn ended after 2 rounds",
  ]);
  assert.ok(lines.some((l) => l.includes("tickets__lookup → HS-42: open, assigned to ada")));
});
