/**
 * `hs packs test`'s tracer (core/packtest/trace.ts) around the real dispatcher: each guard's
 * decision — allow, rewrite with the value, refuse with the reason, retry, a replaced result
 * with or without the capability, a failure, a floor refusal past it — and the hooks that
 * fired; and the expectations checked on them (core/packtest/expect.ts).
 */
import assert from "node:assert/strict";
import {
  Dispatcher,
  type EffectCall,
  type Floor,
  type Guard,
  type Hook,
  textResult,
} from "../../core/mod.ts";
import { check, parseTestScript, Tracer } from "../../core/packtest/mod.ts";

const call = (callId: string, input: unknown): EffectCall => ({
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core-tools" },
  principal: "main",
  callId,
  input,
});

function traced(guards: Guard[], hooks: Hook[] = [], floor?: Floor) {
  const t = new Tracer();
  const d = new Dispatcher({
    guards: () => guards.map((g) => t.guard(g)),
    hooks: () => hooks.map((h) => t.hook(h)),
    floor: floor ?? { decide: () => ({ decision: "allow", rule: "test" }) },
    audit: () => {},
  });
  const run = (c: EffectCall) => {
    t.event({ type: "tool_start", id: c.callId, name: c.tool, input: c.input });
    return d.dispatch(c, (v) => Promise.resolve(textResult(`ran ${JSON.stringify(v)}`)))
      .then((r) => {
        const text = r.content.map((b) => ("text" in b ? b.text : "")).join("");
        t.event({
          type: "tool_done",
          id: c.callId,
          name: c.tool,
          error: !!r.isError,
          result: text,
          ms: 0,
        });
        return r;
      });
  };
  return { t, run };
}

Deno.test("each guard's decision is recorded in chain order, as the chain took it", async () => {
  let tries = 0;
  // the retrying guard first: a retry from further in is the outer guard's failure for now
  // (chain.ts lets only ChainRefused pass a guard's catch; see the report of issue 27.7)
  const guards: Guard[] = [
    {
      id: "p/b/again",
      point: "shell",
      middleware: (raw, invoke) =>
        ++tries === 1 ? Promise.resolve({ retry: true, reason: "once more" }) : invoke(raw),
    },
    { id: "p/b/pass", point: "shell", middleware: (raw, invoke) => invoke(raw) },
    {
      id: "p/b/rewrite",
      point: "shell",
      middleware: (raw, invoke) => invoke({ ...(raw as object), command: "ls -1" }),
    },
    {
      id: "p/b/redact",
      point: "shell",
      replace: "redaction",
      middleware: async (raw, invoke) => ({
        ...(await invoke(raw)),
        content: [{ type: "text", text: "[x]" }],
      }),
    },
  ];
  const { t, run } = traced(guards);
  const r = await run(call("c1", { command: "ls" }));
  assert.equal(r.content[0].type === "text" && r.content[0].text, "[x]");
  const d = t.calls()[0].guards.map((g) => [g.guard, g.decision, g.value, g.reason, g.replaced]);
  assert.deepEqual(d, [
    ["p/b/again", "retry", undefined, "once more", undefined],
    // each guard's own replacement only: the outer ones pass on what they were handed
    ["p/b/again", "allow", undefined, undefined, undefined],
    ["p/b/pass", "allow", undefined, undefined, undefined],
    ["p/b/rewrite", "rewrite", { command: "ls -1" }, undefined, undefined],
    ["p/b/redact", "allow", undefined, undefined, "redaction"],
  ]);
  const [ok] = [check({ call: 1, outcome: "rewritten", input: { command: "ls -1" } }, t.steps)];
  assert.equal(ok.ok, true, ok.problems.join("; "));
});

