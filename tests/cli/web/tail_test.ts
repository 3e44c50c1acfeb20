/**
 * SessionTail follows a session directory written the way a turn writes it:
 * messages after `after`, `.stream` lines as they are appended (a partial line
 * waits for its end), a rewritten `.stream` starts over, and a finished turn's
 * `.stream` is not replayed. Events are awaited, never timed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Session } from "../../../core/session/mod.ts";
import { SessionTail, type TailEvent } from "../../../cli/web/tail.ts";

/** A tail whose events can be awaited. */
function follow(dir: string, after: number, replay?: boolean) {
  const events: TailEvent[] = [];
  let wake: (() => void) | undefined;
  const tail = new SessionTail(dir, {
    after,
    replay,
    pollMs: 50,
    onEvents: (list) => {
      events.push(...list);
      wake?.();
    },
  });
  const until = async (pred: (e: TailEvent[]) => boolean) => {
    while (!pred(events)) await new Promise<void>((r) => wake = r);
  };
  return { tail, events, until };
}

const text = (e: TailEvent[]) =>
  e.map((x) => x.kind === "stream" && x.event.type === "text" ? String(x.event.text) : "")
    .join("");

Deno.test("messages after `after`, then new ones and appended .stream lines", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-tail-" });
  try {
    const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
    s.appendUser("first");
    s.appendAssistant([{ type: "text", text: "one" }], {
      model: "m",
      provider: "p",
      stop: "end",
      usage: { input_tokens: 0, output_tokens: 0 },
    });
    const t = follow(s.dir, 1);
    t.tail.start();
    try {
      assert.deepEqual(t.events.map((e) => e.kind === "message" ? e.seq : e.kind), [2]);
      s.appendUser("second");
      await t.until((e) => e.some((x) => x.kind === "message" && x.seq === 3));
      s.resetStream();
      s.streamEvent({ type: "text", text: "Hel" });
      s.streamEvent({ type: "text", text: "lo" });
      await t.until((e) => text(e) === "Hello");
      // a partial line waits for its end
      const f = await Deno.open(join(s.dir, ".stream"), { append: true });
      await f.write(new TextEncoder().encode('{"type":"text","te'));
      await f.write(new TextEncoder().encode('xt":"!"}\n'));
      f.close();
      await t.until((e) => text(e) === "Hello!");
      // the next request rewrites .stream: the tail starts over
      s.resetStream();
      s.streamEvent({ type: "thinking", text: "hmm" });
      await t.until((e) => e.some((x) => x.kind === "stream" && x.event.type === "thinking"));
      const kinds = t.events.map((e) => e.kind === "stream" ? String(e.event.type) : e.kind);
      assert.ok(kinds.lastIndexOf("reset") > kinds.lastIndexOf("text"), kinds.join(","));
      s.closeStream();
    } finally {
      t.tail.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a rewrite that grows past the old size is still noticed (its first bytes changed)", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-tail-" });
  try {
    const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
    s.resetStream();
    s.streamEvent({ type: "text", text: "aaaa" });
    const t = follow(s.dir, 0);
    t.tail.start();
    try {
      await t.until((e) => text(e) === "aaaa");
      // rewritten and longer before the tail looks again
      const next = ['{"type":"text","text":"bbbbbbbbbbbb"}', '{"type":"done"}', ""].join("\n");
      Deno.writeTextFileSync(join(s.dir, ".stream"), next);
      t.tail.pump();
      await t.until((e) => e.some((x) => x.kind === "stream" && x.event.type === "done"));
      const last = t.events.slice(t.events.findLastIndex((e) => e.kind === "reset"));
      assert.equal(text(last), "bbbbbbbbbbbb");
      s.closeStream();
    } finally {
      t.tail.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a finished turn's .stream is not replayed; a request in flight is", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-tail-" });
  try {
    const s = Session.create(root, { cwd: root, model: "m", provider: "p" });
    s.resetStream();
    s.streamEvent({ type: "text", text: "old answer" });
    s.streamEvent({ type: "done" });
    s.closeStream();
    const done = follow(s.dir, 0);
    done.tail.start();
    done.tail.close();
    assert.deepEqual(done.events, []);
    s.resetStream();
    s.streamEvent({ type: "text", text: "in flight" });
    s.closeStream();
    const live = follow(s.dir, 0);
    live.tail.start();
    live.tail.close();
    assert.deepEqual(live.events.map((e) => e.kind), ["reset", "stream"]);
    const quiet = follow(s.dir, 0, false);
    quiet.tail.start();
    quiet.tail.close();
    assert.deepEqual(quiet.events, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
