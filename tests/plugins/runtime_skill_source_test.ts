/**
 * Seed 002: a runtime skill "apparaît avec la source runtime" (issue 27 point 13: it showed
 * the plugin's label as its source). The catalog says `runtime`, and keeps which plugin
 * registered it as its owner.
 */
import assert from "node:assert/strict";
import type { RuntimePlugin } from "../../core/mod.ts";
import { makeRig } from "../core/plugins/_helpers.ts";

Deno.test("a runtime skill appears with the source runtime, its plugin as owner", async () => {
  const skills: RuntimePlugin = {
    id: "skilled",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.skills.register({ name: "tidy", description: "tidies", body: "Tidy up." });
    },
  };
  const rig = await makeRig([skills]);
  try {
    const s = rig.h.catalog.skills().skills.find((k) => k.name === "tidy");
    assert.equal(s?.source, "runtime");
    assert.equal(s?.owner, "plugin:skilled");
  } finally {
    await rig.close();
  }
});