Deno.test("a refusal, a failure, a replacement without the capability and a floor refusal", async () => {
  const guards: Guard[] = [
    {
      id: "p/b/no",
      point: "shell",
      match: (c) => (c.input as { command: string }).command === "rm",
      middleware: () => Promise.resolve({ refused: true, reason: "never rm" }),
    },
    {
      id: "p/b/boom",
      point: "shell",
      match: (c) => (c.input as { command: string }).command === "boom",
      middleware: () => Promise.reject(new Error("exploded")),
    },
    {
      id: "p/b/sneaky",
      point: "shell",
      match: (c) => (c.input as { command: string }).command === "cat",
      middleware: async (raw, invoke) => ({
        ...(await invoke(raw)),
        content: [{ type: "text", text: "?" }],
      }),
    },
    {
      id: "p/b/scheme-like", // rethrows what its invoke threw (a Scheme guard's host error)
      point: "shell",
      match: (c) => (c.input as { command: string }).command === "denied",
      middleware: async (raw, invoke) => {
        try {
          return await invoke(raw);
        } catch (err) {
          throw new Error(`host error: ${(err as Error).message}`);
        }
      },
    },
  ];
  const hooks: Hook[] = [{
    id: "p/b/seen",
    point: "shell",
    // a pack hook: undefined for a call it does not apply to, a promise when it runs
    post: (v) => (v as { command: string }).command === "cat" ? Promise.resolve() : undefined,
  }];
  const floor: Floor = {
    decide: (c) =>
      (c.input as { command: string }).command === "denied"
        ? { decision: "deny", rule: "test", reason: "no" }
        : { decision: "allow", rule: "test" },
  };
  const { t, run } = traced(guards, hooks, floor);
  for (const [id, command] of [["a", "rm"], ["b", "boom"], ["c", "cat"], ["d", "denied"]]) {
    await run(call(id, { command }));
  }
  const [rm, boom, cat, denied] = t.calls();
  assert.deepEqual(rm.guards, [{ guard: "p/b/no", decision: "refuse", reason: "never rm" }]);
  assert.equal(boom.guards[0].decision, "error");
  assert.equal(boom.guards[0].reason, "exploded");
  assert.equal(cat.guards[0].replaced, "kept");
  assert.deepEqual(cat.hooks, [{ hook: "p/b/seen", phase: "post" }]);
  assert.deepEqual(rm.hooks, [], "a hook that does not apply did not fire");
  assert.equal(denied.guards[0].decision, "allow", "the floor refused, not the guard");
  const checks = [
    check({ call: "a", outcome: "refused", guard: "no", reason: "never" }, t.steps),
    check({ call: 2, outcome: "failed", guard: "boom" }, t.steps),
    check({ call: 3, hooks: ["seen"], result: "ran" }, t.steps),
    check({ call: 4, outcome: "refused" }, t.steps),
    check({ call: 1, outcome: "allowed" }, t.steps),
  ];
  assert.deepEqual(checks.map((c) => c.ok), [true, true, true, true, false]);
  assert.deepEqual(checks[4].problems, ["expected allowed, it was refused"]);
});

Deno.test("a test script: the scripted provider's turns, repeat, message and expect; a bad one says where", () => {
  const c = parseTestScript(
    JSON.stringify({
      message: "go",
      turns: [{ text: "a", repeat: 2 }, {
        toolCalls: [{ id: "x", name: "bash", input: { command: "ls" } }],
        usage: { input_tokens: 1, output_tokens: 1 },
      }],
      expect: [{ call: "x", outcome: "allowed" }, { turn: 1 }],
    }),
    "s.json",
  );
  assert.equal(c.turns[0].message, "go");
  assert.equal(c.turns[0].answers.length, 3);
  assert.deepEqual(c.turns[0].answers[2].blocks, [
    { type: "tool_call", id: "x", name: "bash", input: { command: "ls" } },
  ]);
  assert.equal(c.expect.length, 2);
  assert.throws(
    () => parseTestScript('{"turns": [], "expect": [{"call": 1, "turn": 1}]}', "e.json"),
    /e\.json: invalid test script at expect\.0: an expectation names one "call"/,
  );
  assert.throws(
    () => parseTestScript('[{"txt": 1}]', "t.json"),
    /t\.json: .* at 0: Unrecognized key/,
  );
});
