/**
 * End-to-end, through `deno task hs` against the scripted loopback server:
 * a session pushed past a small configured window compacts automatically (one
 * extra request) and the next request fits, the originals stay on disk;
 * Anthropic requests carry cache breakpoints and cached tokens reach usage; a
 * provider switch mid-session resumes with the other protocol.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loopbackConf,
  loopbackWorkspace,
  runHs,
  sessionsOf,
  writeFile,
} from "../support/workspace.ts";
import type { RecordedRequest } from "../../plugins/scripted/mod.ts";

const words = (n: number) => "lorem ipsum dolor sit amet ".repeat(n).trim();

/** The text of a recorded Anthropic request's last message. */
function lastText(req: RecordedRequest): string {
  const msgs = (req.body as { messages: { content: unknown }[] }).messages;
  const c = msgs.at(-1)!.content;
  return typeof c === "string" ? c : (c as { text?: string }[]).map((b) => b.text ?? "").join("");
}

function sessionId(w: { home: string; ws: string }): string {
  return [...Deno.readDirSync(sessionsOf(w))][0].name;
}

Deno.test("a session past a small window compacts itself with one extra request; the next request fits; the originals stay", async () => {
  const WINDOW = 3000;
  const t = await loopbackWorkspace([
    { text: "first answer " + words(10) },
    { text: "second answer " + words(10) },
    { text: "SUMMARY: the user sent three long messages about lorem ipsum." },
    { text: "third answer" },
  ], { confExtra: `context=${WINDOW}\nmax_tokens=256\n` });
  try {
    const env = { ...t.w.env, HARNESS_COMPACT_KEEP: "1" };
    const one = await runHs(["agent", "one " + words(60)], { cwd: t.w.ws, env });
    assert.equal(one.code, 0, one.stderr);
    const id = sessionId(t.w);
    const two = await runHs([id, "two " + words(60)], { cwd: t.w.ws, env });
    assert.equal(two.code, 0, two.stderr);
    assert.equal(t.server.requests.length, 2, "no compaction while the session fits");
    const three = await runHs([id, "three " + words(60)], { cwd: t.w.ws, env });
    assert.equal(three.code, 0, three.stderr);
    assert.equal(three.stdout.trim(), "third answer");
    // exactly one extra request: the summary, then the real one
    assert.equal(t.server.requests.length, 4);
    assert.deepEqual(t.server.failures, []);
    const [, , summaryReq, next] = t.server.requests;
    assert.match(lastText(summaryReq), /^Summarize the conversation above/);
    const nextMsgs = (next.body as { messages: { content: unknown }[] }).messages;
    assert.match(JSON.stringify(nextMsgs[0]), /This conversation was compacted/);
    assert.match(JSON.stringify(nextMsgs[0]), /SUMMARY: the user sent three long messages/);
    assert.match(lastText(next), /^three lorem/);
    // the next request fits: the server's own count (characters / 4) is under the threshold
    const size = Math.ceil(JSON.stringify(next.body).length / 4);
    assert.ok(size < 0.8 * WINDOW, `next request ≈ ${size} tokens`);
    const before = Math.ceil(JSON.stringify(summaryReq.body).length / 4);
    assert.ok(size < before, `${size} < ${before}`);
    // every original message is still a file, marked compacted into the summary
    const dir = join(sessionsOf(t.w), id, "messages");
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, [
      "0001-user.md",
      "0002-assistant.md",
      "0003-user.md",
      "0004-assistant.md",
      "0005-user.md",
      "0006-user.md",
      "0007-assistant.md",
    ]);
    for (const n of names.slice(0, 4)) {
      const text = Deno.readTextFileSync(join(dir, n));
      assert.match(text, /\ncompacted: 0006\n---\n/);
    }
    assert.match(Deno.readTextFileSync(join(dir, "0001-user.md")), /---\none lorem ipsum/);
    const summary = Deno.readTextFileSync(join(dir, "0006-user.md"));
    assert.match(summary, /^---\nrole: user\nseq: 0006\n/);
    assert.match(
      summary,
      /\nsummary: 0001-0004\nreason: threshold\nmodel: scripted-1\nprovider: loop\n/,
    );
    // hs session show: the originals marked, the summary, then the budget and usage
    const show = await runHs(["session", "show", id], { cwd: t.w.ws, env });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /\nuser \(compacted into 0006\)\none lorem/);
    assert.match(show.stdout, /\nsummary of 0001-0004\n/);
    assert.match(
      show.stdout,
      /\nbudget {2}loop · scripted-1 · \d[\d.]*k? \/ 3k tokens \(\d+%\) · 4 compacted\n/,
    );
    assert.match(show.stdout, /\nusage {3}loop · scripted-1: 4 requests, in /);
  } finally {
    await t.close();
  }
});

