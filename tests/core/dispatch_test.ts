import assert from "node:assert/strict";
import {
  type AuditEvent,
  Dispatcher,
  type EffectCall,
  type Floor,
  type Guard,
  type Hook,
  resultText,
  textResult,
  type ToolResult,
} from "../../core/mod.ts";

const call: EffectCall = {
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core-tools" },
  principal: "main",
  callId: "c1",
  input: { command: "lsxyz" },
};

function make(guards: Guard[], opts: { floor?: Floor; hooks?: Hook[] } = {}) {
  const audit: AuditEvent[] = [];
  const hookErrors: string[] = [];
  const d = new Dispatcher({
    guards: () => guards,
    hooks: () => opts.hooks ?? [],
    floor: opts.floor ?? { decide: () => ({ decision: "allow", rule: "test" }) },
    audit: (e) => audit.push(e),
    onHookError: (id, m) => hookErrors.push(`${id}: ${m}`),
  });
  let coreRuns = 0;
  const core = (input: unknown): Promise<ToolResult> => {
    coreRuns++;
    return Promise.resolve(textResult(`ran ${JSON.stringify(input)}`));
  };
  return { d, audit, hookErrors, core, runs: () => coreRuns };
}

Deno.test("guards run in order, may rewrite the value, and the floor sees the rewrite", async () => {
  const seen: unknown[] = [];
  const g1: Guard = {
    id: "g1",
    point: "shell",
    middleware: (raw, invoke) => invoke({ ...(raw as object), a: 1 }),
  };
  const g2: Guard = {
    id: "g2",
    point: "*",
    middleware: (raw, invoke) => invoke({ ...(raw as object), b: 2 }),
  };
  const t = make([g1, g2], {
    floor: {
      decide: (c) => {
        seen.push(c.input);
        return { decision: "allow", rule: "r" };
      },
    },
  });
  const r = await t.d.dispatch(call, t.core);
  assert.equal(r.content[0].text, 'ran {"command":"lsxyz","a":1,"b":2}');
  assert.deepEqual(seen, [{ command: "lsxyz", a: 1, b: 2 }]);
  assert.deepEqual(t.audit.map((e) => e.type), ["permission", "tool_execution"]);
});

Deno.test("a guard that misses its match never runs; a refusal stops the core", async () => {
  let entered = false;
  const miss: Guard = {
    id: "miss",
    point: "shell",
    match: () => false,
    middleware: () => {
      entered = true;
      return Promise.resolve({ refused: true, reason: "no" });
    },
  };
  const refuse: Guard = {
    id: "refuse",
    point: "shell",
    middleware: () => Promise.resolve({ refused: true, reason: "not today" }),
  };
  const t = make([miss, refuse]);
  const r = await t.d.dispatch(call, t.core);
  assert.equal(entered, false);
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /refused by guard refuse: not today/);
  assert.equal(t.runs(), 0);
  const exec = t.audit.find((e) => e.type === "tool_execution");
  assert.equal(exec?.type === "tool_execution" && exec.outcome, "error");
});

Deno.test("guards fail closed; invoke is single use; a throw after invoke keeps the core result", async () => {
  const throws: Guard = {
    id: "boom",
    point: "shell",
    middleware: () => Promise.reject(new Error("bug")),
  };
  let t = make([throws]);
  let r = await t.d.dispatch(call, t.core);
  assert.match(r.content[0].text, /refused by guard boom/);
  assert.equal(t.runs(), 0);

  const twice: Guard = {
    id: "twice",
    point: "shell",
    middleware: async (raw, invoke) => {
      await invoke(raw);
      return await invoke(raw);
    },
  };
  t = make([twice]);
  r = await t.d.dispatch(call, t.core);
  assert.equal(t.runs(), 1);
  assert.equal(r.content[0].text, 'ran {"command":"lsxyz"}', "the core result stands");
  assert.ok(t.hookErrors.some((e) => /invoke called twice/.test(e)));

  const noInvoke: Guard = {
    id: "lazy",
    point: "shell",
    middleware: () => Promise.resolve(textResult("fabricated")),
  };
  t = make([noInvoke]);
  r = await t.d.dispatch(call, t.core);
  assert.match(r.content[0].text, /returned without invoking/);
});

Deno.test("a floor deny refuses and is audited; hooks fail open", async () => {
  const hooks: Hook[] = [
    {
      id: "bad-hook",
      point: "*",
      post: () => {
        throw new Error("hook bug");
      },
    },
  ];
  let t = make([], { floor: { decide: () => ({ decision: "deny", rule: "bash(rm *)" }) }, hooks });
  let r = await t.d.dispatch(call, t.core);
  assert.match(r.content[0].text, /permission denied for bash \(rule bash\(rm \*\)\)/);
  assert.equal(t.runs(), 0);
  const perm = t.audit.find((e) => e.type === "permission");
  assert.equal(perm?.type === "permission" && perm.decision, "deny");

  t = make([], { hooks });
  r = await t.d.dispatch(call, t.core);
  assert.equal(r.isError, false);
  assert.deepEqual(t.hookErrors, ["bad-hook: hook bug"]);
  // audit events never carry bodies
  assert.ok(!JSON.stringify(t.audit).includes("lsxyz"));
});

