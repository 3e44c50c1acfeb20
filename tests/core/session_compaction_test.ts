/**
 * Compaction marks and the context view of a session; token estimates and the
 * budget of the next request; where a compaction may cut.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  contextView,
  cutPoints,
  estimateBudget,
  formatTokens,
  messageChars,
  planCompaction,
  Session,
  type SessionEntry,
  tokensOfChars,
  type Usage,
} from "../../core/mod.ts";

const U0: Usage = { input_tokens: 0, output_tokens: 0 };

async function withSession(fn: (s: Session, root: string) => void | Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "hs-compact-" });
  const s = Session.create(root, { cwd: "/w", model: "m", provider: "p" });
  try {
    await fn(s, root);
  } finally {
    s.closeStream();
    await Deno.remove(root, { recursive: true });
  }
}

/** user, assistant with a tool call, its result, assistant answer — per turn. */
function turnWithTool(s: Session, n: number, usage = U0) {
  s.appendUser(`question ${n}`);
  s.appendAssistant([
    { type: "text", text: `looking ${n}` },
    { type: "tool_call", id: `c${n}`, name: "bash", input: { command: `echo ${n}` } },
  ], { model: "m", provider: "p", stop: "tool_calls", usage });
  s.appendToolResult(`c${n}`, "bash", false, `${n}`);
  s.appendAssistant([{ type: "text", text: `answer ${n}` }], {
    model: "m",
    provider: "p",
    stop: "end",
    usage,
  });
}

const seqs = (es: readonly SessionEntry[]) => es.map((e) => e.seq);

Deno.test("writeSummary marks the originals, keeps them on disk, and the view puts the summary first", async () => {
  await withSession((s) => {
    turnWithTool(s, 1);
    turnWithTool(s, 2);
    const view = s.contextEntries();
    const head = view.slice(0, 4);
    const seq = s.writeSummary({
      summary: "the user asked twice",
      replaces: head,
      reason: "manual",
      provider: "p",
      model: "m",
      usage: { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100 },
    });
    assert.equal(seq, 9);
    // every original is still a file, marked with the summary's seq
    const dir = join(s.dir, "messages");
    for (const e of head) {
      const text = Deno.readTextFileSync(join(dir, e.name));
      assert.match(text, /\ncompacted: 0009\n---\n/);
    }
    const summary = Deno.readTextFileSync(join(dir, "0009-user.md"));
    assert.match(summary, /\nsummary: 0001-0004\nreason: manual\n/);
    assert.match(summary, /\ntokens_in: 5\ntokens_out: 7\ntokens_cache_read: 100\n/);
    assert.match(summary, /<summary>\nthe user asked twice\n<\/summary>/);
    // the context: the summary where the first original was, then the verbatim tail
    assert.deepEqual(seqs(s.contextEntries()), [9, 5, 6, 7, 8]);
    const first = s.context()[0];
    assert.ok(first.role === "user" && first.summary === true);
    // every message, compacted ones included, is still listed
    assert.equal(s.messages().length, 9);
    // a fresh open sees the same (the marks are in the files)
    const again = Session.open(s.dir);
    assert.deepEqual(seqs(again.contextEntries()), [9, 5, 6, 7, 8]);
  });
});

