/**
 * End-to-end: the real CLI against a real loopback server speaking the
 * Anthropic Messages streaming protocol, with fixture executables in bash
 * and python.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loopbackWorkspace,
  makeWorkspace,
  plainBody,
  runHs,
  type Workspace,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

const ECHO_TOOL = (name: string, reply: string) =>
  `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"${name}","description":"test tool ${name}","input_schema":{"type":"object","properties":{"text":{"type":"string"}}}}' ;;
  --describe) echo "test tool ${name}" ;;
  --exec) input="$(cat)"; echo "${reply} $input"; echo "cwd=$HARNESS_CWD" ;;
esac
`;

const setup = loopbackWorkspace;

function sessionDirOf(w: Workspace, stderr: string): string {
  const m = /session: (\S+)/.exec(stderr);
  assert.ok(m, `no session line in stderr: ${stderr}`);
  return m[1].replace(/^~/, w.root);
}

function messages(dir: string): string[] {
  return [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name).sort();
}

Deno.test("a python tool is discovered, called, and the session files match the protocol", async () => {
  const t = await setup([
    {
      text: "Counting.",
      toolCalls: [{ id: "toolu_1", name: "count_words", input: { text: "a b c" } }],
    },
    { text: "There are 3 words." },
  ]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/tools/count_words"),
      `#!/usr/bin/env python3
import json, sys
arg = sys.argv[1] if len(sys.argv) > 1 else ""
if arg == "--schema":
    print(json.dumps({"name": "count_words", "description": "Count words",
        "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}))
elif arg == "--describe":
    print("Count words in a text")
elif arg == "--exec":
    data = json.load(sys.stdin)
    print(len(data["text"].split()))
`,
    );
    const r = await runHs(["count", "the", "words"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "There are 3 words.\n");
    // the model saw the tool, in Anthropic's shape
    const first = plainBody<{
      tools: { name: string; input_schema: unknown }[];
      system: string;
    }>(t.server.requests[0].body);
    assert.ok(
      first.tools.some((x) => x.name === "count_words" && typeof x.input_schema === "object"),
    );
    // the tool result went back to the model
    const second = plainBody<{ messages: { role: string; content: unknown }[] }>(
      t.server.requests[1].body,
    );
    const last = second.messages.at(-1)!;
    assert.equal(last.role, "user");
    assert.deepEqual(last.content, [{ type: "tool_result", tool_use_id: "toolu_1", content: "3" }]);

    const dir = sessionDirOf(t.w, r.stderr);
    assert.deepEqual(messages(dir), [
      "0001-user.md",
      "0002-assistant.md",
      "0003-tool_result.md",
      "0004-assistant.md",
    ]);
    const user = Deno.readTextFileSync(join(dir, "messages/0001-user.md"));
    assert.match(
      user,
      /^---\nrole: user\nseq: 0001\ntimestamp: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d\n---\ncount the words\n$/,
    );
    const asst = Deno.readTextFileSync(join(dir, "messages/0002-assistant.md"));
    assert.match(
      asst,
      /^---\nrole: assistant\nseq: 0002\ntimestamp: \S+\nmodel: scripted-1\nprovider: loop\nstop: tool_calls\ntokens_in: \d+\ntokens_out: \d+\n---\nCounting\.\n\n```tool_call id=toolu_1 name=count_words\n\{"text":"a b c"\}\n```\n\n$/,
    );
    const tr = Deno.readTextFileSync(join(dir, "messages/0003-tool_result.md"));
    assert.match(
      tr,
      /^---\nrole: tool_result\nseq: 0003\ntimestamp: \S+\ncall_id: toolu_1\ntool: count_words\nerror: false\n---\n3\n$/,
    );
    const conf = Deno.readTextFileSync(join(dir, "session.conf"));
    assert.match(
      conf,
      new RegExp(
        `^id=\\d{8}-\\d{6}-\\d+\nmodel=scripted-1\nprovider=loop\ncreated=\\S+\ncwd=${t.w.ws}\n$`,
      ),
    );
    const stream = Deno.readTextFileSync(join(dir, ".stream")).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(stream.at(-1).type, "done");
    assert.ok(stream.some((e) => e.type === "stop" && e.reason === "end" && e.seq === "0004"));
  } finally {
    await t.close();
  }
});

Deno.test("a more local tool overrides a less local one with the same basename", async () => {
  const t = await setup([
    { toolCalls: [{ id: "toolu_1", name: "greet", input: { text: "x" } }] },
    { text: "ok" },
  ]);
  try {
    // HARNESS_HOME (global) and the workspace both define `greet`
    await writeExe(join(t.w.home, "tools/greet"), ECHO_TOOL("greet", "GLOBAL"));
    await writeExe(join(t.w.ws, ".harness/tools/greet"), ECHO_TOOL("greet", "LOCAL"));
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const dir = sessionDirOf(t.w, r.stderr);
    const result = Deno.readTextFileSync(join(dir, "messages/0003-tool_result.md"));
    assert.match(result, /LOCAL \{"text":"x"\}/);
    assert.doesNotMatch(result, /GLOBAL/);
  } finally {
    await t.close();
  }
});

Deno.test("a tool_exec gate reading .tool_calls[0] blocks one call and the tool does not run", async () => {
  const t = await setup([
    {
      toolCalls: [
        { id: "toolu_a", name: "touch_marker", input: { text: "allowed" } },
        { id: "toolu_b", name: "touch_marker", input: { text: "forbidden" } },
      ],
    },
    { text: "finished" },
  ]);
  try {
    const markers = join(t.w.root, "markers");
    await Deno.mkdir(markers);
    await writeExe(
      join(t.w.ws, ".harness/tools/touch_marker"),
      `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"touch_marker","description":"touch","input_schema":{"type":"object","properties":{"text":{"type":"string"}}}}' ;;
  --exec) v="$(cat | python3 -c 'import json,sys; print(json.load(sys.stdin)["text"])')"; touch "${markers}/$v"; echo "touched $v" ;;
esac
`,
    );
    // The gate: refuses calls whose input says "forbidden" by answering the call itself
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/tool_exec/05-gate"),
      `#!/usr/bin/env python3
import json, sys
ctx = json.load(sys.stdin)
call = ctx["tool_calls"][0]
if call["input"].get("text") == "forbidden":
    print(json.dumps({"call_id": call["id"], "name": call["name"], "input": call["input"],
        "result": "blocked by gate", "error": True, "tool_calls": ctx["tool_calls"][1:],
        "next_state": "tool_done"}))
    sys.exit(0)
print(json.dumps(ctx))
`,
    );
    // the markers live outside the workspace: let tools write there (effect floor)
    const r = await runHs(["go", "--allow-write", markers], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    // With a gate that passes through, 10-exec still runs after it — so the
    // gate must short-circuit by routing; a gate that exits non-zero is the other form.
    const names = [...Deno.readDirSync(markers)].map((e) => e.name).sort();
    assert.ok(names.includes("allowed"));
    assert.ok(!names.includes("forbidden"), "the blocked tool ran");
    const dir = sessionDirOf(t.w, r.stderr);
    const results = messages(dir).filter((n) => n.endsWith("tool_result.md")).map((n) =>
      Deno.readTextFileSync(join(dir, "messages", n))
    );
    assert.ok(
      results.some((x) =>
        /call_id: toolu_b/.test(x) && /error: true/.test(x) && /blocked by gate/.test(x)
      ),
    );
  } finally {
    await t.close();
  }
});

Deno.test("a gate exiting non-zero stops the call before the tool runs and routes to error", async () => {
  const t = await setup([{ toolCalls: [{ id: "toolu_x", name: "touch_marker", input: {} }] }]);
  try {
    const marker = join(t.w.root, "ran");
    await writeExe(
      join(t.w.ws, ".harness/tools/touch_marker"),
      `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"touch_marker","description":"touch","input_schema":{"type":"object"}}' ;;
  --exec) touch "${marker}"; echo done ;;
esac
`,
    );
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/tool_exec/05-deny"),
      `#!/usr/bin/env bash\nin="$(cat)"\necho "denied: $(echo "$in" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_calls"][0]["name"])')" >&2\nexit 3\n`,
    );
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /05-deny exited 3 during tool_exec: denied: touch_marker/);
    assert.equal(await Deno.stat(marker).then(() => true, () => false), false);
  } finally {
    await t.close();
  }
});

Deno.test("an observer hook on receive writes to $HARNESS_SESSION and passes the payload through", async () => {
  const t = await setup([{ text: "hello there", usage: { input_tokens: 11, output_tokens: 7 } }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/receive/20-cost"),
      `#!/usr/bin/env bash
set -euo pipefail
r="$(cat)"
in="$(echo "$r" | python3 -c 'import json,sys; print(json.load(sys.stdin)["usage"]["input_tokens"])')"
echo "in=$in stage=$HARNESS_STAGE" >> "$HARNESS_SESSION/cost.log"
echo "$r"
`,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello there\n");
    const dir = sessionDirOf(t.w, r.stderr);
    assert.equal(Deno.readTextFileSync(join(dir, "cost.log")), "in=11 stage=receive\n");
  } finally {
    await t.close();
  }
});

Deno.test("a custom stage is reached through next_state", async () => {
  const t = await setup([{ text: "draft answer" }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/receive/90-review"),
      `#!/usr/bin/env python3
import json, sys
ctx = json.load(sys.stdin)
if ctx.get("next_state") == "done":
    ctx["next_state"] = "review"
print(json.dumps(ctx))
`,
    );
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/review/10-stamp"),
      `#!/usr/bin/env python3
import json, sys
ctx = json.load(sys.stdin)
print(json.dumps({"output": "[reviewed] " + ctx["output"]}))
`,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "[reviewed] draft answer\n");
  } finally {
    await t.close();
  }
});

Deno.test("an executable command runs with its arguments and the HARNESS_ environment", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(
      join(w.ws, ".harness/commands/greet"),
      `#!/usr/bin/env bash\n[ "$1" = --describe ] && { echo "say hello"; exit 0; }\necho "hello $* from $HARNESS_CWD home=$HARNESS_HOME"\nexit 4\n`,
    );
    const r = await runHs(["greet", "a", "b"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 4);
    assert.equal(r.stdout, `hello a b from ${w.ws} home=${w.home}\n`);
    const help = await runHs(["help"], { cwd: w.ws, env: w.env });
    assert.match(help.stdout, /greet\s+say hello/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a pack under .harness/plugins contributes a tool and a prompt", async () => {
  const t = await setup([
    { toolCalls: [{ id: "toolu_p", name: "pack_tool", input: { text: "p" } }] },
    { text: "ok" },
  ]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/plugins/mypack/tools/pack_tool"),
      ECHO_TOOL("pack_tool", "FROM-PACK"),
    );
    await writeFile(
      join(t.w.ws, ".harness/plugins/mypack/prompts/10-pack.md"),
      "Pack prompt here.",
    );
    await writeFile(join(t.w.ws, "AGENTS.md"), "Project rules here.");
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const body = plainBody<{ system: string }>(t.server.requests[0].body);
    assert.match(body.system, /Pack prompt here\.[\s\S]*Project rules here\./);
    const dir = sessionDirOf(t.w, r.stderr);
    assert.match(Deno.readTextFileSync(join(dir, "messages/0003-tool_result.md")), /FROM-PACK/);
  } finally {
    await t.close();
  }
});

Deno.test("resuming a session sends the earlier messages and appends to the same directory", async () => {
  const t = await setup([{ text: "first answer" }, { text: "second answer" }]);
  try {
    const r1 = await runHs(["first", "question"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r1.code, 0, r1.stderr);
    const dir = sessionDirOf(t.w, r1.stderr);
    const id = dir.split("/").pop()!;
    const r2 = await runHs([id, "second", "question"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, "second answer\n");
    const body = plainBody<{ messages: { role: string; content: unknown }[] }>(
      t.server.requests[1].body,
    );
    assert.deepEqual(body.messages, [
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second question" },
    ]);
    assert.deepEqual(messages(dir), [
      "0001-user.md",
      "0002-assistant.md",
      "0003-user.md",
      "0004-assistant.md",
    ]);
    const list = await runHs(["session", "list"], { cwd: t.w.ws, env: t.w.env });
    assert.match(list.stdout, new RegExp(`${id}\\s+4 msgs`));
    const show = await runHs(["session", "show", id], { cwd: t.w.ws, env: t.w.env });
    assert.match(show.stdout, /first question[\s\S]*second answer/);
    const sdir = await runHs(["session", "dir"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(sdir.stdout.trim(), dir);
  } finally {
    await t.close();
  }
});

Deno.test("--json prints the answer, usage and session id; --events prints canonical events", async () => {
  const t = await setup([
    { text: "json answer", usage: { input_tokens: 5, output_tokens: 2 } },
    { text: "events answer" },
  ]);
  try {
    const r = await runHs(["--json", "hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.output, "json answer");
    assert.deepEqual(j.usage, { input_tokens: 5, output_tokens: 2 });
    assert.match(j.session, /^\d{8}-\d{6}-\d+/);
    assert.equal(j.error, null);
    const e = await runHs(["agent", "--events", "hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(e.code, 0, e.stderr);
    const events = e.stdout.trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(events.some((x) => x.type === "text"));
    assert.equal(
      events.filter((x) => x.type === "text").map((x) => x.text).join(""),
      "events answer",
    );
    assert.equal(events.at(-1).type, "turn_end");
  } finally {
    await t.close();
  }
});

Deno.test("a message on stdin runs the agent", async () => {
  const t = await setup([{ text: "from stdin" }]);
  try {
    const r = await runHs([], { cwd: t.w.ws, env: t.w.env, stdin: "piped message\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "from stdin\n");
    const body = plainBody<{ messages: { content: string }[] }>(t.server.requests[0].body);
    assert.equal(body.messages[0].content, "piped message");
  } finally {
    await t.close();
  }
});
