/**
 * Runtime plugins through `deno task hs` (the launcher): `hs plugins` shows
 * state, contributions and the host's reason; an MCP server and the
 * audit-jsonl file configured in plugins.json work under the launcher's grant
 * (the server's command is granted `run`, the audit directory `write`), and
 * the MCP child runs in the OS sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, runHs, sessionsOf, writeFile } from "../support/workspace.ts";
import { mcpServer } from "../support/mcp.ts";

Deno.test("hs plugins, an MCP tool call and the audit file, through the launcher", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "e1", name: "mcp__everything__echo", input: { message: "via hs" } }] },
    { text: "all done" },
  ]);
  try {
    const audit = join(t.w.root, "audit-dir", "events.jsonl");
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [
          {
            id: "mcp",
            config: { servers: { everything: mcpServer("server-everything", ["stdio"]) } },
          },
          { id: "audit-jsonl", config: { path: audit } },
          { id: "broken", module: join(t.w.root, "missing.ts"), required: false },
        ],
      }),
    );
    const list = await runHs(["plugins"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^core-tools\s+\S+\s+active \(built-in\)/m);
    assert.match(list.stdout, /^mcp\s+1\.0\.0\s+active/m);
    const log = () => Deno.readTextFileSync(t.w.env.HARNESS_LOG);
    assert.match(list.stdout, /tools: mcp__everything__echo/, log());
    assert.match(list.stdout, /^memory\s+\S+\s+active/m);
    assert.match(list.stdout, /^broken\s+failed \(optional\) — module could not be imported/m);
    const json = JSON.parse(
      (await runHs(["plugins", "--json"], { cwd: t.w.ws, env: t.w.env })).stdout,
    );
    assert.equal(json.find((p: { id: string }) => p.id === "audit-jsonl").state, "active");

    const r = await runHs(["call the echo tool"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /all done/);
    const lines = (await Deno.readTextFile(audit)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.filter((e) => e.tool === "mcp__everything__echo").map((
        e,
      ) => [e.type, e.record ?? e.outcome]),
      [["permission", "decision"], ["tool_execution", "ok"]],
    );
    const session = (await runHs(["session", "list"], { cwd: t.w.ws, env: t.w.env })).stdout;
    assert.ok(session.trim().length > 0);
  } finally {
    await t.close();
  }
});

Deno.test("an MCP result has the session's one cap: under it whole, over it capped and saved in outputs/", async () => {
  // 150,000 characters: more than the MCP connector's old own cap, under the session's
  const under = "u".repeat(150_000);
  // 300,000 characters: over the session's cap
  const over = "o".repeat(149_999) + "MIDDLE" + "o".repeat(149_995);
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "m1", name: "mcp__everything__echo", input: { message: under } }] },
    { toolCalls: [{ id: "m2", name: "mcp__everything__echo", input: { message: over } }] },
    { text: "all done" },
  ]);
  try {
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [{
          id: "mcp",
          config: { servers: { everything: mcpServer("server-everything", ["stdio"]) } },
        }],
      }),
    );
    const r = await runHs(["--events", "echo twice"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_RESULT_LIMIT: "200000" },
    });
    assert.equal(r.code, 0, r.stderr);
    const resultOf = (i: number): string => {
      const msgs = (t.server.requests[i].body as { messages: { content: unknown }[] }).messages;
      const blocks = msgs.at(-1)!.content as { type: string; content: unknown }[];
      const c = blocks.find((b) => b.type === "tool_result")!.content;
      return typeof c === "string" ? c : (c as { text: string }[]).map((b) => b.text).join("");
    };
    const first = resultOf(1);
    assert.ok(first.includes(under), `the whole result under the cap (${first.length} chars)`);
    assert.doesNotMatch(first, /more characters cut|output truncated/);
    const second = resultOf(2);
    assert.ok(second.length < 210_000, `capped at the session's limit (${second.length})`);
    assert.match(second, /output truncated/);
    assert.ok(!second.includes("MIDDLE"), "the middle is left out of the conversation");
    const session = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.type === "session").id as string;
    const saved = await Deno.readTextFile(join(sessionsOf(t.w), session, "outputs", "m2.txt"));
    assert.ok(saved.includes(over), "the whole result is saved in outputs/");
  } finally {
    await t.close();
  }
});