Deno.test("a second compaction folds the first summary in; removing summaries brings originals back", async () => {
  await withSession((s) => {
    turnWithTool(s, 1);
    turnWithTool(s, 2);
    turnWithTool(s, 3);
    const first = s.writeSummary({
      summary: "one",
      replaces: s.contextEntries().slice(0, 4),
      reason: "threshold",
      provider: "p",
      model: "m",
    });
    // context: [S1, turn 2, turn 3]; compact S1 and turn 2
    const second = s.writeSummary({
      summary: "one and two",
      replaces: s.contextEntries().slice(0, 5),
      reason: "threshold",
      provider: "p",
      model: "m",
    });
    assert.deepEqual(seqs(s.contextEntries()), [second, 9, 10, 11, 12]);
    assert.match(
      Deno.readTextFileSync(join(s.dir, "messages", `00${second}-user.md`)),
      /\nsummary: 0001-0008\n/,
    );
    // a rewind that removes the second summary: the first one is back in place
    Deno.removeSync(join(s.dir, "messages", `00${second}-user.md`));
    s.refresh(true);
    assert.deepEqual(seqs(s.contextEntries()), [first, 5, 6, 7, 8, 9, 10, 11, 12]);
    // and without any summary every original is in the context again
    Deno.removeSync(join(s.dir, "messages", `00${first}-user.md`));
    s.refresh(true);
    assert.deepEqual(seqs(s.contextEntries()), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
});

Deno.test("marks that point at a missing or non-summary message count for nothing (a crash before the summary)", async () => {
  await withSession((s) => {
    turnWithTool(s, 1);
    const f = join(s.dir, "messages", "0001-user.md");
    Deno.writeTextFileSync(
      f,
      Deno.readTextFileSync(f).replace("---\nquestion", "compacted: 0005\n---\nquestion"),
    );
    s.refresh(true);
    assert.deepEqual(seqs(s.contextEntries()), [1, 2, 3, 4]);
    s.appendUser("an ordinary message takes seq 5");
    assert.deepEqual(seqs(s.contextEntries()), [1, 2, 3, 4, 5]);
  });
});

Deno.test("contextView is pure over entries", () => {
  const e = (seq: number, extra: Partial<SessionEntry> = {}): SessionEntry => ({
    name: `${seq}`,
    seq,
    message: { role: "user", seq, text: `${seq}` },
    ...extra,
  });
  const view = contextView([
    e(1, { compacted: 4 }),
    e(2, { compacted: 4 }),
    e(3),
    e(4, { summarizes: [1, 2] }),
  ]);
  assert.deepEqual(seqs(view), [4, 3]);
});

Deno.test("cut points never split a tool call from its result", async () => {
  await withSession((s) => {
    turnWithTool(s, 1);
    turnWithTool(s, 2);
    // 0:user 1:asst(call) 2:result 3:asst 4:user 5:asst(call) 6:result 7:asst
    // before the first round's answer too (the tail may start with an assistant message)
    assert.deepEqual(cutPoints(s.contextEntries()), [1, 3, 4, 5, 7]);
    // two calls answered in one round: no cut between the results
    s.appendUser("q3");
    s.appendAssistant([
      { type: "tool_call", id: "a", name: "x", input: {} },
      { type: "tool_call", id: "b", name: "x", input: {} },
    ], { model: "m", provider: "p", stop: "tool_calls", usage: U0 });
    s.appendToolResult("a", "x", false, "ra");
    s.appendToolResult("b", "x", false, "rb");
    s.appendAssistant([{ type: "text", text: "done" }], {
      model: "m",
      provider: "p",
      stop: "end",
      usage: U0,
    });
    const cuts = cutPoints(s.contextEntries());
    assert.deepEqual(cuts.filter((c) => c >= 8), [8, 9, 12]);
    assert.ok(!cuts.includes(10) && !cuts.includes(11));
  });
});

Deno.test("planCompaction keeps the last turns verbatim, or less when they are too big", async () => {
  await withSession((s) => {
    turnWithTool(s, 1);
    turnWithTool(s, 2);
    turnWithTool(s, 3);
    const view = s.contextEntries();
    const keep2 = planCompaction(view, { keepTurns: 2, tailTokens: Infinity, ratio: 1 })!;
    assert.deepEqual(seqs(keep2.head), [1, 2, 3, 4]);
    assert.deepEqual(seqs(keep2.tail), [5, 6, 7, 8, 9, 10, 11, 12]);
    // a small tail budget moves the cut to a later turn or round boundary
    const small = planCompaction(view, { keepTurns: 2, tailTokens: 25, ratio: 1 })!;
    assert.ok(small.tail.length < keep2.tail.length);
    assert.notEqual(small.tail[0].message.role, "tool_result");
    // one turn, kept whole: nothing to do; too big: cut at a round boundary inside it
    assert.equal(
      planCompaction(view.slice(0, 4), { keepTurns: 1, tailTokens: Infinity, ratio: 1 }),
      undefined,
    );
    const inside = planCompaction(view.slice(0, 4), { keepTurns: 1, tailTokens: 8, ratio: 1 });
    assert.deepEqual(seqs(inside!.head), [1, 2, 3]);
    // a head that is only a summary is not worth a request
    s.writeSummary({
      summary: "x",
      replaces: keep2.head,
      reason: "manual",
      provider: "p",
      model: "m",
    });
    const after = s.contextEntries();
    assert.equal(
      planCompaction(after.slice(0, 2), { keepTurns: 1, tailTokens: Infinity, ratio: 1 }),
      undefined,
    );
  });
});

Deno.test("the budget: the provider's reported prompt plus a calibrated estimate of what followed", async () => {
  await withSession((s) => {
    s.appendUser("x".repeat(3500));
    s.appendAssistant([{ type: "text", text: "y".repeat(350) }], {
      model: "m",
      provider: "p",
      stop: "end",
      usage: { input_tokens: 600, output_tokens: 100, cache_read_input_tokens: 900 },
    });
    s.appendUser("z".repeat(700));
    const fixed = { systemChars: 350, toolsChars: 0 };
    const b = estimateBudget(s.contextEntries(), fixed, { provider: "p", model: "m" });
    assert.equal(b.basis, "reported");
    // calibration: the reported 1,500 over the raw estimate of that request
    const rawBefore = tokensOfChars(350) + tokensOfChars(messageChars(s.context()[0]));
    assert.equal(b.ratio, 1500 / rawBefore);
    const after = tokensOfChars(messageChars(s.context()[1])) +
      tokensOfChars(messageChars(s.context()[2]));
    assert.equal(b.tokens, 1500 + Math.ceil(after * b.ratio));
    const sum = b.sections.system + b.sections.tools + b.sections.summary + b.sections.messages;
    assert.equal(sum, b.tokens);
    // another model's report is not used: the estimate alone
    const other = estimateBudget(s.contextEntries(), fixed, { provider: "q", model: "n" });
    assert.equal(other.basis, "estimate");
    assert.equal(other.ratio, 1);
  });
});

Deno.test("estimating 1,000 messages gives the same figure twice (sizes cached per message)", () => {
  const view: SessionEntry[] = [];
  for (let i = 1; i <= 1000; i++) {
    view.push({ name: `${i}`, seq: i, message: { role: "user", seq: i, text: "w ".repeat(i) } });
  }
  const a = estimateBudget(view, { systemChars: 0, toolsChars: 0 }, { provider: "", model: "" });
  const b = estimateBudget(view, { systemChars: 0, toolsChars: 0 }, { provider: "", model: "" });
  assert.equal(a.tokens, b.tokens);
  assert.equal(a.messages, 1000);
  assert.ok(a.tokens > 1000);
});

Deno.test("formatTokens", () => {
  assert.equal(formatTokens(950), "950");
  assert.equal(formatTokens(1234), "1.2k");
  assert.equal(formatTokens(12_345), "12k");
  assert.equal(formatTokens(200_000), "200k");
  assert.equal(formatTokens(1_047_576), "1M");
});