Deno.test("Anthropic requests carry cache breakpoints; cached tokens reach the message files and --json usage", async () => {
  const t = await loopbackWorkspace([
    {
      text: "Checking.",
      toolCalls: [{ id: "toolu_1", name: "bash", input: { command: "echo hi" } }],
    },
    { text: "It printed hi." },
    { text: "Still here." },
  ], { server: { promptCache: true } });
  try {
    const one = await runHs(["agent", "run echo " + words(40)], { cwd: t.w.ws, env: t.w.env });
    assert.equal(one.code, 0, one.stderr);
    const id = sessionId(t.w);
    const two = await runHs(["agent", "--json", id, "again"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(two.code, 0, two.stderr);
    for (const req of t.server.requests) {
      const body = req.body as Record<string, unknown>;
      const tools = body.tools as Record<string, unknown>[];
      assert.deepEqual(tools.at(-1)!.cache_control, { type: "ephemeral" });
      assert.deepEqual((body.system as Record<string, unknown>[]).at(-1)!.cache_control, {
        type: "ephemeral",
      });
      const msgs = body.messages as { content: Record<string, unknown>[] }[];
      assert.deepEqual(msgs.at(-1)!.content.at(-1)!.cache_control, { type: "ephemeral" });
    }
    // the second and third requests read the prefix the one before wrote
    const dir = join(sessionsOf(t.w), id, "messages");
    assert.doesNotMatch(Deno.readTextFileSync(join(dir, "0002-assistant.md")), /tokens_cache_read/);
    assert.match(
      Deno.readTextFileSync(join(dir, "0002-assistant.md")),
      /\ntokens_cache_write: \d+\n/,
    );
    assert.match(
      Deno.readTextFileSync(join(dir, "0004-assistant.md")),
      /\ntokens_cache_read: \d+\n/,
    );
    const json = JSON.parse(two.stdout);
    assert.ok(json.usage.cache_read_input_tokens > 0, two.stdout);
  } finally {
    await t.close();
  }
});

Deno.test("a provider switch mid-session resumes with the other protocol (Anthropic → OpenAI chat)", async () => {
  const t = await loopbackWorkspace([
    {
      text: "Checking.",
      toolCalls: [{ id: "toolu_9", name: "bash", input: { command: "echo hi" } }],
    },
    { text: "It printed hi." },
    { text: "Answered by the OpenAI-shaped provider." },
  ]);
  try {
    await writeFile(
      join(t.w.ws, ".harness/providers/other.conf"),
      loopbackConf(t.server.url, "openai").replace("model=scripted-1", "model=scripted-2"),
    );
    const one = await runHs(["agent", "run echo"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(one.code, 0, one.stderr);
    const id = sessionId(t.w);
    const two = await runHs(["-p", "other", id, "and now?"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(two.code, 0, two.stderr);
    assert.equal(two.stdout.trim(), "Answered by the OpenAI-shaped provider.");
    const last = t.server.requests.at(-1)!;
    assert.equal(last.path, "/v1/chat/completions");
    const msgs = (last.body as { messages: Record<string, unknown>[] }).messages;
    // the Anthropic tool_use became an OpenAI tool call, its result a tool message
    const call = msgs.find((m) => Array.isArray(m.tool_calls))!;
    assert.equal((call.tool_calls as { id: string }[])[0].id, "toolu_9");
    assert.ok(msgs.some((m) => m.role === "tool" && m.tool_call_id === "toolu_9"));
    const conf = Deno.readTextFileSync(join(sessionsOf(t.w), id, "session.conf"));
    assert.match(conf, /\nmodel=scripted-2\nprovider=other\n/);
  } finally {
    await t.close();
  }
});
