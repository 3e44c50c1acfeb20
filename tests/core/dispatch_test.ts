import assert from "node:assert/strict";
import {
  type AuditEvent,
  Dispatcher,
  type EffectCall,
  type Floor,
  type Guard,
  type Hook,
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
