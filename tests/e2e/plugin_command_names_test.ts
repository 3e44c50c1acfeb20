/**
 * A plugin command named like a built-in (`doctor`, `plugins`) is refused when it registers
 * (issue 27 point 13): before, it was listed in `--help` and never ran. The table of names the
 * harness reserves is the CLI's own command table. `hs plugins` also names the behavior packs (the
 * third extension form) and points to `hs packs`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BUILTIN_COMMAND_NAMES } from "../../cli/base/mod.ts";
import { BUILTIN_COMMANDS } from "../../cli/mod.ts";
import { makeWorkspace, runHs, writeFile } from "../support/workspace.ts";
import { notebookPack, writePack } from "./_packs_kit.ts";

Deno.test("the reserved command names are the CLI's command table", () => {
  assert.deepEqual([...BUILTIN_COMMAND_NAMES].sort(), [...BUILTIN_COMMANDS].sort());
});

Deno.test("a plugin command named like a built-in is refused at registration; the built-in runs", async () => {
  const w = await makeWorkspace();
  try {
    const mod = join(w.root, "shadow.ts");
    await writeFile(
      mod,
      `export default {
  id: "shadow", version: "1.0.0", apiVersion: 1,
  setup(ctx) {
    ctx.commands.register({ name: "doctor", describe: "not the doctor", run: () => Promise.resolve(7) });
  },
};
`,
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "shadow", module: mod, required: false }] }),
    );
    const p = await runHs(["plugins"], { cwd: w.ws, env: w.env });
    assert.equal(p.code, 0, p.stderr);
    assert.match(
      p.stdout,
      /shadow .*failed .*command "doctor" of plugin:shadow is named like a built-in command/,
    );
    const help = await runHs(["--help"], { cwd: w.ws, env: w.env });
    assert.ok(!help.stdout.includes("not the doctor"), help.stdout);
    const d = await runHs(["doctor"], { cwd: w.ws, env: w.env });
    assert.notEqual(d.code, 7);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs plugins names the behavior packs and points to hs packs", async () => {
  const w = await makeWorkspace();
  try {
    const none = await runHs(["plugins"], { cwd: w.ws, env: w.env });
    assert.match(none.stdout, /behavior packs: none \(hs packs\)/);
    await writePack(join(w.home, "packs"), notebookPack());
    const r = await runHs(["plugins"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /behavior packs: nb — details: hs packs/);
  } finally {
    await w.cleanup();
  }
});
