import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AssistantBlock,
  parseAssistantBody,
  parseMessageFile,
  renderAssistantBody,
  Session,
  splitFrontmatter,
} from "../../core/mod.ts";

Deno.test("only the first frontmatter block is frontmatter; a body may contain ---", () => {
  const { meta, body } = splitFrontmatter(
    "---\nrole: user\nseq: 0001\n---\nhello\n---\nnot: meta\n",
  );
  assert.deepEqual(meta, { role: "user", seq: "0001" });
  assert.equal(body, "hello\n---\nnot: meta");
});

Deno.test("assistant bodies round-trip text, thinking and tool calls", () => {
  const blocks: AssistantBlock[] = [
    { type: "thinking", text: "let me think\nhard", signature: "sig==" },
    { type: "text", text: "I will call a tool." },
    { type: "tool_call", id: "toolu_1", name: "bash", input: { command: "ls -la" } },
    { type: "tool_call", id: "toolu_2", name: "read_file", input: { path: "a b.txt" } },
  ];
  assert.deepEqual(parseAssistantBody(renderAssistantBody(blocks)), blocks);
});

Deno.test("a reference-written assistant file parses", () => {
  const text = "---\nrole: assistant\nseq: 0002\ntimestamp: 2026-01-01T00:00:00+00:00\nmodel: m\n" +
    "provider: anthropic\nstop: tool_calls\ntokens_in: 1\ntokens_out: 2\n---\nChecking.\n\n" +
    '```tool_call id=toolu_9 name=bash\n{"command":"pwd"}\n```\n\n';
  const m = parseMessageFile("0002-assistant.md", text);
  assert.deepEqual(m, {
    role: "assistant",
    seq: 2,
    model: "m",
    provider: "anthropic",
    stop: "tool_calls",
    blocks: [
      { type: "text", text: "Checking." },
      { type: "tool_call", id: "toolu_9", name: "bash", input: { command: "pwd" } },
    ],
  });
});

Deno.test("sessions append atomically, index incrementally and notice external edits", async () => {
  const root = await Deno.makeTempDir();
  try {
    const s = Session.create(root, { cwd: "/w", model: "m", provider: "p" });
    s.appendUser("one");
    s.appendAssistant([{ type: "text", text: "two" }], {
      model: "m",
      provider: "p",
      stop: "end",
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    s.appendToolResult("c1", "bash", true, "line\n---\nmore");
    assert.equal(s.count, 3);
    // no temp files are left behind
    assert.deepEqual([...Deno.readDirSync(join(s.dir, "messages"))].map((e) => e.name).sort(), [
      "0001-user.md",
      "0002-assistant.md",
      "0003-tool_result.md",
    ]);
    // an external writer (a hook) adds a message: refresh picks it up
    Deno.writeTextFileSync(
      join(s.dir, "messages/0004-user.md"),
      "---\nrole: user\nseq: 0004\ntimestamp: x\n---\nfour\n",
    );
    s.refresh(false);
    const msgs = s.messages();
    assert.equal(msgs.length, 4);
    assert.deepEqual(msgs[2], {
      role: "tool_result",
      seq: 3,
      callId: "c1",
      tool: "bash",
      error: true,
      text: "line\n---\nmore",
    });
    assert.deepEqual(msgs[3], { role: "user", seq: 4, text: "four" });
    // reopening reads the same conversation
    const again = Session.open(s.dir);
    assert.deepEqual(again.messages(), msgs);
    assert.equal(again.conf.cwd, "/w");
    // the next seq continues after the highest file
    assert.equal(again.appendUser("five"), 5);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a sessions directory that cannot be created is a clear error", () => {
  const file = Deno.makeTempFileSync();
  try {
    assert.throws(
      () => Session.create(join(file, "sessions"), { cwd: "/", model: "", provider: "" }),
      /cannot create the sessions directory .*sessions.*/,
    );
  } finally {
    Deno.removeSync(file);
  }
});
