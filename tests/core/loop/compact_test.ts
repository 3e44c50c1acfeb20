/**
 * The `compact` stage in a turn driven by fakes: a request that would pass the
 * threshold is preceded by exactly one summary request; a failure is an error
 * with a hint that leaves the session unchanged; a provider's "prompt is too
 * long" compacts and retries once; an executable hook replaces 10-summarize.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type ConversationMessage,
  ProviderError,
  type ResolvedLimits,
  Session,
} from "../../../core/mod.ts";
import { answer, emptySnapshot, fakeHost, scriptedTurn, withTempDir } from "./_fakes.ts";

type Answer = ReturnType<typeof answer> | Error;

/** A session with `turns` earlier turns of about 1,000 characters each. */
function history(dir: string, turns: number): Session {
  const s = Session.create(join(dir, "sessions"), { cwd: dir, model: "fake-1", provider: "fake" });
  for (let i = 1; i <= turns; i++) {
    s.appendUser(`question ${i} ` + "q".repeat(1000));
    s.appendAssistant([{ type: "text", text: `answer ${i} ` + "a".repeat(1000) }], {
      model: "fake-1",
      provider: "fake",
      stop: "end",
      usage: { input_tokens: 0, output_tokens: 0 },
    });
  }
  return s;
}

function turnOn(
  dir: string,
  session: Session,
  answers: Answer[],
  opts: { limits?: ResolvedLimits; env?: Record<string, string>; snapshot?: () => never } = {},
) {
  const host = fakeHost(dir, { env: opts.env, snapshot: opts.snapshot });
  const events: string[] = [];
  const { provider, turn } = scriptedTurn(host, dir, answers, {
    session,
    limits: opts.limits,
    onEvent: (e) => {
      if (e.type === "compact_start" || e.type === "compact_done") events.push(e.type);
    },
  });
  return { host, provider, turn, events };
}

const lastText = (p: Record<string, unknown>) => {
  const m = (p.messages as ConversationMessage[]).at(-1)!;
  return m.role === "user" ? m.text : "";
};

Deno.test("compact: a request past the threshold is preceded by exactly one summary request", async () => {
  await withTempDir(async (dir) => {
    const s = history(dir, 4);
    const t = turnOn(dir, s, [answer("SUMMARY of turns 1-3"), answer("the answer")], {
      limits: { context: 2000, maxOutput: 100, source: "conf" },
      env: { HARNESS_COMPACT_KEEP: "1" },
    });
    const r = await t.turn.run("question 5");
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "the answer");
    assert.equal(t.provider.payloads.length, 2, "one extra request");
    const [summaryReq, next] = t.provider.payloads;
    assert.match(lastText(summaryReq), /^Summarize the conversation above/);
    // the summary request repeats the system prompt and tools of the conversation
    assert.equal(summaryReq.system, next.system);
    assert.deepEqual(summaryReq.tools, next.tools);
    // the next request starts with the summary and keeps the last turn verbatim
    const msgs = next.messages as ConversationMessage[];
    assert.ok(msgs[0].role === "user" && msgs[0].summary === true);
    assert.match(
      (msgs[0] as { text: string }).text,
      /<summary>\nSUMMARY of turns 1-3\n<\/summary>/,
    );
    assert.deepEqual(msgs.slice(1).map((m) => m.seq), [9]);
    assert.deepEqual(t.events, ["compact_start", "compact_done"]);
    // every original is still on disk, marked
    const names = [...Deno.readDirSync(join(s.dir, "messages"))].map((e) => e.name).sort();
    assert.equal(names.length, 11); // 8 + the new question + the summary + the answer
    for (const n of names.slice(0, 8)) {
      assert.match(Deno.readTextFileSync(join(s.dir, "messages", n)), /\ncompacted: 0010\n/);
    }
  });
});

Deno.test("compact: no window known, or HARNESS_COMPACT_AT=off: no compaction by size", async () => {
  await withTempDir(async (dir) => {
    const unknown = turnOn(dir, history(dir, 4), [answer("ok")]);
    assert.equal((await unknown.turn.run("go")).error, false);
    assert.equal(unknown.provider.payloads.length, 1);
    const off = turnOn(dir, history(dir, 4), [answer("ok")], {
      limits: { context: 2000, maxOutput: 100, source: "conf" },
      env: { HARNESS_COMPACT_AT: "off" },
    });
    assert.equal((await off.turn.run("go")).error, false);
    assert.equal(off.provider.payloads.length, 1);
  });
});

Deno.test("compact: past the threshold with nothing older to summarize (one long first message), the request is sent as is", async () => {
  await withTempDir(async (dir) => {
    const s = history(dir, 0);
    const t = turnOn(dir, s, [answer("read it all")], {
      limits: { context: 2000, maxOutput: 100, source: "conf" },
    });
    const r = await t.turn.run("a long paste " + "x".repeat(6000));
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "read it all");
    assert.equal(t.provider.payloads.length, 1, "no summary request");
    assert.deepEqual(t.events, []);
    assert.ok(
      t.host.logs.some((l) =>
        /past the compaction threshold, but nothing to compact.*; sending as is/.test(l)
      ),
      t.host.logs.join("\n"),
    );
  });
});

