/**
 * Item 8: with a reference-style `send/10-send` that runs streamed tool calls as they
 * arrive and leaves their results in `.tool_dispatch/`, the built-in `tool_exec/10-exec`
 * uses those results instead of running each tool a second time. The call still passes
 * the effect seam (its floor decision and audit), and a denied call's result is withheld.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { dispatchedResult } from "../../core/loop/tool_dispatch.ts";
import { makeWorkspace, runHs, writeFile } from "../support/workspace.ts";
import { DISPATCH_SEND_HOOK, FIFO_PROVIDER, install, TALLY_TOOL } from "./kit.ts";

Deno.test("tools pre-run by a dispatching send hook run once; 10-exec uses .tool_dispatch/", async () => {
  const w = await makeWorkspace();
  try {
    await install(join(w.ws, ".harness"), {
      "providers/fifo": FIFO_PROVIDER,
      "hooks.d/send/10-send": DISPATCH_SEND_HOOK,
      "tools/tally": TALLY_TOOL,
    });
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=fifo\n");
    const r = await runHs(["--json", "count"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).output, "tallied: run 1");
    assert.equal(Deno.readTextFileSync(join(w.ws, "runs.log")), "ran\n", "the tool ran once");
    assert.match(Deno.readTextFileSync(join(w.root, "harness.log")), /tool pre-dispatched: tally/);

    // a rule that denies the call: the seam still decides, the dispatched result is withheld
    await writeFile(
      join(w.home, "floor.json"),
      JSON.stringify({ rules: { deny: ["tally"] } }),
    );
    Deno.removeSync(join(w.ws, "runs.log"));
    const d = await runHs(["--json", "count"], { cwd: w.ws, env: w.env });
    assert.equal(d.code, 0, d.stderr);
    const out = JSON.parse(d.stdout).output as string;
    assert.match(out, /^tallied: .*permission denied/s);
    assert.doesNotMatch(out, /run 1/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("dispatched results: only well-formed files of safe call ids are used", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-dispatch-" });
  try {
    await writeFile(join(dir, ".tool_dispatch", "c1.json"), '{"result":"ok","error":false}');
    await writeFile(join(dir, ".tool_dispatch", "c2.json"), '{"result":"bad","error":"true"}');
    await writeFile(join(dir, ".tool_dispatch", "c3.json"), "not json");
    await writeFile(join(dir, "secret.json"), '{"result":"outside"}');
    assert.deepEqual(dispatchedResult(dir, "c1"), { result: "ok", error: false });
    assert.deepEqual(dispatchedResult(dir, "c2"), { result: "bad", error: true });
    assert.equal(dispatchedResult(dir, "c3"), undefined);
    assert.equal(dispatchedResult(dir, "missing"), undefined);
    assert.equal(dispatchedResult(dir, "../secret"), undefined);
    assert.equal(dispatchedResult(dir, ".."), undefined);
    assert.equal(dispatchedResult("", "c1"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
