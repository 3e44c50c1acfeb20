import assert from "node:assert/strict";
import {
  AuditBus,
  HarnessError,
  PluginHost,
  Registries,
  type RuntimePlugin,
  textResult,
} from "../../core/mod.ts";

function makeHost() {
  const lines: string[] = [];
  const registries = new Registries();
  const audit = new AuditBus({ warn: (m) => lines.push(m) });
  return {
    host: new PluginHost({ registries, audit, log: (l) => lines.push(l) }),
    registries,
    lines,
  };
}

function toolPlugin(
  id: string,
  tool: string,
  events: string[],
  extra: Partial<RuntimePlugin> = {},
): RuntimePlugin {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      events.push(`setup ${id}`);
      ctx.tools.register({
        name: tool,
        description: "t",
        inputSchema: { type: "object" },
        execute: () => Promise.resolve(textResult(`${id} ran`)),
      });
      ctx.onStart(() => {
        events.push(`start ${id}`);
      });
      ctx.onDispose(() => {
        events.push(`dispose ${id}`);
      });
    },
    ...extra,
  };
}

Deno.test("setups run in order, starts after all setups, disposal in reverse; close is idempotent", async () => {
  const { host, registries } = makeHost();
  const events: string[] = [];
  await host.load([
    { plugin: toolPlugin("a", "ta", events) },
    { plugin: toolPlugin("b", "tb", events) },
  ]);
  assert.deepEqual(events, ["setup a", "setup b", "start a", "start b"]);
  assert.deepEqual(registries.tools.values().map((t) => t.name), ["ta", "tb"]);
  await host.close();
  await host.close();
  assert.deepEqual(events.slice(4), ["dispose b", "dispose a"]);
  assert.equal(registries.tools.values().length, 0);
  assert.deepEqual(host.status().map((s) => s.state), ["stopped", "stopped"]);
});

Deno.test("conflicting registrations are rejected, not overwritten", async () => {
  const { host, registries } = makeHost();
  const events: string[] = [];
  await assert.rejects(
    host.load([{ plugin: toolPlugin("a", "same", events) }, {
      plugin: toolPlugin("b", "same", events),
    }]),
    (e: Error) => e instanceof HarnessError && /required runtime plugin "b" failed/.test(e.message),
  );
  // everything rolled back, a's disposer ran
  assert.equal(registries.tools.values().length, 0);
  assert.ok(events.includes("dispose a"));
});

Deno.test("an optional failing plugin is reported without its exception text; others keep working", async () => {
  const { host, registries } = makeHost();
  const events: string[] = [];
  const bad: RuntimePlugin = {
    id: "bad",
    version: "1.0.0",
    apiVersion: 1,
    setup() {
      throw new Error("secret-token-123 leaked");
    },
  };
  await host.load([
    { plugin: toolPlugin("good", "tg", events) },
    { plugin: bad, required: false },
  ]);
  const st = host.status();
  assert.equal(st[1].state, "failed");
  assert.equal(st[1].reason, "setup failed");
  assert.ok(!JSON.stringify(st).includes("secret-token"));
  assert.equal(registries.tools.values().length, 1);
  await host.close();
});

Deno.test("contract and config are validated; enabled:false skips setup", async () => {
  const { host } = makeHost();
  let setups = 0;
  const p = (id: string, more: Partial<RuntimePlugin> = {}): RuntimePlugin => ({
    id,
    version: "1",
    apiVersion: 1,
    setup() {
      setups++;
    },
    ...more,
  });
  await host.load([
    { plugin: p("Bad ID"), required: false },
    { plugin: { ...p("v2"), apiVersion: 2 as 1 }, required: false },
    {
      plugin: p("cfg", {
        parseConfig(raw) {
          if (raw !== undefined) throw new Error("no options");
          return {};
        },
      }),
      config: { x: 1 },
      required: false,
    },
    { plugin: p("off"), enabled: false },
  ]);
  assert.equal(setups, 0);
  assert.deepEqual(host.status().map((s) => [s.state, s.reason]), [
    ["failed", "invalid id (use lowercase letters, digits, dots, underscores or hyphens)"],
    ["failed", "unsupported apiVersion (this host implements 1)"],
    ["failed", "invalid configuration"],
    ["disabled", undefined],
  ]);
  await host.close();
});

Deno.test("a tool of a stopped plugin refuses calls; registering after setup is rejected", async () => {
  const { host, registries } = makeHost();
  let late: (() => void) | undefined;
  const plugin: RuntimePlugin = {
    id: "p",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name: "t",
        description: "",
        inputSchema: {},
        execute: () => Promise.resolve(textResult("ran")),
      });
      late = () => ctx.prompts.register({ id: "x", render: () => "" });
    },
  };
  await host.load([{ plugin }]);
  assert.throws(() => late!(), /must register contributions during setup/);
  const stale = registries.tools.get("t")!;
  await host.close();
  const r = await stale.execute({}, {
    cwd: "/",
    env: {},
    signal: new AbortController().signal,
    sessionDir: "",
    callId: "c",
    log: () => {},
  });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /plugin "p" stopped/);
});

Deno.test("a disposer that hangs is bounded and the others still run", async () => {
  const { host, lines } = makeHost();
  const events: string[] = [];
  const hanging: RuntimePlugin = {
    id: "hang",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.onDispose(() => new Promise(() => {}));
    },
  };
  await host.load([{ plugin: toolPlugin("a", "ta", events) }, { plugin: hanging }]);
  await host.close();
  assert.ok(events.includes("dispose a"));
  assert.ok(lines.some((l) => /hang: cleanup timed out/.test(l)));
});

Deno.test("plugins start side by side: a start waiting on a later plugin's start is not stuck", async () => {
  const { host } = makeHost();
  let bStarted!: () => void;
  const b = new Promise<void>((resolve) => bStarted = resolve);
  const plugin = (id: string, start: () => Promise<void> | void): RuntimePlugin => ({
    id,
    apiVersion: 1,
    version: "1.0.0",
    setup(ctx) {
      ctx.onStart(start);
    },
  });
  // one after the other, a's start would wait for b's until its bound ended it
  await host.load([
    { plugin: plugin("a", () => b), setupTimeoutMs: 5_000 },
    { plugin: plugin("b", () => bStarted()) },
  ]);
  assert.deepEqual(host.status().map((s) => [s.id, s.state]), [["a", "active"], ["b", "active"]]);
  await host.close();
});
