/**
 * Each built-in stage hook on its own (PROTOCOLS "Hook pipeline", the built-in
 * chain of each stage), called with a typed context.
 */
import assert from "node:assert/strict";
import {
  loopHooks,
  type ProviderInfo,
  type ResolveContext,
  resolveHooks,
  type StageHook,
  type TurnContext,
} from "../../../core/mod.ts";
import { answer, FakeTurn, scriptedProvider, withTempDir } from "./_fakes.ts";

function hook(list: StageHook[], stage: string, name: string): StageHook {
  const h = list.find((x) => x.stage === stage && x.name === name);
  if (!h) throw new Error(`no hook ${stage}/${name}`);
  return h;
}

function resolveCtx(
  providers: Partial<ProviderInfo>[],
  settings: { provider?: string; model?: string } = {},
): ResolveContext {
  const full = providers.map((p) => ({
    origin: "t",
    autodetect: true,
    provider: {
      name: p.name!,
      description: "",
      protocol: "anthropic",
      ready: () => Promise.resolve({ ready: p.name === "ready-one", reason: "" }),
      defaultModel: () => Promise.resolve(`${p.name}-default`),
      send: () => Promise.resolve({}),
    },
    ...p,
  })) as ProviderInfo[];
  return {
    kind: "resolve",
    signal: new AbortController().signal,
    resolve: { providers: () => Promise.resolve(full), settings: () => settings },
  };
}

const turnCtx = (t: FakeTurn): TurnContext => ({ kind: "turn", signal: t.signal, turn: t });

Deno.test("resolve/10-settings: settings.conf fills an empty provider, and its model only then", async () => {
  const h = hook(resolveHooks, "resolve", "10-settings");
  const ctx = resolveCtx([], { provider: "s", model: "sm" });
  assert.deepEqual(await h.run({ provider: "", model: "" }, ctx), { provider: "s", model: "sm" });
  assert.deepEqual(await h.run({ provider: "p", model: "" }, ctx), { provider: "p", model: "" });
});

Deno.test("resolve/20-detect: a declared model picks its provider; else the first ready one", async () => {
  const h = hook(resolveHooks, "resolve", "20-detect");
  const ctx = resolveCtx([
    { name: "a" },
    { name: "owner", models: ["m-x"] },
    { name: "ready-one" },
  ]);
  assert.equal((await h.run({ provider: "", model: "m-x" }, ctx)).provider, "owner");
  assert.equal((await h.run({ provider: "", model: "" }, ctx)).provider, "ready-one");
  assert.equal((await h.run({ provider: "given", model: "" }, ctx)).provider, "given");
  await assert.rejects(() => h.run({}, resolveCtx([{ name: "a" }])), /no ready provider found/);
});

Deno.test("resolve/30-defaults: the provider's default model", async () => {
  const h = hook(resolveHooks, "resolve", "30-defaults");
  const ctx = resolveCtx([{ name: "p" }]);
  assert.equal((await h.run({ provider: "p", model: "" }, ctx)).model, "p-default");
  assert.equal((await h.run({ provider: "p", model: "mine" }, ctx)).model, "mine");
});

Deno.test("a hook given the wrong kind of context refuses instead of guessing", async () => {
  await withTempDir(async (dir) => {
    const h = hook(resolveHooks, "resolve", "10-settings");
    await assert.rejects(
      () => h.run({}, turnCtx(new FakeTurn(dir))),
      /was given a turn context/,
    );
  });
});

Deno.test("start/10-init and the assemble hooks build the request", async () => {
  await withTempDir(async (dir) => {
    const t = new FakeTurn(dir);
    t.session.appendUser("hello");
    t.continuation.add({ kind: "ambient", from: "p", message: "a note", boundary: "round" });
    const ctx = turnCtx(t);
    assert.deepEqual(await hook(loopHooks, "start", "10-init").run({}, ctx), {
      next_state: "assemble",
    });
    let v = await hook(loopHooks, "assemble", "10-messages").run({}, ctx);
    assert.deepEqual(v.messages, [{ role: "user", seq: 1, text: "hello" }]);
    v = await hook(loopHooks, "assemble", "20-tools").run(v, ctx);
    assert.deepEqual(v.tools, [{ name: "echo", description: "echo", input_schema: {} }]);
    v = await hook(loopHooks, "assemble", "30-prompts").run(v, ctx);
    assert.equal(v.system, "SYSTEM\n\nAGENTS\n\na note", "empty parts dropped, notes last");
    assert.equal(v.next_state, "send");
    v = await hook(loopHooks, "assemble", "35-skills").run(v, ctx);
    assert.match(String(v.system), /^SYSTEM[\s\S]*<skill name="s1" path="\/x\/SKILL\.md">/);
  });
});

