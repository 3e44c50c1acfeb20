/**
 * The time bounds of a plugin's life (seed 002 "Cycle de vie": setups, starts and the
 * bounded cleanup), and the configuration a plugin's `setup` sees:
 * - a `setup` or an `onStart` that never settles is bounded (default 10 s, configurable):
 *   an optional plugin fails with the phase and the wait named, a required one fails the
 *   creation — nothing hangs;
 * - "5 s par plugin": all of a plugin's disposers together share one bound;
 * - an async `parseConfig` is awaited (or its rejection is an invalid configuration), never a
 *   Promise in `ctx.config`;
 * - an inline entry with a built-in's id configures that built-in (issue 27 point 9:
 *   `runtimePlugins: [{plugin: jsonlAuditPlugin, config: {path}}]` failed with "listed twice").
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RuntimePlugin, textResult } from "../../core/mod.ts";
import { jsonlAuditPlugin, memoryPlugin } from "../../plugins/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { makeWorkspace } from "../support/workspace.ts";

const never = () => new Promise<void>(() => {});

function plugin(id: string, setup: RuntimePlugin["setup"], extra: Partial<RuntimePlugin> = {}) {
  return { id, version: "1.0.0", apiVersion: 1, setup, ...extra } as RuntimePlugin;
}

Deno.test("an optional plugin whose setup never settles fails after the bound; the harness is created", async () => {
  const rig = await makeRig([], {
    startBoundMs: 150,
    runtimePlugins: [{ plugin: plugin("stuck", never) as RuntimePlugin<unknown>, required: false }],
    config: { runtimePlugins: [] },
  });
  try {
    const s = rig.h.admin.runtimePluginStatus().find((p) => p.id === "stuck");
    assert.equal(s?.state, "failed");
    assert.equal(s?.reason, "setup did not finish within 150 ms");
    assert.ok(rig.lines.some((l) => /stuck: setup did not finish within 150 ms/.test(l)));
  } finally {
    await rig.close();
  }
});

Deno.test("a required plugin whose onStart never settles fails the creation, naming plugin and phase", async () => {
  const stuck = plugin("stuck-start", (ctx) => ctx.onStart(never));
  await assert.rejects(
    makeRig([], {
      startBoundMs: 150,
      runtimePlugins: [{ plugin: stuck as RuntimePlugin<unknown> }],
      config: { runtimePlugins: [] },
    }),
    /required runtime plugin "stuck-start": start did not finish within 150 ms/,
  );
});

Deno.test("a plugins.json entry sets its own setup bound (setupTimeoutMs)", async () => {
  const w = await makeWorkspace();
  const mod = join(w.root, "slow.ts");
  await Deno.writeTextFile(
    mod,
    `export default { id: "slow", version: "1", apiVersion: 1, setup: () => new Promise(() => {}) };`,
  );
  const rig = await makeRig([], {
    startBoundMs: 60_000,
    config: { runtimePlugins: [{ id: "slow", module: mod, required: false, setupTimeoutMs: 100 }] },
  }, w);
  try {
    const s = rig.h.admin.runtimePluginStatus().find((p) => p.id === "slow");
    assert.equal(s?.reason, "setup did not finish within 100 ms");
  } finally {
    await rig.close();
  }
});

Deno.test("all of a plugin's disposers share one bound: one timeout line, the real wait stated", async () => {
  let ran = 0;
  const hanging = plugin("hang2", (ctx) => {
    ctx.onDispose(never);
    ctx.onDispose(never);
    ctx.onDispose(() => {
      ran++;
    });
  });
  const rig = await makeRig([], {
    cleanupBoundMs: 200,
    runtimePlugins: [{ plugin: hanging as RuntimePlugin<unknown> }],
    config: { runtimePlugins: [] },
  });
  await rig.close();
  assert.equal(ran, 1, "disposers run in reverse order: the last registered first");
  const lines = rig.lines.filter((l) => /hang2: cleanup/.test(l));
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0], /hang2: cleanup timed out after \d+ ms \(bound 200 ms\)/);
});

Deno.test("an async parseConfig is awaited: setup sees the parsed value, a rejection is an invalid configuration", async () => {
  let seen: unknown;
  const asyncConfig = plugin("async-conf", (ctx) => {
    seen = ctx.config;
  }, {
    parseConfig: (raw: unknown) => Promise.resolve({ parsed: raw }),
  } as Partial<RuntimePlugin>);
  const rig = await makeRig([], {
    runtimePlugins: [{ plugin: asyncConfig as RuntimePlugin<unknown>, config: 7 }],
    config: { runtimePlugins: [] },
  });
  await rig.close();
  assert.deepEqual(seen, { parsed: 7 });
  const rejecting = plugin("async-bad", () => {}, {
    parseConfig: () => Promise.reject(new Error("secret-ish text")),
  } as Partial<RuntimePlugin>);
  await assert.rejects(
    makeRig([], {
      runtimePlugins: [{ plugin: rejecting as RuntimePlugin<unknown> }],
      config: { runtimePlugins: [] },
    }),
    (e: Error) =>
      /"async-bad" could not load: invalid configuration/.test(e.message) &&
      !e.message.includes("secret-ish"),
  );
});

Deno.test("an inline entry with a built-in's id configures that built-in (the documented audit-jsonl form)", async () => {
  const w = await makeWorkspace();
  const path = join(w.root, "audit.jsonl");
  const model = modelPlugin(
    scriptedModel([{ calls: [{ id: "a", name: "noop", input: {} }] }, { text: "ok" }]),
  );
  const noop = plugin("noop-tool", (ctx) =>
    ctx.tools.register({
      name: "noop",
      description: "noop",
      inputSchema: { type: "object" },
      execute: () => Promise.resolve(textResult("done")),
    }));
  const rig = await makeRig([], {
    runtimePlugins: [
      { plugin: model as RuntimePlugin<unknown> },
      { plugin: noop as RuntimePlugin<unknown> },
      { plugin: jsonlAuditPlugin as RuntimePlugin<unknown>, config: { path } },
    ],
    config: { runtimePlugins: [] },
  }, w);
  try {
    const s = rig.h.admin.runtimePluginStatus().filter((p) => p.id === "audit-jsonl");
    assert.equal(s.length, 1);
    assert.equal(s[0].state, "active");
    assert.equal(s[0].builtin, true);
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.close();
    const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(lines.some((e) => e.type === "tool_execution"), "the inline config reached it");
  } finally {
    await rig.close();
  }
});

Deno.test("a built-in made by its factory and given inline takes the built-in's place, not a second slot", async () => {
  const w = await makeWorkspace();
  const rig = await makeRig([], {
    runtimePlugins: [{
      plugin: memoryPlugin({ home: join(w.root, "mem") }) as RuntimePlugin<unknown>,
    }],
    config: { runtimePlugins: [] },
  }, w);
  try {
    const s = rig.h.admin.runtimePluginStatus().filter((p) => p.id === "memory");
    assert.deepEqual(s.map((p) => [p.state, p.builtin]), [["active", true]]);
  } finally {
    await rig.close();
  }
});
