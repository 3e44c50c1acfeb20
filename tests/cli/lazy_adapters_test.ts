/**
 * Issue 25, "Load only what a command uses": "`hs tools` … never load[s] provider adapters".
 * The providers plugin registers its adapters at set-up, but they load on the first model
 * request (plugins/providers/setup/lazy_adapter.ts). Shown with the event-stream parser — a
 * package only the adapters import — replaced by a module that throws when it loads: `hs tools`
 * and `hs providers` answer, a turn fails on it (so the test can fail), with the error said.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { lazyAdapter } from "../../plugins/providers/setup/mod.ts";
import { configWith, runMainWith } from "../support/config_with.ts";
import { loopbackConf, makeWorkspace, writeFile } from "../support/workspace.ts";

Deno.test("hs tools and hs providers load no adapter; a turn loads them on its first request", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([{ text: "never sent" }]);
  try {
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const poison = join(w.root, "poison.ts");
    await Deno.writeTextFile(
      poison,
      'export function createParser() {}\nthrow new Error("the adapters were loaded");\n',
    );
    const config = await configWith(w.root, { "eventsource-parser": `file://${poison}` });
    const hs = (...args: string[]) => runMainWith(config, w, args);
    const tools = await hs("tools");
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /read_file/);
    const providers = await hs("providers");
    assert.equal(providers.code, 0, providers.stderr);
    assert.match(providers.stdout, /loop/);
    const turn = await hs("hello");
    assert.notEqual(turn.code, 0, turn.stdout);
    assert.match(turn.stderr, /the adapters were loaded/);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("a lazy adapter refuses its synchronous methods before it loads, and works after", async () => {
  const a = lazyAdapter("anthropic");
  assert.equal(a.protocol, "anthropic");
  assert.throws(
    () => a.buildTools([]),
    /anthropic adapter's buildTools was called before the adapter loaded/,
  );
  await a.load!();
  assert.deepEqual(a.buildTools([]), []);
  const messages = a.buildMessages([{ role: "user", seq: 1, text: "hi" }]);
  assert.equal(messages.length, 1);
});

Deno.test("a lazy adapter of an unknown protocol is refused when it is made", () => {
  assert.throws(() => lazyAdapter("gopher"), /unknown protocol "gopher"/);
});
