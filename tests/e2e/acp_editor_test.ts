/**
 * Issue 28 item 4, "Editors get the whole protocol": `hs acp` offers session modes that map
 * to floor presets, and starts the MCP servers the editor names in `session/new` through the
 * seam — driven by the ACP SDK's own client against the scripted loopback model. Each checks
 * the consequence: whether the file was written, what the model was told.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { loopbackWorkspace } from "../support/workspace.ts";
import { mcpServer } from "../support/mcp.ts";
import { editor, initialize, toolUpdates } from "./_acp_kit.ts";

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

Deno.test("hs acp: session modes are floor presets; read-only refuses a write the workspace mode allows", async () => {
  const t = await loopbackWorkspace([
    {
      text: "w",
      toolCalls: [{ id: "a", name: "write_file", input: { path: "a.txt", content: "a" } }],
    },
    { text: "one" },
    {
      text: "w",
      toolCalls: [{ id: "b", name: "write_file", input: { path: "b.txt", content: "b" } }],
    },
    { text: "two" },
  ]);
  try {
    await editor(t, () => "allow-once", async (ctx) => {
      await initialize(ctx);
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      const modes = created.modes!;
      assert.equal(modes.currentModeId, "workspace");
      assert.deepEqual(modes.availableModes.map((m) => m.id), ["read-only", "workspace", "full"]);
      const sessionId = created.sessionId;
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write a" }],
      });
      assert.equal(await exists(join(t.w.ws, "a.txt")), true, "workspace mode writes");
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "read-only" });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write b" }],
      });
      assert.equal(await exists(join(t.w.ws, "b.txt")), false, "read-only mode refused the write");
      // the same session went on: the model saw both turns, and the floor's reason
      const last = JSON.stringify(t.server.requests.at(-1)?.body);
      assert.match(last, /write a/);
      assert.match(last, /permission denied/i);
      await assert.rejects(
        ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "root" }),
        /unknown mode "root".*read-only, workspace, full/,
      );
    });
  } finally {
    await t.close();
  }
});

Deno.test("hs acp: an MCP server named in session/new is started, its tools pass the seam", async () => {
  const memory = mcpServer("server-memory", [], {
    MEMORY_FILE_PATH: "/tmp/hs-acp-memory-unused.json",
  });
  const t = await loopbackWorkspace([
    {
      text: "reading",
      toolCalls: [{ id: "m", name: "mcp__notes__read_graph", input: {} }],
    },
    { text: "read" },
  ]);
  try {
    const file = join(t.w.ws, "graph.jsonl");
    const seen = await editor(t, () => "allow-once", async (ctx) => {
      await initialize(ctx);
      const params: acp.NewSessionRequest = {
        cwd: t.w.ws,
        mcpServers: [{
          name: "notes",
          command: memory.command,
          args: memory.args,
          env: Object.entries({ ...memory.env, MEMORY_FILE_PATH: file }).map((
            [name, value],
          ) => ({ name, value })),
        }],
      };
      const created = await ctx.request(acp.methods.agent.session.new, params);
      const r = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "read the graph" }],
      });
      assert.equal(r.stopReason, "end_turn");
      // the server runs in the OS sandbox, which sees what the floor lets tools read
    }, ["--allow-read", [...memory.read, dirname(Deno.execPath())].join(",")]);
    const first = JSON.stringify(t.server.requests[0]?.body);
    assert.match(
      first,
      /mcp__notes__read_graph/,
      `the editor server tools were offered: ${seen.stderr} ${await Deno.readTextFile(
        t.w.env.HARNESS_LOG!,
      ).catch(() => "")}`,
    );
    const done = toolUpdates(seen.updates).filter((u) => u.toolCallId === "m").at(-1);
    assert.equal(done?.status, "completed", JSON.stringify(done));
    assert.match(JSON.stringify(t.server.requests[1]?.body), /entities/);
  } finally {
    await t.close();
  }
});

Deno.test("hs acp: with the editor's fs methods, read_file sees the open buffer and the editor is told of a write; the floor still decides first", async () => {
  const t = await loopbackWorkspace([
    {
      text: "r",
      toolCalls: [
        { id: "r1", name: "read_file", input: { path: "a.txt" } },
        { id: "r2", name: "read_file", input: { path: "/etc/hostname" } },
        { id: "w1", name: "write_file", input: { path: "b.txt", content: "new\n" } },
        { id: "w2", name: "write_file", input: { path: "/tmp/hs-acp-outside.txt", content: "x" } },
      ],
    },
    { text: "done" },
  ]);
  try {
    await Deno.writeTextFile(join(t.w.ws, "a.txt"), "on disk\n");
    const reads: string[] = [];
    const writes: { path: string; content: string }[] = [];
    await editor(
      t,
      () => "allow-once",
      async (ctx) => {
        await initialize(ctx, { fs: { readTextFile: true, writeTextFile: true } });
        const created = await ctx.request(acp.methods.agent.session.new, {
          cwd: t.w.ws,
          mcpServers: [],
        });
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: created.sessionId,
          prompt: [{ type: "text", text: "read and write" }],
        });
      },
      [],
      (app) =>
        app
          .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
            reads.push(params.path);
            return { content: "in the unsaved buffer\n" };
          })
          .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
            writes.push({ path: params.path, content: params.content });
            return {};
          }),
    );
    const results = JSON.stringify(t.server.requests[1]?.body);
    assert.match(results, /in the unsaved buffer/, "read_file returned the editor's buffer");
    assert.doesNotMatch(results, /on disk/);
    // the floor refused the read outside the workspace before the editor was asked
    assert.deepEqual(reads, [join(t.w.ws, "a.txt")]);
    assert.match(results, /permission denied/i);
    // hs wrote b.txt itself, then told the editor; the write outside never reached either
    assert.equal(await Deno.readTextFile(join(t.w.ws, "b.txt")), "new\n");
    assert.deepEqual(writes, [{ path: join(t.w.ws, "b.txt"), content: "new\n" }]);
    assert.equal(await exists("/tmp/hs-acp-outside.txt"), false);
  } finally {
    await t.close();
  }
});