Deno.test("send/10-send: the provider's native answer, with the model; a non-object is an error", async () => {
  await withTempDir(async (dir) => {
    const provider = scriptedProvider([answer("hi")]);
    const t = new FakeTurn(dir, provider);
    const h = hook(loopHooks, "send", "10-send");
    const out = await h.run({ messages: [], tools: [], system: "s", next_state: "x" }, turnCtx(t));
    assert.equal(out.next_state, "receive");
    assert.deepEqual(provider.payloads[0], {
      messages: [],
      tools: [],
      system: "s",
      model: "fake-1",
    });
    const bad = new FakeTurn(dir, { ...provider, send: () => Promise.resolve("text") });
    await assert.rejects(() => h.run({}, turnCtx(bad)), /not a JSON object/);
  });
});

Deno.test("receive/10-save: saves the answer; tool calls → tool_exec, else done (or a continuation)", async () => {
  await withTempDir(async (dir) => {
    const t = new FakeTurn(dir);
    const h = hook(loopHooks, "receive", "10-save");
    const calls = await h.run(
      { ...answer("", [{ id: "c", name: "echo", input: {} }]) },
      turnCtx(t),
    );
    assert.equal(calls.next_state, "tool_exec");
    assert.deepEqual(calls.tool_calls, [{ id: "c", name: "echo", input: {} }]);
    const done = await h.run({ ...answer("the end") }, turnCtx(t));
    assert.deepEqual([done.next_state, done.output], ["done", "the end"]);
    t.continuation.add({ kind: "activating", from: "p", message: "more", boundary: "round" });
    const again = await h.run({ ...answer("partial") }, turnCtx(t));
    assert.equal(again.next_state, "assemble", "an activating note asks for another round");
    assert.equal(t.session.messages().filter((m) => m.role === "assistant").length, 3);
  });
});

Deno.test("tool_exec/10-exec: runs the first call; passes an answered call; empty queue → assemble", async () => {
  await withTempDir(async (dir) => {
    const t = new FakeTurn(dir);
    const h = hook(loopHooks, "tool_exec", "10-exec");
    const a = { id: "a", name: "echo", input: { n: 1 } };
    const b = { id: "b", name: "echo", input: { n: 2 } };
    const out = await h.run({ tool_calls: [a, b] }, turnCtx(t));
    assert.deepEqual(t.executed, [a]);
    assert.deepEqual(out, {
      call_id: "a",
      name: "echo",
      input: { n: 1 },
      result: "ran echo",
      error: false,
      tool_calls: [b],
      next_state: "tool_done",
    });
    const gated = await h.run({ call_id: "b", result: "blocked", tool_calls: [] }, turnCtx(t));
    assert.equal(gated.next_state, "tool_done");
    assert.equal(t.executed.length, 1, "a gate's answer is not run");
    assert.deepEqual(await h.run({ tool_calls: [] }, turnCtx(t)), { next_state: "assemble" });
  });
});

Deno.test("tool_done/10-save: saves the result, then the rest of the queue or assemble", async () => {
  await withTempDir(async (dir) => {
    const t = new FakeTurn(dir);
    const h = hook(loopHooks, "tool_done", "10-save");
    const rest = [{ id: "b", name: "echo", input: {} }];
    const out = await h.run(
      { call_id: "a", name: "echo", input: {}, result: "r", error: true, tool_calls: rest },
      turnCtx(t),
    );
    assert.deepEqual(out, { next_state: "tool_exec", tool_calls: rest });
    const saved = t.session.messages()[0];
    assert.ok(saved.role === "tool_result" && saved.error && saved.text === "r");
    assert.equal(t.noted.length, 1, "a result that did not come from executeTool is reported");
    assert.deepEqual(await h.run({ call_id: "b", result: { x: 1 } }, turnCtx(t)), {
      next_state: "assemble",
    });
    const second = t.session.messages()[1];
    assert.ok(second.role === "tool_result" && second.text === '{"x":1}', "a JSON result as text");
  });
});

Deno.test("error/10-display: the error becomes the output and an event", async () => {
  await withTempDir(async (dir) => {
    const t = new FakeTurn(dir);
    const out = await hook(loopHooks, "error", "10-display").run({ error: "boom" }, turnCtx(t));
    assert.deepEqual(out, { output: "error: boom" });
    assert.deepEqual(t.events.at(-1), { type: "error", message: "boom" });
  });
});
