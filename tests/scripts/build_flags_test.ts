/** The V8 flags of a run through the launcher: deno.json's tasks.hs and the release's alike. */
import assert from "node:assert/strict";
import { BAKED, V8_FLAGS } from "../../scripts/build.ts";

const config = JSON.parse(
  await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
) as { tasks: Record<string, string> };

Deno.test("build: tasks.hs runs the launcher with the release's V8 flags", () => {
  const words = config.tasks.hs.split(/\s+/);
  const entry = words.indexOf("launch.ts");
  assert.ok(entry > 0, config.tasks.hs);
  // a Deno flag: before the module, or it would be the launcher's argument
  assert.ok(words.slice(0, entry).includes(V8_FLAGS), config.tasks.hs);
  assert.ok(BAKED.includes(V8_FLAGS));
  assert.match(V8_FLAGS, /^--v8-flags=--max-semi-space-size=\d+$/);
});

Deno.test("build: hs run again (bin/harness) and tasks.hs:all carry the same V8 flags", async () => {
  const { selfCommand } = await import("../../core/base/mod.ts");
  assert.ok(selfCommand({}).includes(V8_FLAGS) || !/deno$/.test(Deno.execPath()));
  assert.ok(config.tasks["hs:all"].split(/\s+/).includes(V8_FLAGS), config.tasks["hs:all"]);
});
