/**
 * End-to-end: `hs acp` (through `deno task hs`) with the official ACP SDK's client as the
 * editor, over stdio, against the scripted loopback model: initialize, session/new,
 * prompts with streamed agent message chunks, tool calls (pending → in progress →
 * completed/failed), the floor's `ask` as session/request_permission (allowed, then
 * rejected), session/load replaying the conversation, and session/cancel.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { BWRAP_OK, loopbackWorkspace, REPO, runHs, writeFile } from "../support/workspace.ts";
import { editor, type Seen } from "./_acp_kit.ts";

const kinds = (u: acp.SessionUpdate[]) => u.map((x) => x.sessionUpdate);
const said = (u: acp.SessionUpdate[]) =>
  u.flatMap((x) =>
    x.sessionUpdate === "agent_message_chunk" && x.content.type === "text" ? [x.content.text] : []
  ).join("");

Deno.test("hs acp: the SDK client drives prompts, tool calls, permissions, load and cancel", async () => {
  const t = await loopbackWorkspace([
    {
      text: "I will write the file.",
      toolCalls: [{ id: "w1", name: "write_file", input: { path: "out.txt", content: "hi\n" } }],
      chunkSize: 5,
    },
    { text: "Written." },
    {
      text: "Again.",
      toolCalls: [{ id: "w2", name: "write_file", input: { path: "no.txt", content: "x" } }],
    },
    { text: "It was refused." },
    { text: "A long answer that is cut short.", chunkSize: 2, delayMs: 150 },
  ]);
  try {
    // writing asks: the editor decides
    await writeFile(
      join(t.w.home, "floor.json"),
      JSON.stringify({ rules: { ask: ["write_file"] } }),
    );
    const answers = ["allow-once", "reject"];
    let sessionId = "";
    const first = await editor(t, () => answers.shift()!, async (ctx, seen) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
      assert.equal(init.agentCapabilities?.loadSession, true);
      assert.equal(init.agentInfo?.name, "hs");
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      sessionId = created.sessionId;

      // 1. a tool call the editor allows
      const r1 = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write out.txt" }],
      });
      assert.equal(r1.stopReason, "end_turn");
      assert.equal(said(seen.updates), "I will write the file.Written.");
      assert.ok(
        seen.updates.filter((u) => u.sessionUpdate === "agent_message_chunk").length > 2,
        "the text streamed in chunks",
      );
      const calls = seen.updates.filter((u) =>
        (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
        u.toolCallId === "w1"
      ) as (acp.ToolCall | acp.ToolCallUpdate)[];
      assert.deepEqual(calls.map((c) => c.status), ["pending", "in_progress", "completed"]);
      const start = calls[0] as acp.ToolCall;
      assert.equal(start.kind, "edit");
      assert.equal(start.title, "Write out.txt");
      assert.deepEqual(start.locations, [{ path: join(t.w.ws, "out.txt") }]);
      assert.equal(Deno.readTextFileSync(join(t.w.ws, "out.txt")), "hi\n");
      assert.equal(seen.permissions.length, 1);
      assert.equal(seen.permissions[0].sessionId, sessionId);
      assert.equal(seen.permissions[0].toolCall.toolCallId, "w1");
      assert.deepEqual(seen.permissions[0].options.map((o) => o.kind), [
        "allow_once",
        "allow_always",
        "reject_always",
      ]);

      // 2. a tool call the editor rejects: refused, the turn goes on
      seen.updates.length = 0;
      const r2 = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write no.txt" }],
      });
      assert.equal(r2.stopReason, "end_turn");
      const done = seen.updates.find((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "w2" && u.status === "failed"
      ) as acp.ToolCallUpdate | undefined;
      assert.ok(done, JSON.stringify(seen.updates));
      assert.match(JSON.stringify(done.content), /denied/);
      assert.throws(() => Deno.statSync(join(t.w.ws, "no.txt")));
      assert.equal(said(seen.updates), "Again.It was refused.");

      // 3. cancel while the answer streams
      seen.updates.length = 0;
      const r3 = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "talk slowly" }],
      });
      while (!seen.updates.some((u) => u.sessionUpdate === "agent_message_chunk")) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await r3).stopReason, "cancelled");
      assert.ok(said(seen.updates).length < "A long answer that is cut short.".length);

      // an unknown session is an ACP error, not a crash
      await assert.rejects(
        () =>
          ctx.request(acp.methods.agent.session.prompt, {
            sessionId: "nope",
            prompt: [{ type: "text", text: "x" }],
          }),
        /not found/i,
      );
    });
    assert.equal(first.permissions.length, 2);

    // 4. a new connection loads the session: the conversation is replayed
    const second = await editor(t, () => "reject", async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      await ctx.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: t.w.ws,
        mcpServers: [],
      });
    });
    const u = second.updates;
    assert.equal(u[0].sessionUpdate, "user_message_chunk");
    assert.ok(kinds(u).includes("tool_call") && kinds(u).includes("tool_call_update"));
    assert.match(said(u), /^I will write the file\.Written\.Again\.It was refused\./);
    const replayed = u.find((x) => x.sessionUpdate === "tool_call_update" && x.toolCallId === "w1");
    assert.equal((replayed as acp.ToolCallUpdate).status, "completed");
  } finally {
    await t.close();
  }
});

Deno.test("hs help lists acp", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const r = await runHs(["help"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\bacp\b.*Agent Client Protocol/);
  } finally {
    await t.close();
  }
});

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

Deno.test("hs acp: a behavior pack's new guards are put to the editor before the prompt ('Every new or changed hash prompts (REPL, web, ACP)')", async () => {
  const cat = { toolCalls: [{ id: "c1", name: "bash", input: { command: "cat config.txt" } }] };
  const t = await loopbackWorkspace([cat, { text: "read" }, cat, { text: "read again" }]);
  try {
    await copyDir(join(REPO, "examples/packs/reviewer"), join(t.w.ws, ".harness/packs/reviewer"));
    await Deno.writeTextFile(join(t.w.ws, "config.txt"), "token=sk-live123\n");
    const floor = BWRAP_OK ? [] : ["--unsandboxed"];
    const prompt = async (ctx: acp.ClientContext) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      const r = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "read the config" }],
      });
      assert.equal(r.stopReason, "end_turn");
    };
    const results = (seen: Seen) =>
      seen.updates.flatMap((u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "c1" && u.status
          ? (u.content ?? []).flatMap((c) =>
            c.type === "content" && c.content.type === "text" ? [c.content.text] : []
          )
          : []
      ).join("");

    // the editor approves: the guard is stored and redacts this very prompt's shell output
    const first = await editor(t, () => "approve", async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      await prompt(ctx);
    }, floor);
    assert.equal(first.permissions.length, 1, JSON.stringify(first.permissions));
    assert.equal(first.permissions[0].toolCall.toolCallId, "consent-reviewer-reviewer");
    const asked = first.updates.find((u) =>
      u.sessionUpdate === "tool_call" && u.toolCallId === "consent-reviewer-reviewer"
    ) as acp.ToolCall;
    assert.match(JSON.stringify(asked.content), /redact-secrets \(shell\)/);
    assert.match(results(first), /token=\[redacted\]/, results(first));
    assert.doesNotMatch(results(first), /sk-live123/);

    // unchanged hashes never prompt again
    const second = await editor(t, () => "decline", async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      await prompt(ctx);
    }, floor);
    assert.equal(second.permissions.length, 0);
    assert.match(results(second), /token=\[redacted\]/);
  } finally {
    await t.close();
  }
});

Deno.test("hs acp: declining a pack's guards leaves its bot detached and asks once per connection", async () => {
  const t = await loopbackWorkspace([{ text: "one" }, { text: "two" }]);
  try {
    await copyDir(join(REPO, "examples/packs/reviewer"), join(t.w.ws, ".harness/packs/reviewer"));
    const seen = await editor(t, () => "decline", async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: t.w.ws,
        mcpServers: [],
      });
      for (const m of ["a", "b"]) {
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: m }],
        });
      }
    });
    assert.equal(seen.permissions.length, 1);
    const end = seen.updates.find((u) =>
      u.sessionUpdate === "tool_call_update" && u.toolCallId === "consent-reviewer-reviewer"
    ) as acp.ToolCallUpdate;
    assert.equal(end.status, "failed");
    assert.match(JSON.stringify(end.content), /hs packs approve reviewer/);
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.match(list.stdout, /awaiting approval/);
  } finally {
    await t.close();
  }
});
