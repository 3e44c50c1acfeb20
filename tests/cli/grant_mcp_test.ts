/**
 * The launcher's grant and a workspace's `.mcp.json`: its stdio servers' programs are
 * granted `run` (their directory and `read` paths readable), its remote servers' hosts
 * `net` — unless plugins.json turns the `mcp` plugin off.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { computeGrant } from "../../cli/launch/grant.ts";
import { REPO } from "../support/workspace.ts";

Deno.test("the grant covers the servers of the workspace's .mcp.json, unless mcp is disabled", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-grant-mcp-" });
  try {
    const ws = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(ws, { recursive: true });
    await Deno.mkdir(home, { recursive: true });
    await Deno.writeTextFile(
      join(ws, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          local: { command: "/opt/srv/bin/server", read: ["/opt/srv/share"] },
          remote: { url: "https://mcp.example.com/mcp" },
        },
      }),
    );
    const env = { HOME: root, HARNESS_HOME: home, PATH: "/usr/bin:/bin" };
    const grant = () => computeGrant({ argv: ["go"], env, cwd: ws, root: REPO });
    const on = grant();
    assert.ok(Array.isArray(on.run) && on.run.includes("/opt/srv/bin/server"), String(on.run));
    assert.ok(Array.isArray(on.read) && on.read.includes("/opt/srv/share"));
    assert.ok(Array.isArray(on.net) && on.net.includes("mcp.example.com:443"), String(on.net));
    await Deno.writeTextFile(
      join(home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "mcp", enabled: false }] }),
    );
    const off = grant();
    assert.ok(Array.isArray(off.run) && !off.run.includes("/opt/srv/bin/server"));
    assert.ok(Array.isArray(off.net) && !off.net.includes("mcp.example.com:443"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
