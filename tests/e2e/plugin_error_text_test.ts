/**
 * Seed 002: "les erreurs omettent les messages d'exception des plugins". Status, logs and
 * pages held it; runs did not (issue 27 point 11): a plugin provider's error
 * (`upstream said: invalid key sk-…`) and a plugin command's error reached the terminal and
 * HARNESS_LOG verbatim. Now each says which plugin and which call failed, and the plugin's
 * text is nowhere: not on stdout, stderr, in the log or in the session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, runHs, writeFile } from "../support/workspace.ts";

const SECRET = "sk-live-9f8e7d6c5b4a3210-do-not-print";

const PLUGIN = `export default {
  id: "leaky", version: "1.0.0", apiVersion: 1,
  setup(ctx) {
    ctx.models.register({
      name: "leaky", description: "a provider whose upstream fails", protocol: "anthropic",
      ready: () => Promise.resolve({ ready: true, reason: "always" }),
      defaultModel: () => Promise.resolve("leaky-1"),
      send: () => Promise.reject(new Error("upstream said: invalid key ${SECRET}")),
    }, [{ id: "leaky-1" }]);
    ctx.commands.register({
      name: "leak", describe: "a command that fails",
      run: () => Promise.reject(new Error("could not reach vault with ${SECRET}")),
    });
  },
};
`;

async function readAll(dir: string): Promise<string> {
  let text = "";
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) text += await readAll(p);
    else if (e.isFile) text += await Deno.readTextFile(p).catch(() => "");
  }
  return text;
}

Deno.test("a plugin provider's and a plugin command's exception text reach no terminal, log or session", async () => {
  const w = await makeWorkspace();
  try {
    const mod = join(w.root, "leaky.ts");
    await writeFile(mod, PLUGIN);
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "leaky", module: mod }] }),
    );
    const env = { ...w.env, HARNESS_PROVIDER: "leaky" };
    const turn = await runHs(["hello"], { cwd: w.ws, env });
    assert.notEqual(turn.code, 0);
    assert.match(turn.stderr, /provider "leaky" \(plugin:leaky\) failed: its message is not shown/);
    const cmd = await runHs(["leak"], { cwd: w.ws, env });
    assert.notEqual(cmd.code, 0);
    assert.match(cmd.stderr, /command "leak" of plugin:leaky failed: its message is not shown/);
    const log = await Deno.readTextFile(join(w.root, "harness.log")).catch(() => "");
    const sessions = await readAll(w.home);
    for (
      const [where, text] of Object.entries({
        turn: turn.stdout + turn.stderr,
        cmd: cmd.stdout + cmd.stderr,
        log,
        sessions,
      })
    ) {
      assert.ok(!text.includes(SECRET), `${where} holds the plugin's text`);
      assert.ok(!text.includes("upstream said"), `${where} holds the plugin's text`);
    }
  } finally {
    await w.cleanup();
  }
});