Deno.test("headless ask denies unless the floor approves", async () => {
  const t = make([], { floor: { decide: () => ({ decision: "ask", rule: "ask-all" }) } });
  const r = await t.d.dispatch(call, t.core);
  assert.equal(r.isError, true);
  assert.equal(t.runs(), 0);
});

Deno.test("marks accumulate: a later guard cannot drop an earlier guard's mark", async () => {
  const marker = (id: string, mark: string): Guard => ({
    id,
    point: "*",
    middleware: async (raw, invoke) => {
      const r = await invoke(raw);
      return { ...r, marks: [...(r.marks ?? []), mark] };
    },
  });
  const dropper: Guard = {
    id: "dropper",
    point: "*",
    middleware: async (raw, invoke) => ({ ...(await invoke(raw)), marks: [] }),
  };
  const t = make([dropper, marker("outer", "a"), marker("inner", "b")]);
  const r = await t.d.dispatch(call, t.core);
  assert.deepEqual(r.marks?.sort(), ["a", "b"]);
  assert.equal(resultText(r), 'ran {"command":"lsxyz"}');
});

Deno.test("replacing a result is a declared capability; an undeclared replacement keeps the core result", async () => {
  const replacer = (replace?: "redaction"): Guard => ({
    id: "r",
    point: "*",
    replace,
    middleware: async (raw, invoke) => {
      await invoke(raw);
      return textResult("[redacted]");
    },
  });
  const undeclared = make([replacer()]);
  const kept = await undeclared.d.dispatch(call, undeclared.core);
  assert.equal(resultText(kept), 'ran {"command":"lsxyz"}');
  assert.match(undeclared.hookErrors[0], /replaced the result without the replace capability/);
  const declared = make([replacer("redaction")]);
  const replaced = await declared.d.dispatch(call, declared.core);
  assert.equal(resultText(replaced), "[redacted]");
  assert.deepEqual(replaced.marks, ["redacted"]);
});

Deno.test("guard/retry restarts the chain from the raw value under a finite budget that ends as a refusal", async () => {
  let tries = 0;
  const flaky: Guard = {
    id: "flaky",
    point: "*",
    middleware: (raw, invoke) => {
      tries++;
      assert.deepEqual(raw, call.input, "each attempt starts from the raw value");
      return tries < 3 ? Promise.resolve({ retry: true, reason: "not yet" }) : invoke(raw);
    },
  };
  const t = make([flaky]);
  const r = await t.d.dispatch(call, t.core);
  assert.equal(r.isError, false);
  assert.equal(tries, 3);
  assert.equal(t.runs(), 1);
  const always: Guard = {
    id: "always",
    point: "*",
    middleware: () => Promise.resolve({ retry: true, reason: "never happy" }),
  };
  const u = make([always]);
  const refused = await u.d.dispatch(call, u.core);
  assert.equal(
    resultText(refused),
    "error: refused by guard always: retry budget of 3 exhausted (never happy)",
  );
  assert.equal(u.runs(), 0);
});

Deno.test("the floor's refusal and a nested guard/retry pass an outer guard that swallows invoke's failure", async () => {
  // an outer guard that turns a failed invoke into a success of its own
  const swallowing: Guard = {
    id: "outer",
    point: "*",
    middleware: async (raw, invoke) => {
      try {
        return await invoke(raw);
      } catch {
        return textResult("all fine, says the outer guard");
      }
    },
  };
  const denied = make([swallowing], {
    floor: { decide: () => ({ decision: "deny", rule: "floor.read", reason: "outside" }) },
  });
  const r = await denied.d.dispatch(call, denied.core);
  assert.equal(resultText(r), "error: permission denied for bash: outside (rule floor.read)");
  assert.equal(denied.runs(), 0);
  let tries = 0;
  const inner: Guard = {
    id: "inner",
    point: "*",
    middleware: (raw, invoke) =>
      ++tries === 1 ? Promise.resolve({ retry: true, reason: "again" }) : invoke(raw),
  };
  const t = make([swallowing, inner]);
  const ok = await t.d.dispatch(call, t.core);
  assert.equal(resultText(ok), `ran ${JSON.stringify(call.input)}`);
  assert.deepEqual([tries, t.runs()], [2, 1]);
});

Deno.test("re-entrancy is bounded (reentrant-depth, default 0)", async () => {
  const t = make([]);
  let depth = 0;
  const reentrant = (reentrantDepth?: number): Guard => ({
    id: "re",
    point: "*",
    reentrantDepth,
    middleware: async (raw, invoke) => {
      depth++;
      // the guarded tool itself causes a nested call through the seam
      const nested = await t.d.dispatch({ ...call, callId: `n${depth}` }, t.core);
      return { ...(await invoke(raw)), content: [{ type: "text", text: resultText(nested) }] };
    },
  });
  const guards: Guard[] = [reentrant()];
  const d = new Dispatcher({
    guards: () => guards,
    hooks: () => [],
    floor: { decide: () => ({ decision: "allow", rule: "test" }) },
    audit: () => {},
  });
  (t as { d: Dispatcher }).d = d;
  const r = await d.dispatch(call, t.core);
  assert.equal(r.isError, false);
  assert.equal(depth, 1, "the nested call did not enter the guard again");
});
