/**
 * The state follower on its own: a {@link Turn} driven by a fake host (no
 * harness, no processes, no network) — the built-in stages, the effect seam,
 * the loop guard, failures routed to `error`, and cancellation.
 */
import assert from "node:assert/strict";
import { answer, fakeHost, scriptedTurn, withTempDir } from "./_fakes.ts";

function turnWith(dir: string, answers: ReturnType<typeof answer>[], env = {}) {
  const host = fakeHost(dir, { env });
  const events: string[] = [];
  const controller = new AbortController();
  const { provider, session, turn } = scriptedTurn(host, dir, answers, {
    signal: controller.signal,
    onEvent: (e) => events.push(e.type === "stage" ? `stage:${e.stage}` : e.type),
  });
  return { host, provider, session, turn, events, controller };
}

Deno.test("Turn: one tool round through the seam, then the answer; every message saved", async () => {
  await withTempDir(async (dir) => {
    const t = turnWith(dir, [
      answer("", [{ id: "c1", name: "echo", input: { x: 1 } }], {
        input_tokens: 10,
        output_tokens: 2,
      }),
      answer("all done", [], { input_tokens: 20, output_tokens: 3 }),
    ]);
    const r = await t.turn.run("hello");
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "all done");
    assert.deepEqual(r.usage, { input_tokens: 30, output_tokens: 5 });
    assert.equal(t.host.dispatched.length, 1, "the tool went through the seam");
    assert.deepEqual(t.host.dispatched[0].owner, { kind: "builtin", id: "test" });
    const roles = t.session.messages().map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "tool_result", "assistant"]);
    const result = t.session.messages()[2];
    assert.ok(result.role === "tool_result" && result.text === 'echo {"x":1}');
    assert.deepEqual(
      t.events.filter((e) => e.startsWith("stage:")),
      [
        "stage:start",
        "stage:assemble",
        "stage:send",
        "stage:receive",
        "stage:tool_exec",
        "stage:tool_done",
        "stage:assemble",
        "stage:send",
        "stage:receive",
        "stage:done",
      ],
    );
    // the request carried the system prompt from the host's prompt sources and the tools
    const first = t.provider.payloads[0];
    assert.equal(first.system, "BASE PROMPT");
    assert.deepEqual(first.tools, [{ name: "echo", description: "echo", input_schema: {} }]);
  });
});

Deno.test("Turn: an unknown tool is an error result, not a crash", async () => {
  await withTempDir(async (dir) => {
    const t = turnWith(dir, [
      answer("", [{ id: "c1", name: "nope", input: {} }]),
      answer("ok"),
    ]);
    const r = await t.turn.run("x");
    assert.equal(r.error, false);
    const res = t.session.messages()[2];
    assert.ok(res.role === "tool_result");
    assert.equal(res.text, "error: tool 'nope' not found");
    assert.equal(res.error, true);
  });
});

Deno.test("Turn: HARNESS_MAX_TURNS stops the loop with an error", async () => {
  await withTempDir(async (dir) => {
    const call = { id: "c", name: "echo", input: {} };
    const t = turnWith(dir, [answer("", [call]), answer("", [call])], { HARNESS_MAX_TURNS: "1" });
    const r = await t.turn.run("loop");
    assert.equal(r.error, true);
    assert.match(r.message!, /stopped after 1 model requests \(HARNESS_MAX_TURNS=1\)/);
  });
});

Deno.test("Turn: a failing stage routes to error with its message", async () => {
  await withTempDir(async (dir) => {
    const t = turnWith(dir, []); // the model has no answer: send throws
    const r = await t.turn.run("hi");
    assert.equal(r.error, true);
    assert.match(r.message!, /no more answers/);
    assert.ok(t.events.includes("stage:error"));
  });
});

Deno.test("Turn: cancelled before it starts — no request, marked cancelled", async () => {
  await withTempDir(async (dir) => {
    const t = turnWith(dir, [answer("never")]);
    t.controller.abort();
    const r = await t.turn.run("hi");
    assert.equal(r.cancelled, true);
    assert.equal(r.output, "");
    assert.equal(t.provider.payloads.length, 0);
  });
});
