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

Deno.test({
  name: "REPL: a tool the agent writes into .harness/tools/ is called on the next round (no ask)",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeRig();
    const ws = rig.w.ws;
    const tool = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"fresh_tool","description":"made by the agent","input_schema":{"type":"object"}}' ;;
  --describe) echo "made by the agent" ;;
  --exec) echo "fresh tool works in $PWD" ;;
esac
`;
    const server = await startScriptedServer([
      {
        toolCalls: [{
          id: "t1",
          name: "write_file",
          input: { path: ".harness/tools/fresh_tool", content: tool },
        }],
      },
      {
        toolCalls: [{
          id: "t2",
          name: "bash",
          input: { command: "chmod +x .harness/tools/fresh_tool" },
        }],
      },
      { toolCalls: [{ id: "t3", name: "fresh_tool", input: {} }] },
      { text: "TOOL-DONE" },
    ]);
    try {
      await writeFile(join(ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
      await writeFile(join(ws, ".harness/settings.conf"), "provider=loop\n");
      const hs = [Deno.execPath(), ...hsArgs(), "repl"];
      const out = await runInPty(hs, [
        ["›", "extend yourself\r"],
        ["TOOL-DONE", ""],
        ["›", "/quit\r"],
      ], { cwd: ws, env: { ...rig.w.env, HARNESS_NO_TRUST_PROMPT: "1", TERM: "dumb" } });
      assert.equal(out.code, 0, out.text);
      // an agent-extensible room: written without a question
      assert.ok(!out.text.includes("[n]ever"), `no ask for .harness/tools/:\n${out.text}`);
      const names = (i: number) =>
        (server.requests[i].body as { tools: { name: string }[] }).tools.map((t) => t.name);
      assert.ok(!names(1).includes("fresh_tool"), "not executable before chmod");
      assert.ok(names(2).includes("fresh_tool"), "discovered on the round after chmod");
      // what reached the model: the tool's own output, not an error, run in the workspace
      const last = JSON.stringify(server.requests[3].body);
      assert.ok(last.includes(`fresh tool works in ${ws}`), last.slice(-400));
      assert.ok(!last.includes('"is_error":true'), last.slice(-400));
    } finally {
      await server.close();
      await rig.close();
    }
  },
});
