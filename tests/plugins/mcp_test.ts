/**
 * The `mcp` plugin against real MCP servers installed from npm: tools, errors,
 * progress and the seam (server-everything), paths against the floor with the
 * server in the OS sandbox (server-filesystem), a stateful server
 * (server-memory); configuration from `.mcp.json`-style files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AuditEvent, LifecycleEvents, RuntimePlugin } from "../../core/mod.ts";
import { mcpResult } from "../../plugins/connectors/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { mcpServer } from "../support/mcp.ts";
import { BWRAP_OK, makeWorkspace, writeFile } from "../support/workspace.ts";

function observer(events: AuditEvent[], tools: LifecycleEvents["tool_done"][]): RuntimePlugin {
  return {
    id: "observer",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink((e) => {
        events.push(e);
      });
      ctx.hooks.on("tool_done", (p) => {
        tools.push({ ...p });
      });
    },
  };
}

Deno.test("mcp: server-everything's tools pass the seam; errors and progress", async () => {
  const events: AuditEvent[] = [];
  const done: LifecycleEvents["tool_done"][] = [];
  const model = scriptedModel([
    {
      calls: [
        { id: "c1", name: "mcp__everything__echo", input: { message: "hi" } },
        { id: "c2", name: "mcp__everything__get-sum", input: { a: 2, b: 40 } },
        { id: "c3", name: "mcp__everything__get-sum", input: { a: "x" } },
        {
          id: "c4",
          name: "mcp__everything__trigger-long-running-operation",
          input: { duration: 0.2, steps: 2 },
        },
      ],
    },
    { text: "done" },
  ]);
  const rig = await makeRig([modelPlugin(model), observer(events, done)], {
    config: {
      runtimePlugins: [{
        id: "mcp",
        config: { servers: { everything: mcpServer("server-everything", ["stdio"]) } },
      }],
    },
  });
  try {
    const names = rig.h.registries.tools.keysOf({ kind: "builtin", id: "mcp" });
    assert.ok(names.includes("mcp__everything__echo"), names.join(","));
    const echo = rig.h.registries.tools.get("mcp__everything__echo")!;
    assert.equal(echo.point, "mcp");
    assert.equal(echo.readOnly, false);
    assert.equal(echo.sessionLocal, false);
    const r = await rig.h.run({ message: "use mcp" });
    assert.equal(r.error, false, r.message);
    const results = rig.h.runs.openSession(r.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    );
    const text = (i: number) => (results[i] as { text: string; error: boolean });
    assert.equal(text(0).text, "Echo: hi");
    assert.match(text(1).text, /42/);
    assert.equal(text(2).error, true);
    assert.equal(text(3).error, false, text(3).text);
    await rig.h.audit.flush();
    const perms = events.filter((e) => e.type === "permission" && e.tool.startsWith("mcp__"));
    assert.equal(perms.length, 4);
    const execs = events.filter((e) => e.type === "tool_execution" && e.tool.startsWith("mcp__"));
    assert.deepEqual(execs.map((e) => e.type === "tool_execution" && e.owner), [
      "builtin:mcp",
      "builtin:mcp",
      "builtin:mcp",
      "builtin:mcp",
    ]);
    assert.equal(done[0].owner, "builtin:mcp");
    assert.deepEqual(await rig.h.admin.pages.read("mcp"), {
      servers: [{ name: "everything", type: "stdio", state: "active", tools: names.length }],
    });
  } finally {
    await rig.close();
  }
});

Deno.test("mcp: server-filesystem paths are held to the floor; the server runs in the OS sandbox", async () => {
  const w = await makeWorkspace();
  await writeFile(join(w.ws, "notes.txt"), "inside the workspace\n");
  await writeFile(join(w.root, "secret.txt"), "outside-secret\n");
  const model = scriptedModel([
    {
      calls: [
        { id: "f1", name: "mcp__fs__read_text_file", input: { path: join(w.ws, "notes.txt") } },
        { id: "f2", name: "mcp__fs__read_text_file", input: { path: join(w.root, "secret.txt") } },
        {
          id: "f3",
          name: "mcp__fs__write_file",
          input: { path: join(w.ws, "new.txt"), content: "x" },
        },
        {
          id: "f4",
          name: "mcp__fs__write_file",
          input: { path: join(w.root, "evil.txt"), content: "x" },
        },
        // `paths` (a list) is not checked by the floor: the OS sandbox still hides the file
        {
          id: "f5",
          name: "mcp__fs__read_multiple_files",
          input: { paths: [join(w.root, "secret.txt")] },
        },
      ],
    },
    { text: "ok" },
  ]);
  const events: AuditEvent[] = [];
  // the server is told it may use the whole temp root; the floor (workspace preset) is narrower
  const rig = await makeRig([modelPlugin(model), observer(events, [])], {
    floorRequest: { warn: () => {} },
    config: {
      runtimePlugins: [{
        id: "mcp",
        config: { servers: { fs: mcpServer("server-filesystem", [w.root]) } },
      }],
    },
  }, w);
  try {
    const r = await rig.h.run({ message: "files" });
    assert.equal(r.error, false, r.message);
    const results = rig.h.runs.openSession(r.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    ) as { text: string; error: boolean }[];
    assert.equal(results[0].text.trim(), "inside the workspace");
    assert.equal(results[1].error, true);
    assert.match(results[1].text, /outside the effect policy/);
    assert.doesNotMatch(results[1].text, /outside-secret/);
    assert.equal(results[2].error, false, results[2].text);
    assert.equal(await Deno.readTextFile(join(w.ws, "new.txt")), "x");
    assert.equal(results[3].error, true);
    await assert.rejects(Deno.stat(join(w.root, "evil.txt")));
    if (BWRAP_OK) assert.doesNotMatch(results[4].text, /outside-secret/);
    await rig.h.audit.flush();
    const denied = events.filter((e) => e.type === "permission" && e.decision === "deny");
    assert.deepEqual(denied.map((e) => e.type === "permission" && e.rule), [
      "floor.read",
      "floor.write",
    ]);
    assert.ok(rig.lines.some((l) => /Secure MCP Filesystem Server/.test(l)), "stderr is logged");
  } finally {
    await rig.close();
  }
});

Deno.test("mcp: server-memory keeps state between calls; servers come from an .mcp.json file", async () => {
  const w = await makeWorkspace();
  const graph = join(w.root, "graph.jsonl");
  await writeFile(
    join(w.home, "mcp.json"),
    JSON.stringify({
      mcpServers: {
        kg: mcpServer("server-memory", [], { MEMORY_FILE_PATH: "${GRAPH_FILE}" }),
        off: { command: "/nonexistent", disabled: true },
      },
    }),
  );
  const model = scriptedModel([
    {
      calls: [{
        id: "k1",
        name: "mcp__kg__create_entities",
        input: { entities: [{ name: "hs", entityType: "project", observations: ["a harness"] }] },
      }],
    },
    { calls: [{ id: "k2", name: "mcp__kg__read_graph", input: {} }] },
    { text: "ok" },
  ]);
  const rig = await makeRig([modelPlugin(model)], {
    env: { ...w.env, HARNESS_PROVIDER: "fake", GRAPH_FILE: graph },
    config: { runtimePlugins: [{ id: "mcp", config: { files: [join(w.home, "mcp.json")] } }] },
  }, w);
  try {
    const r = await rig.h.run({ message: "remember" });
    assert.equal(r.error, false, r.message);
    const results = rig.h.runs.openSession(r.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    ) as { text: string }[];
    assert.match(results[1].text, /a harness/);
    assert.match(await Deno.readTextFile(graph), /"hs"/);
    assert.ok(
      !rig.h.registries.tools.keysOf({ kind: "builtin", id: "mcp" }).some((n) =>
        n.startsWith("mcp__off__")
      ),
    );
  } finally {
    await rig.close();
  }
});

Deno.test("mcp: a server that cannot start is skipped and logged, the plugin degraded with the reason; the others come up", async () => {
  const rig = await makeRig([], {
    config: {
      runtimePlugins: [{
        id: "mcp",
        config: {
          servers: {
            broken: { command: "/nonexistent/mcp-server" },
            everything: mcpServer("server-everything", ["stdio"]),
          },
        },
      }],
    },
  });
  try {
    const status = rig.h.admin.runtimePluginStatus().find((s) => s.id === "mcp");
    assert.equal(status?.state, "degraded");
    assert.match(status?.reason ?? "", /^server broken: could not start: .+/);
    assert.ok(rig.h.registries.tools.get("mcp__everything__echo"), "the others run");
    assert.ok(rig.lines.some((l) => /server "broken" could not start/.test(l)));
    const page = await rig.h.admin.pages.read("mcp") as {
      servers: { name: string; state: string }[];
    };
    assert.deepEqual(page.servers.map((s) => [s.name, s.state]), [
      ["broken", "failed"],
      ["everything", "active"],
    ]);
  } finally {
    await rig.close();
  }
});

Deno.test("mcp: results are text, whole (the session caps them), with non-text blocks described", () => {
  const big = "x".repeat(150_000);
  const r = mcpResult({ content: [{ type: "text", text: big }, { type: "text", text: "end" }] });
  assert.equal(r.content[0].text, `${big}\nend`);
  const img = mcpResult({
    content: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
    isError: true,
  });
  assert.equal(img.content[0].text, "[image: image/png, 3 bytes]");
  assert.equal(img.isError, true);
  assert.equal(mcpResult({ content: [], structuredContent: { a: 1 } }).content[0].text, '{"a":1}');
});

Deno.test("mcp: a stdio server gets its configured env and the base variables, not the rest of the host's (in the OS sandbox)", async () => {
  const w = await makeWorkspace();
  // the harness's environment holds a secret the server's configuration does not name
  w.env.HS_TEST_HOST_SECRET = "host-secret-value";
  const model = scriptedModel([
    { calls: [{ id: "e1", name: "mcp__everything__get-env", input: {} }] },
    { text: "ok" },
  ]);
  const server = mcpServer("server-everything", ["stdio"], { SERVER_TOKEN: "tok-123" });
  const rig = await makeRig([modelPlugin(model)], {
    floorRequest: { warn: () => {} },
    config: { runtimePlugins: [{ id: "mcp", config: { servers: { everything: server } } }] },
  }, w);
  try {
    const r = await rig.h.run({ message: "env" });
    assert.equal(r.error, false, r.message);
    const result = rig.h.runs.openSession(r.sessionDir).messages().find((m) =>
      m.role === "tool_result"
    ) as { text: string; error: boolean };
    assert.equal(result.error, false, result.text);
    const env = JSON.parse(result.text) as Record<string, string>;
    // configured by name: kept although the workspace preset's env list is empty
    assert.equal(env.SERVER_TOKEN, "tok-123");
    assert.equal(env.DENO_DIR, server.env.DENO_DIR);
    // the base variables a program needs to start (npx finds node through PATH)
    assert.equal(env.PATH, w.env.PATH);
    assert.equal(env.HOME, w.env.HOME);
    // the rest of the host's environment stays out
    assert.equal(env.HS_TEST_HOST_SECRET, undefined);
    if (BWRAP_OK) assert.equal(env.TMPDIR, "/tmp");
  } finally {
    await rig.close();
  }
});
