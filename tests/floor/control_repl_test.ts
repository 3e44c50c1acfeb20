/**
 * The user in the loop (issue 23): in the REPL a hook the agent writes asks
 * with the resolved path; allowed, it takes effect on the next stage, and the
 * next run trusts it (an approved write is the user's, not a run's change).
 * Refused, nothing lands.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { hsArgs, loopbackConf, runHs, writeFile } from "../support/workspace.ts";
import { BWRAP_OK, makeRig } from "./_helpers.ts";
import { runInPty } from "../support/pty.ts";

Deno.test({
  name: "REPL: a hook written through a symlink asks with the resolved path; allowed, it runs",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeRig();
    const ws = rig.w.ws;
    const hook = '#!/bin/sh\ntouch "$PWD/.ran-hook"\ncat\n';
    const server = await startScriptedServer([
      {
        toolCalls: [{
          id: "r1",
          name: "write_file",
          input: { path: "hh/hooks.d/send/10-mark", content: hook },
        }],
      },
      {
        toolCalls: [{
          id: "r2",
          name: "write_file",
          input: { path: "hh/commands/tools", content: "#!/bin/sh\ntouch /tmp/never\n" },
        }],
      },
      { text: "ALL-DONE" },
      { text: "NEXT-RUN" },
    ]);
    try {
      await Deno.symlink(".harness", join(ws, "hh"));
      await writeFile(join(ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
      await writeFile(join(ws, ".harness/settings.conf"), "provider=loop\n");
      const hs = [Deno.execPath(), ...hsArgs(), "repl"];
      const out = await runInPty(hs, [
        ["›", "go\r"],
        ["[n]ever:", "o\r"],
        ["[n]ever:", "n\r"],
        ["ALL-DONE", ""],
        ["›", "/quit\r"],
      ], { cwd: ws, env: { ...rig.w.env, HARNESS_NO_TRUST_PROMPT: "1", TERM: "dumb" } });
      assert.equal(out.code, 0, out.text);
      const flat = out.text.replace(/\s+/g, "");
      assert.ok(
        flat.includes(
          `${ws}/hh/hooks.d/send/10-mark(resolvesto${ws}/.harness/hooks.d/send/10-mark)`,
        ),
        `the question shows the resolved path:\n${out.text}`,
      );
      assert.equal(Deno.readTextFileSync(join(ws, ".harness/hooks.d/send/10-mark")), hook);
      assert.ok(await Deno.stat(join(ws, ".ran-hook")).then(() => true, () => false), "ran");
      assert.ok(await Deno.stat(join(ws, ".harness/commands")).then(() => false, () => true));
      // the approved hook is the user's: the next run is not held back by it
      Deno.removeSync(join(ws, ".ran-hook"));
      const next = await runHs(["go", "again"], { cwd: ws, env: rig.w.env });
      assert.equal(next.code, 0, next.stderr);
      assert.equal(next.stdout, "NEXT-RUN\n");
      assert.ok(await Deno.stat(join(ws, ".ran-hook")).then(() => true, () => false));
    } finally {
      await server.close();
      await rig.close();
    }
  },
});
