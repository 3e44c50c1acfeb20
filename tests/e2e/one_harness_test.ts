/**
 * `hs <message>` with the user's plugins makes one harness: the plugins are set up once (they
 * were set up, and disposed, twice — once to look for a plugin command of the first word, once
 * for the agent). A plugin command of that word still runs, with its own flags too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { loopbackConf, makeWorkspace, runHs, writeFile } from "../support/workspace.ts";

Deno.test("a message with user plugins sets each plugin up once; plugin commands still run", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([{ text: "hello back" }]);
  const log = join(w.home, "setups.log");
  try {
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    await writeFile(
      join(w.root, "counter.ts"),
      `export default {
  id: "counter",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
    Deno.writeTextFileSync(${JSON.stringify(log)}, "setup\\n", { append: true });
    ctx.commands.register({
      name: "plug",
      describe: "a plugin command",
      run: (args) => { console.log("plugged " + args.join(" ")); return Promise.resolve(0); },
    });
  },
};
`,
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "counter", module: join(w.root, "counter.ts") }] }),
    );
    const setups = async () => (await Deno.readTextFile(log)).split("\n").filter(Boolean).length;

    const r = await runHs(["hello", "there"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hello back\n");
    assert.equal(await setups(), 1);

    const p = await runHs(["plug", "a", "b"], { cwd: w.ws, env: w.env });
    assert.equal(p.code, 0, p.stderr);
    assert.equal(p.stdout, "plugged a b\n");
    assert.equal(await setups(), 2);

    // flags the agent does not take are the plugin command's own
    const f = await runHs(["plug", "--own-flag", "x"], { cwd: w.ws, env: w.env });
    assert.equal(f.code, 0, f.stderr);
    assert.equal(f.stdout, "plugged --own-flag x\n");

    // a word no plugin answers and the agent rejects is still a usage error
    const bad = await runHs(["nothing", "--own-flag"], { cwd: w.ws, env: w.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^hs: unknown option '--own-flag'/m);
  } finally {
    await server.close();
    await w.cleanup();
  }
});
