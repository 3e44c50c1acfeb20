/**
 * The approvals of `.mcp.json` servers: keyed by name and a hash of what the server runs
 * or reaches (a changed command, args, env, url or header name asks again; a header's
 * value does not), stored in `$HARNESS_HOME/mcp-approvals.json`; `--trust-workspace`
 * (`trustForSession`) approves a workspace's servers for the process only.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mcpServerHash, readProjectMcp, TrustStore } from "../../../core/mod.ts";

Deno.test("mcpServerHash: what a server runs or reaches, not its header values", () => {
  const base = { command: "npx", args: ["-y", "srv"], env: { A: "1" } };
  const h = mcpServerHash(base);
  assert.equal(mcpServerHash({ ...base }), h);
  assert.notEqual(mcpServerHash({ ...base, command: "node" }), h);
  assert.notEqual(mcpServerHash({ ...base, args: ["-y", "other"] }), h);
  assert.notEqual(mcpServerHash({ ...base, env: { A: "2" } }), h);
  assert.notEqual(mcpServerHash({ ...base, env: { A: "1", B: "1" } }), h);
  const remote = { type: "http", url: "https://a.example/mcp", headers: { Authorization: "x" } };
  const r = mcpServerHash(remote);
  assert.equal(mcpServerHash({ ...remote, headers: { Authorization: "rotated" } }), r);
  assert.notEqual(mcpServerHash({ ...remote, headers: { "X-Other": "x" } }), r);
  assert.notEqual(mcpServerHash({ ...remote, url: "https://b.example/mcp" }), r);
  assert.notEqual(mcpServerHash({ ...remote, type: "sse" }), r);
});

Deno.test("approvals by name and hash; a change asks again; trustForSession approves for the process", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-mcp-approvals-" });
  try {
    const home = join(root, "home");
    const ws = join(root, "ws");
    await Deno.mkdir(ws, { recursive: true });
    const write = (servers: unknown) =>
      Deno.writeTextFile(join(ws, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
    await write({
      b: { url: "https://x.example/mcp", headers: { Authorization: "Bearer t" } },
      a: { command: "srv", args: ["1"] },
    });
    const project = readProjectMcp(ws)!;
    assert.deepEqual(project.servers.map((s) => [s.name, s.summary]), [
      ["a", "srv 1"],
      ["b", "http https://x.example/mcp (headers: Authorization)"],
    ]);
    const store = new TrustStore(home);
    assert.deepEqual(project.servers.map((s) => store.mcp.status(ws, s)), ["new", "new"]);
    store.mcp.approve(ws, [project.servers[0]]);
    const again = new TrustStore(home);
    assert.deepEqual(project.servers.map((s) => again.mcp.status(ws, s)), ["approved", "new"]);
    await write({ a: { command: "srv", args: ["2"] } });
    assert.equal(again.mcp.status(ws, readProjectMcp(ws)!.servers[0]), "changed");
    again.trustForSession(ws);
    assert.equal(again.mcp.status(ws, readProjectMcp(ws)!.servers[0]), "approved");
    assert.equal(new TrustStore(home).mcp.status(ws, readProjectMcp(ws)!.servers[0]), "changed");
    await Deno.writeTextFile(join(ws, ".mcp.json"), "{not json");
    assert.equal(readProjectMcp(ws)!.problem, "not valid JSON");
    assert.equal(readProjectMcp(root), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
