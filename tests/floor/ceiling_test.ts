/**
 * Issue 23, cause 8 ("Ceilings only narrow"): a sub-agent started through the `agent` tool
 * never holds more than its parent. A plain worker gets the parent's ceiling and runs under
 * the parent's guards; a named child bot runs its own behavior inside the intersection of its
 * own `tools` and the parent's ceiling. Through the launcher, with a behavior pack whose
 * foreground bot has `tools: [bash, agent]` and a guard refusing `rm *`, and a scripted model
 * that serves the parent's and the children's requests. Each test checks the consequence:
 * which tools reached the model, which file exists, which command ran.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { events, type PackFiles, packsWorkspace } from "../e2e/_packs_kit.ts";
import { plainBody, runHs } from "../support/workspace.ts";

/** The boss pack: a foreground bot with tools [bash, agent] and a guard refusing `rm`. */
function bossPack(): PackFiles {
  return {
    name: "boss",
    files: {
      "plugin.json": JSON.stringify({
        name: "boss",
        version: "1.0.0",
        extensions: {
          "tools.inhuman": { bots: ["./bots/boss.prompt", "./bots/scribe.prompt"] },
        },
      }),
      "bots/boss.prompt":
        "---\nattach: foreground\ntools: [bash, agent]\nbehavior:\n  program: ../boss.scm\n---\nYou delegate.\n",
      "boss.scm": `(guard/shell :id 'no-rm
  :match "rm *"
  :middleware (lambda (raw invoke) (refuse "the boss never removes files")))
`,
      // a named bot that asks for more than the boss holds, with a guard of its own
      "bots/scribe.prompt":
        "---\ntools: [bash, write_file, read_file]\nbehavior:\n  program: ../scribe.scm\n---\nYou write.\n",
      "scribe.scm": `(guard/shell :id 'no-touch
  :match "touch *"
  :middleware (lambda (raw invoke) (refuse "the scribe never touches")))
`,
    },
  };
}

const toolCall = (id: string, name: string, input: unknown): ScriptedTurn => ({
  toolCalls: [{ id, name, input }],
});

/** The tool names of the recorded request `i`. */
function toolsOf(server: { requests: { body: unknown }[] }, i: number): string[] {
  const body = plainBody<{ tools?: { name: string }[] }>(server.requests[i].body);
  return (body.tools ?? []).map((t) => t.name).sort();
}

Deno.test("a plain worker holds only its parent's ceiling and runs under its parent's guards (issue 23, cause 8)", async () => {
  const t = await packsWorkspace([
    toolCall("a1", "agent", { prompt: "clean up" }), // the boss delegates
    toolCall("w1", "write_file", { path: "planted.txt", content: "from the worker" }),
    toolCall("w2", "bash", { command: "touch rm-ran && rm victim.txt" }),
    toolCall("w3", "memory", { action: "list" }),
    { text: "worker done" },
    { text: "boss done" },
  ], [bossPack()]);
  try {
    await Deno.writeTextFile(join(t.w.ws, "victim.txt"), "keep me\n");
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(t.server.requests.length, 6, "boss, three worker rounds, worker end, boss end");
    // what reached the model: the boss's and the worker's tools are the boss's ceiling
    assert.deepEqual(toolsOf(t.server, 0), ["agent", "bash"]);
    for (const i of [1, 2, 3, 4]) {
      assert.deepEqual(toolsOf(t.server, i), ["agent", "bash"], `worker request ${i}`);
    }
    // the consequences: nothing written, the refused command did not run
    await assert.rejects(Deno.stat(join(t.w.ws, "planted.txt")), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(join(t.w.ws, "rm-ran")), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(join(t.w.ws, "victim.txt")), "keep me\n");
    // and what the worker was told (its tool results went back to the model)
    const worker = (i: number) => JSON.stringify(plainBody(t.server.requests[i].body));
    assert.match(worker(2), /tool 'write_file' not found/);
    assert.match(worker(3), /refused by guard boss\/boss\/no-rm: the boss never removes files/);
    assert.match(worker(4), /tool 'memory' not found/);
    assert.equal(events(r.stdout).filter((e) => e.type === "tool_done").length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("a named child bot runs its own guards inside the intersection of its tools and its parent's (issue 23, cause 8)", async () => {
  const t = await packsWorkspace([
    toolCall("a1", "agent", { prompt: "write it down", bot: "scribe" }),
    toolCall("s1", "write_file", { path: "planted.txt", content: "from the scribe" }),
    toolCall("s2", "bash", { command: "touch touched" }),
    { text: "scribe done" },
    { text: "boss done" },
  ], [bossPack()]);
  try {
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(t.server.requests.length, 5);
    // the scribe asked for bash, write_file and read_file; the boss holds bash and agent
    for (const i of [1, 2, 3]) assert.deepEqual(toolsOf(t.server, i), ["bash"], `scribe ${i}`);
    const scribe = (i: number) => JSON.stringify(plainBody(t.server.requests[i].body));
    assert.match(scribe(1), /You write\./, "the scribe's own prompt");
    assert.match(scribe(2), /tool 'write_file' not found/);
    assert.match(scribe(3), /refused by guard boss\/scribe\/no-touch/, "its own guard");
    await assert.rejects(Deno.stat(join(t.w.ws, "planted.txt")), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(join(t.w.ws, "touched")), Deno.errors.NotFound);
  } finally {
    await t.close();
  }
});

Deno.test("a worker of an agent without a ceiling keeps the default tools (issue 23, cause 8)", async () => {
  const t = await packsWorkspace([
    toolCall("a1", "agent", { prompt: "look around" }),
    { text: "worker done" },
    { text: "main done" },
  ], []);
  try {
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const main = toolsOf(t.server, 0);
    assert.ok(main.includes("write_file") && main.includes("agent"), main.join(","));
    assert.deepEqual(toolsOf(t.server, 1), main, "nothing to narrow: the same tools");
  } finally {
    await t.close();
  }
});

Deno.test("a worker holds only the tools it asks for, and never more than its parent (issue 23, cause 8)", async () => {
  const t = await packsWorkspace([
    toolCall("a1", "agent", { prompt: "read only", tools: ["read_file", "bash"] }),
    toolCall("w1", "write_file", { path: "planted.txt", content: "x" }),
    { text: "worker done" },
    { text: "boss done" },
  ], [bossPack()]);
  try {
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    // asked for read_file and bash; the boss holds bash and agent: bash is all it gets
    assert.deepEqual(toolsOf(t.server, 1), ["bash"]);
    assert.match(
      JSON.stringify(plainBody(t.server.requests[2].body)),
      /tool 'write_file' not found/,
    );
    await assert.rejects(Deno.stat(join(t.w.ws, "planted.txt")), Deno.errors.NotFound);
  } finally {
    await t.close();
  }
});
