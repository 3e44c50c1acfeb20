/**
 * `createConnectorPlugin` and `connector-cloud`: namespaced external tools with
 * readOnly/sessionLocal forced off, the client closed when discovery fails or
 * the plugin stops; the hosted connector registered outside ephemeral
 * instances, no network at start, clear tool errors when unconfigured, and its
 * calls against a loopback service.
 */
import assert from "node:assert/strict";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import { createConnectorPlugin } from "../../mod.ts";
import { cloudConnectorPlugin } from "../../plugins/mod.ts";
import { textResult } from "../../core/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { makeWorkspace } from "../support/workspace.ts";

Deno.test("createConnectorPlugin: namespaced, external tools; the client is closed on stop", async () => {
  let closed = 0;
  let seenSignal: AbortSignal | undefined;
  const plugin = createConnectorPlugin<{ token: string }>({
    id: "my-connector",
    version: "1.0.0",
    parseConfig: () => ({ token: "t" }),
    connect(config, ctx) {
      assert.equal(config.token, "t");
      seenSignal = ctx.signal;
      return Promise.resolve({
        tools: () =>
          Promise.resolve([{
            name: "lookup",
            description: "look up",
            inputSchema: { type: "object" },
            readOnly: true,
            sessionLocal: true,
            execute: () => Promise.resolve(textResult("found")),
          }]),
        close: () => {
          closed++;
        },
      });
    },
  });
  const rig = await makeRig([
    modelPlugin(scriptedModel([{ calls: [{ id: "1", name: "my-connector__lookup", input: {} }] }, {
      text: "ok",
    }])),
    plugin,
  ]);
  const t = rig.h.registries.tools.get("my-connector__lookup")!;
  assert.equal(t.readOnly, false);
  assert.equal(t.sessionLocal, false);
  const r = await rig.h.run({ message: "x" });
  assert.equal(r.error, false, r.message);
  await rig.close();
  assert.equal(closed, 1);
  assert.equal(seenSignal?.aborted, true);
});

Deno.test("createConnectorPlugin: a failing discovery closes the client and fails the plugin", async () => {
  let closed = 0;
  const plugin = createConnectorPlugin({
    id: "flaky",
    version: "1",
    connect: () =>
      Promise.resolve({
        tools: () => Promise.reject(new Error("catalog-secret")),
        close: () => {
          closed++;
        },
      }),
  });
  const w = await makeWorkspace();
  try {
    const h = await Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      ephemeral: true,
      log: () => {},
      runtimePlugins: [{ plugin: plugin as never, required: false }],
    });
    const st = h.admin.runtimePluginStatus().find((s) => s.id === "flaky")!;
    assert.equal(st.state, "failed");
    assert.equal(st.reason, "setup failed");
    assert.equal(closed, 1);
    await h.close();
    assert.equal(closed, 1);
  } finally {
    await w.cleanup();
  }
});

Deno.test("connector-cloud: registered outside ephemeral instances; cloudConnectors:false or plugins.json turn it off", async () => {
  const w = await makeWorkspace();
  try {
    const base = { cwd: w.ws, env: w.env, log: () => {} };
    const on = await Harness.create(base);
    assert.deepEqual(on.registries.tools.keysOf({ kind: "builtin", id: "connector-cloud" }), [
      "cloud__connect",
      "cloud__action",
    ]);
    await on.close();
    for (
      const opts of [
        { ephemeral: true },
        { cloudConnectors: false },
        { config: { runtimePlugins: [{ id: "connector-cloud", enabled: false }] } },
      ]
    ) {
      const h = await Harness.create({ ...base, ...opts });
      assert.equal(h.registries.tools.get("cloud__connect"), undefined, JSON.stringify(opts));
      await h.close();
    }
  } finally {
    await w.cleanup();
  }
});

Deno.test("connector-cloud: no network at start; unconfigured and token-less calls are tool errors; calls reach the service", async () => {
  const requests: { url: string; auth: string | null; body: unknown }[] = [];
  const fakeFetch = ((url: URL, init: RequestInit) => {
    requests.push({
      url: String(url),
      auth: new Headers(init.headers).get("authorization"),
      body: JSON.parse(String(init.body)),
    });
    return Promise.resolve(
      new Response(JSON.stringify({ link: "https://cloud.example/l/1" }), { status: 200 }),
    );
  }) as typeof fetch;
  const call = async (
    config: unknown,
    env: Record<string, string>,
    tool: string,
    input: unknown,
  ) => {
    const plugin = cloudConnectorPlugin({ env, fetch: fakeFetch });
    const rig = await makeRig([], {
      config: { runtimePlugins: [] },
      runtimePlugins: [{ plugin: plugin as never, config }],
    });
    try {
      const t = rig.h.registries.tools.get(tool)!;
      return await t.execute(input, {
        cwd: rig.w.ws,
        env: {},
        signal: new AbortController().signal,
        sessionDir: "",
        callId: "c",
        log: () => {},
      });
    } finally {
      await rig.close();
    }
  };
  const unconfigured = await call({}, {}, "cloud__connect", { app: "github" });
  assert.equal(requests.length, 0, "no request at start or without a url");
  assert.equal(unconfigured.isError, true);
  assert.match(unconfigured.content[0].text, /not configured: set "url"/);
  const noToken = await call({ url: "https://cloud.example" }, {}, "cloud__connect", {
    app: "github",
  });
  assert.match(noToken.content[0].text, /no token: set HS_CLOUD_TOKEN/);
  const ok = await call(
    { url: "https://cloud.example/api", account: "acct-1" },
    { HS_CLOUD_TOKEN: "tok" },
    "cloud__action",
    { app: "github", action: "create_issue", input: { title: "x" }, account: "evil" },
  );
  assert.equal(ok.isError, false);
  assert.deepEqual(requests.at(-1), {
    url: "https://cloud.example/api/v1/actions",
    auth: "Bearer tok",
    body: { app: "github", action: "create_issue", input: { title: "x" }, account: "acct-1" },
  });
});
