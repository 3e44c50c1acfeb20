/**
 * The built-in `memory` plugin: the tool, the per-turn prompt index, the page,
 * background sync; active in ephemeral instances; disabling it removes all of
 * its contributions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryStore } from "../../plugins/mod.ts";
import { syncStores } from "../../plugins/memory/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { makeWorkspace } from "../support/workspace.ts";

Deno.test("memory: save through the tool, the index reaches the next request's system prompt, the page lists and deletes", async () => {
  const systems: string[] = [];
  const model = scriptedModel([
    {
      calls: [{
        id: "m1",
        name: "memory",
        input: { action: "save", name: "style", description: "prefers tabs", content: "Tabs." },
      }],
    },
    { text: "saved" },
    { calls: [{ id: "m2", name: "memory", input: { action: "read", name: "style" } }] },
    { text: "read" },
  ]);
  const send = model.send.bind(model);
  model.send = (payload, m, o) => {
    systems.push((payload as { system: string }).system);
    return send(payload, m, o);
  };
  const rig = await makeRig([modelPlugin(model)]);
  try {
    assert.equal(rig.h.admin.runtimePluginStatus().find((s) => s.id === "memory")?.state, "active");
    const r1 = await rig.h.run({ message: "remember" });
    assert.equal(r1.error, false, r1.message);
    // the index is rendered for every request: the one right after the save has it
    assert.doesNotMatch(systems[0], /memory-index/);
    assert.match(systems[1], /<memory-index>\n- style: prefers tabs\n<\/memory-index>/);
    const r2 = await rig.h.run({ message: "recall", session: r1.sessionId });
    assert.match(systems[2], /- style: prefers tabs/);
    const last = rig.h.runs.openSession(r2.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    )
      .at(-1) as { text: string };
    assert.equal(last.text.trim(), "Tabs.");
    const page = await rig.h.admin.pages.read("memory") as { entries: { name: string }[] };
    assert.deepEqual(page.entries.map((e) => e.name), ["style"]);
    assert.deepEqual(rig.h.admin.pages.list().find((p) => p.id === "memory")?.actions, [
      { name: "delete", label: "Delete" },
    ]);
    assert.deepEqual(await rig.h.admin.pages.action("memory", "delete", { name: "style" }), {
      deleted: true,
    });
    assert.equal(new MemoryStore(join(rig.w.home, "memory")).list().length, 0);
    await assert.rejects(rig.h.admin.pages.action("memory", "wipe", {}), /has no action "wipe"/);
  } finally {
    await rig.close();
  }
});

Deno.test("memory: disabling it removes the tool, the prompt section and the page", async () => {
  const rig = await makeRig([], {
    config: { runtimePlugins: [{ id: "memory", enabled: false }] },
  });
  try {
    assert.equal(rig.h.registries.tools.get("memory"), undefined);
    assert.equal(rig.h.registries.prompts.get("memory"), undefined);
    assert.equal(rig.h.admin.pages.list().some((p) => p.id === "memory"), false);
  } finally {
    await rig.close();
  }
});

Deno.test("memory: background sync at start and at close, both ways", async () => {
  const w = await makeWorkspace();
  const shared = join(w.root, "shared-memory");
  new MemoryStore(shared).put("from-elsewhere", "synced in", "content A");
  const rig = await makeRig([], {
    config: {
      runtimePlugins: [{ id: "memory", config: { sync: { dir: shared, intervalSeconds: 3600 } } }],
    },
  }, w);
  const local = new MemoryStore(join(w.home, "memory"));
  assert.equal(local.get("from-elsewhere")?.content.trim(), "content A");
  local.put("made-here", "synced out", "content B");
  await rig.h.close();
  assert.equal(new MemoryStore(shared).get("made-here")?.description, "synced out");
  await rig.close();
});

Deno.test("memory sync propagates deletions: a deleted entry does not come back; one written after comes back", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-mem-sync-" });
  try {
    const a = new MemoryStore(join(root, "a"));
    const b = new MemoryStore(join(root, "b"));
    a.put("kept", "stays", "K", 1_000);
    a.put("gone", "goes", "G", 1_000);
    assert.equal(syncStores(a, b), 2);
    assert.equal(b.get("gone")?.content, "G\n");
    a.delete("gone", 2_000);
    assert.equal(syncStores(a, b), 1, "the deletion reached the other side");
    assert.equal(b.get("gone"), undefined);
    assert.equal(a.get("gone"), undefined, "it did not come back from the other side");
    assert.equal(syncStores(a, b), 0, "nothing left to do");
    // written again after the deletion: the newer write wins on both sides
    b.put("gone", "back", "again", 3_000);
    assert.equal(syncStores(a, b), 1);
    assert.equal(a.get("gone")?.description, "back");
    assert.equal(a.deletedAt("gone"), undefined);
    // an older copy elsewhere does not undo a newer deletion
    const c = new MemoryStore(join(root, "c"));
    c.put("kept", "stale", "old", 500);
    b.delete("kept", 4_000);
    syncStores(a, b);
    syncStores(b, c);
    assert.equal(c.get("kept"), undefined);
    assert.equal(a.get("kept"), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
