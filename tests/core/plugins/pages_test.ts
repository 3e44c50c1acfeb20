/**
 * Pages: descriptors validated at registration; listed, read and acted on
 * through `harness.pages` with the host's signal; results must be JSON; a
 * handler's exception text never reaches the caller.
 */
import assert from "node:assert/strict";
import type { Json, PageContext, RuntimePlugin } from "../../../core/mod.ts";
import { makeRig } from "./_helpers.ts";

function pagePlugin(page: Record<string, unknown>, id = "pages"): RuntimePlugin {
  return {
    id,
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.pages.register(page as never);
    },
  };
}

Deno.test("pages: invalid descriptors are rejected at setup", async () => {
  for (
    const bad of [
      { id: "Bad Id", title: "t", read: () => ({}) },
      { id: "p", title: "", read: () => ({}) },
      { id: "p", title: "t" },
      { id: "p", title: "t", read: () => ({}), actions: [{ name: "go", label: "Go" }] },
    ]
  ) {
    await assert.rejects(makeRig([pagePlugin(bad)]), /"pages" failed during setup/);
  }
});

Deno.test("pages: read and action get the host's signal; JSON only; no exception text", async () => {
  let signal: AbortSignal | undefined;
  const page = {
    id: "status",
    title: "Status",
    actions: [{ name: "bump", label: "Bump" }, { name: "boom", label: "Boom" }],
    read(ctx: PageContext): Json {
      signal = ctx.signal;
      return { count: 1, at: new Date(0) as unknown as Json };
    },
    action(name: string, args: Json): Json {
      if (name === "boom") throw new Error("page-secret");
      return { bumped: (args as { by: number }).by };
    },
  };
  const rig = await makeRig([pagePlugin(page)]);
  const list = rig.h.admin.pages.list();
  assert.deepEqual(list.find((p) => p.id === "status"), {
    id: "status",
    title: "Status",
    description: undefined,
    actions: [{ name: "bump", label: "Bump" }, { name: "boom", label: "Boom" }],
    owner: "plugin:pages",
  });
  assert.deepEqual(await rig.h.admin.pages.read("status"), {
    count: 1,
    at: "1970-01-01T00:00:00.000Z",
  });
  assert.deepEqual(await rig.h.admin.pages.action("status", "bump", { by: 2 }), { bumped: 2 });
  await assert.rejects(rig.h.admin.pages.action("status", "boom", {}), (e: Error) => {
    assert.match(e.message, /page "status": boom failed/);
    assert.doesNotMatch(e.message, /page-secret/);
    return true;
  });
  await assert.rejects(rig.h.admin.pages.read("nope"), /no page "nope"/);
  assert.equal(signal?.aborted, false);
  await rig.close();
  assert.equal(signal?.aborted, true, "the host's signal is aborted when the plugin stops");
});
