/** core/discovery: the unscoped snapshot is the walk's own while no sources were listed (one scan). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Discovery } from "../../core/discovery/mod.ts";
import { makeWorkspace } from "../support/workspace.ts";

Deno.test("Discovery.current() is walk() until a sources chain lists sources, and again after", async () => {
  const w = await makeWorkspace();
  try {
    await Deno.mkdir(join(w.ws, ".harness", "tools"), { recursive: true });
    await Deno.writeTextFile(join(w.ws, ".harness", "tools", "t"), "#!/bin/sh\n", { mode: 0o755 });
    const d = new Discovery({ cwd: w.ws, home: w.home, isTrusted: () => true });
    const walk = d.walk();
    assert.equal(d.current(), walk, "the same snapshot");
    assert.ok(walk.sources.some((s) => s.dir === join(w.ws, ".harness")));
    d.setListed([w.home]);
    const listed = d.current();
    assert.notEqual(listed, walk);
    assert.deepEqual(listed.sources.map((s) => s.dir), [w.home], "only the listed source");
    assert.equal(d.walk(), walk, "the walk's own is unchanged");
    d.setListed(undefined);
    assert.equal(d.current(), d.walk());
    assert.notEqual(d.current("loop", "anthropic"), walk, "a scoped snapshot is its own");
  } finally {
    await w.cleanup();
  }
});
