/**
 * `ctx.degrade` (a plugin that runs with part of it missing is `degraded`, with its
 * reason) and `PluginHost.reload` (set up again: old contributions and disposers gone,
 * what it reads outside its configuration taken into account).
 */
import assert from "node:assert/strict";
import {
  AuditBus,
  PluginHost,
  Registries,
  type RuntimePlugin,
  textResult,
} from "../../core/mod.ts";

function makeHost() {
  const registries = new Registries();
  const audit = new AuditBus({ warn: () => {} });
  return { host: new PluginHost({ registries, audit, log: () => {} }), registries };
}

Deno.test("a plugin reports degraded with its reason; a reload sets it up again", async () => {
  const { host, registries } = makeHost();
  const world = { approved: false, disposed: 0 };
  const plugin: RuntimePlugin = {
    id: "servers",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.onDispose(() => {
        world.disposed++;
      });
      if (!world.approved) {
        ctx.degrade("server a: not approved");
        return;
      }
      ctx.tools.register({
        name: "a__tool",
        description: "t",
        inputSchema: { type: "object" },
        execute: () => Promise.resolve(textResult("ran")),
      });
    },
  };
  try {
    await host.load([{ plugin }]);
    assert.deepEqual(
      host.status().map((s) => [s.id, s.state, s.reason]),
      [["servers", "degraded", "server a: not approved"]],
    );
    assert.equal(registries.tools.get("a__tool"), undefined);
    world.approved = true;
    assert.equal(await host.reload("servers"), true);
    assert.equal(world.disposed, 1, "the first setup's resources were released");
    assert.deepEqual(host.status().map((s) => [s.id, s.state, s.reason]), [[
      "servers",
      "active",
      undefined,
    ]]);
    assert.ok(registries.tools.get("a__tool"));
    assert.equal(await host.reload("missing"), false);
  } finally {
    await host.close();
  }
  assert.equal(world.disposed, 2, "close released the reloaded setup");
  assert.equal(await host.reload("servers"), false, "no reload once closed");
});
