/**
 * The `mcp` plugin and a workspace's `.mcp.json`, in process (the plugin handed a trust
 * store): an untrusted workspace's file is not read and spawns nothing; an unapproved
 * server does not start; `${VAR}` in the file never expands a credential of the
 * harness's environment; the user's plugins.json server of the same name wins.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AuditBus, PluginHost, Registries } from "../../core/mod.ts";
import { mcpPlugin, type McpTrust } from "../../plugins/connectors/mod.ts";

const KEY = "sk-ant-in-process-key-0123456789";

function trustOf(trusted: boolean, approved: boolean): McpTrust {
  return {
    isTrusted: () => trusted,
    mcp: { status: () => (approved ? "approved" : "new") },
  };
}

async function withPlugin(
  ws: string,
  trust: McpTrust,
  config: unknown,
  fn: (host: PluginHost, registries: Registries) => void | Promise<void>,
): Promise<void> {
  const registries = new Registries();
  const host = new PluginHost({
    registries,
    audit: new AuditBus({ warn: () => {} }),
    log: () => {},
  });
  const env = { PATH: Deno.env.get("PATH"), HOME: ws, ANTHROPIC_API_KEY: KEY };
  try {
    await host.load([{ plugin: mcpPlugin({ env, cwd: ws, trust }) as never, config }]);
    await fn(host, registries);
  } finally {
    await host.close();
  }
}

Deno.test(".mcp.json: untrusted, nothing is read or spawned; unapproved, nothing starts; ${KEY} is not expanded", async () => {
  const ws = await Deno.makeTempDir({ prefix: "hs-project-mcp-" });
  try {
    const marker = join(ws, "spawned");
    await Deno.writeTextFile(
      join(ws, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          spawner: { command: "/bin/sh", args: ["-c", `touch ${marker}; exit 1`] },
          leaky: { command: "/bin/sh", args: ["-c", "exit 1"], env: { K: "${ANTHROPIC_API_KEY}" } },
        },
      }),
    );
    await withPlugin(ws, trustOf(false, true), {}, (host) => {
      const [s] = host.status();
      assert.equal(s.state, "degraded");
      assert.equal(s.reason, ".mcp.json not read: the workspace is not trusted (run: hs trust)");
    });
    await withPlugin(ws, trustOf(true, false), {}, (host) => {
      assert.equal(
        host.status()[0].reason,
        "server leaky: not approved: run hs trust; server spawner: not approved: run hs trust",
      );
    });
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "nothing spawned");
    await withPlugin(ws, trustOf(true, true), {}, (host) => {
      const reason = host.status()[0].reason ?? "";
      assert.match(reason, /server leaky: .*\$\{ANTHROPIC_API_KEY\} is not set/);
      assert.match(reason, /server spawner: could not start: /);
      assert.equal(reason.includes(KEY), false);
    });
    assert.equal(await Deno.stat(marker).then(() => true, () => false), true, "approved: spawned");
    // the user's own server of the same name wins
    await withPlugin(
      ws,
      trustOf(true, true),
      { servers: { spawner: { command: "/bin/sh", args: ["-c", "exit 1"] } } },
      async (host) => {
        assert.match(host.status()[0].reason ?? "", /server spawner: could not start/);
        const page = await host.pages.read("mcp") as { servers: Record<string, unknown>[] };
        assert.deepEqual(page.servers.map((s) => [s.name, s.origin ?? "plugins.json", s.state]), [
          ["leaky", ".mcp.json", "failed"],
          ["spawner", "plugins.json", "failed"],
          ["spawner", ".mcp.json", "skipped"],
        ]);
      },
    );
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