Deno.test("compact: a failed summary request is an error with a hint; nothing is marked", async () => {
  await withTempDir(async (dir) => {
    const s = history(dir, 4);
    const before = [...Deno.readDirSync(join(s.dir, "messages"))].map((e) =>
      Deno.readTextFileSync(join(s.dir, "messages", e.name))
    ).sort();
    const t = turnOn(dir, s, [new ProviderError("overloaded")], {
      limits: { context: 2000, maxOutput: 100, source: "conf" },
      env: { HARNESS_COMPACT_KEEP: "1" },
    });
    const r = await t.turn.run("question 5");
    assert.equal(r.error, true);
    assert.match(r.message!, /^compaction failed: overloaded — the session is unchanged/);
    assert.match(r.message!, /HARNESS_COMPACT_AT=off/);
    assert.match(r.output, /^error: compaction failed/);
    const after = [...Deno.readDirSync(join(s.dir, "messages"))].map((e) =>
      Deno.readTextFileSync(join(s.dir, "messages", e.name))
    ).sort();
    // the originals are untouched; only the new question was added
    assert.equal(after.length, before.length + 1);
    for (const text of before) assert.ok(after.includes(text));
    assert.ok(!after.some((x) => /compacted:|summary:/.test(x)));
  });
});

Deno.test("compact: an answer without text is a failure, not an empty summary", async () => {
  await withTempDir(async (dir) => {
    const t = turnOn(dir, history(dir, 4), [
      answer("", [{ id: "c", name: "echo", input: {} }]),
    ], { limits: { context: 2000, maxOutput: 100, source: "conf" } });
    const r = await t.turn.run("go");
    assert.equal(r.error, true);
    assert.match(r.message!, /compaction failed: .*without text/);
  });
});

Deno.test("compact: a provider's 'prompt is too long' compacts and retries once", async () => {
  await withTempDir(async (dir) => {
    const s = history(dir, 4);
    const t = turnOn(dir, s, [
      new ProviderError("anthropic API error: prompt is too long: 250000 tokens > 200000 maximum"),
      answer("SUMMARY"),
      answer("fits now"),
    ], { env: { HARNESS_COMPACT_KEEP: "1" } });
    const r = await t.turn.run("question 5");
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "fits now");
    assert.equal(t.provider.payloads.length, 3);
    assert.ok(
      (t.provider.payloads[2].messages as ConversationMessage[]).length <
        (t.provider.payloads[0].messages as ConversationMessage[]).length,
    );
    // a second refusal in the same round is an error (no loop)
    const again = turnOn(dir, history(dir, 4), [
      new ProviderError("prompt is too long"),
      answer("SUMMARY"),
      new ProviderError("prompt is too long"),
    ], { env: { HARNESS_COMPACT_KEEP: "1" } });
    const r2 = await again.turn.run("go");
    assert.equal(r2.error, true);
    assert.match(r2.message!, /prompt is too long/);
    assert.equal(again.provider.payloads.length, 3);
  });
});

Deno.test("compact: an executable hooks.d/compact/10-summarize replaces the built-in", async () => {
  await withTempDir(async (dir) => {
    const hook = join(dir, "10-summarize");
    Deno.writeTextFileSync(
      hook,
      `#!/bin/sh
python3 -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps({"summary": "hook saw %d messages, reason %s, %s" % (d["compact"]["messages"], d["reason"], d["instruction"][:9])}))
'
`,
    );
    Deno.chmodSync(hook, 0o755);
    const snap = emptySnapshot();
    snap.hooks.set(
      "compact",
      new Map([["10-summarize", { name: "10-summarize", path: hook, source: {} as never }]]),
    );
    const s = history(dir, 4);
    const t = turnOn(dir, s, [answer("no summary request was made")], {
      limits: { context: 2000, maxOutput: 100, source: "conf" },
      env: { HARNESS_COMPACT_KEEP: "1" },
      snapshot: (() => snap) as never,
    });
    const r = await t.turn.run("question 5");
    assert.equal(r.error, false, r.message);
    assert.equal(t.provider.payloads.length, 1);
    const first = (t.provider.payloads[0].messages as ConversationMessage[])[0];
    assert.ok(first.role === "user" && first.summary);
    assert.match(first.text, /hook saw 8 messages, reason threshold, Summarize/);
  });
});

Deno.test("compact: Turn.compact('manual') with a focus; nothing to compact is said so", async () => {
  await withTempDir(async (dir) => {
    const s = history(dir, 3);
    const t = turnOn(dir, s, [answer("FOCUSED")]);
    const c = await t.turn.compact("manual", { focus: "the file names" });
    assert.ok(c.ok);
    assert.equal(c.messages, 2); // keep 2 turns of 3
    assert.match(lastText(t.provider.payloads[0]), /Pay particular attention to: the file names$/);
    assert.ok(c.after < c.before);
    const none = turnOn(dir, history(dir, 1), []);
    const n = await none.turn.compact("manual");
    assert.ok(!n.ok);
    assert.match(n.error, /^nothing to compact/);
  });
});
