/**
 * Permission-scoped runs: `deno task hs` (the launcher) runs the harness with
 * only its home, the workspace and the resolved provider's host — a run
 * against a loopback server holds no public network permission — and tools
 * still work inside the floor.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { BWRAP_OK, hsArgs, loopbackConf, writeFile } from "../support/workspace.ts";
import { makeRig } from "./_helpers.ts";

Deno.test("the launcher narrows the process to home, workspace and the provider host", async () => {
  const rig = await makeRig();
  const server = await startScriptedServer([
    {
      toolCalls: [
        { id: "l1", name: "read_file", input: { path: "notes.txt" } },
        { id: "l2", name: "bash", input: { command: "echo from-bash" } },
      ],
    },
    { text: "launched" },
  ]);
  try {
    await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
    const out = await new Deno.Command(Deno.execPath(), {
      args: [...hsArgs(), "--events", "go"],
      cwd: rig.w.ws,
      env: { ...rig.w.env, HS_LAUNCH_DEBUG: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const port = new URL(server.url).port;
    assert.match(stderr, new RegExp(`--allow-net=127\\.0\\.0\\.1:${port}\\n`));
    assert.doesNotMatch(stderr, /--allow-all|\s-A\s/);
    if (BWRAP_OK) assert.match(stderr, /--allow-run=\S*bwrap/);
    assert.doesNotMatch(stderr, /Warning|experimental/);
    const done = stdout.split("\n").filter((l) => l.includes('"type":"tool_done"')).map((l) =>
      JSON.parse(l)
    );
    assert.equal(done[0].error, false, done[0].result);
    assert.match(done[0].result, /hello from the workspace/);
    assert.equal(done.length, 2, stdout + stderr);
    if (BWRAP_OK) assert.match(done[1].result, /from-bash/);
    else assert.match(done[1].result, /no OS sandbox/);
    assert.match(stdout, /launched/);
  } finally {
    await server.close();
    await rig.close();
  }
});
