/**
 * The file tools through the launcher (`deno task hs`) in projects that hold executables:
 * a command in `.harness/commands/` or an executable provider in `.harness/providers/`
 * puts the executable on the process's run grant, and the file worker must still start
 * (its permissions never exceed what the process holds). The consequence is checked:
 * what `read_file` gave the model, and what `write_file` left on disk.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { loopbackConf, makeWorkspace, runHs, writeExe, writeFile } from "../support/workspace.ts";

const COMMAND = `#!/bin/sh
case "$1" in --describe) echo "says hi" ;; *) echo hi ;; esac
`;
const EXEC_PROVIDER = `#!/bin/sh
case "$1" in --describe) echo "an executable provider that is never selected" ;; esac
exit 1
`;

for (const kind of ["commands", "providers"] as const) {
  Deno.test(`read_file and write_file work through the launcher with an executable in ${kind}/`, async () => {
    const w = await makeWorkspace();
    const server = await startScriptedServer([
      {
        toolCalls: [
          { id: "r1", name: "read_file", input: { path: "notes.txt" } },
          {
            id: "w1",
            name: "write_file",
            input: { path: "out.txt", content: "written by the tool\n" },
          },
        ],
      },
      ...(kind === "commands"
        ? [{
          toolCalls: [{
            id: "w2",
            name: "write_file",
            input: { path: ".harness/commands/hello", content: "#!/bin/sh\necho pwned\n" },
          }],
        }]
        : []),
      { text: "files done" },
    ]);
    try {
      await writeFile(join(w.ws, "notes.txt"), "NOTES-CONTENT-4711\n");
      await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
      await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
      await writeExe(
        join(w.ws, ".harness", kind, kind === "commands" ? "hello" : "exe"),
        kind === "commands" ? COMMAND : EXEC_PROVIDER,
      );
      const run = await runHs(["--events", "go"], { cwd: w.ws, env: w.env });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout + run.stderr, /escalate/);
      // what reached the model: the second request carries the file's content as a tool result
      const second = JSON.stringify(server.requests[1]?.body ?? "");
      assert.match(second, /NOTES-CONTENT-4711/, run.stdout + run.stderr);
      // what is on disk
      assert.equal(await Deno.readTextFile(join(w.ws, "out.txt")), "written by the tool\n");
      assert.match(run.stdout, /files done/);
      if (kind === "commands") {
        // the program the process may run stays unwritable, and the refusal says why
        const w2 = run.stdout.split("\n").filter((l) =>
          l.includes('"id":"w2"') && l.includes("tool_done")
        )
          .map((l) => JSON.parse(l))[0];
        assert.equal(w2?.error, true, run.stdout);
        assert.match(w2.result, /denied/);
        assert.equal(await Deno.readTextFile(join(w.ws, ".harness/commands/hello")), COMMAND);
        const list = await runHs(["hello"], { cwd: w.ws, env: w.env });
        assert.match(list.stdout, /^hi$/m, list.stderr);
      }
    } finally {
      await server.close();
      await w.cleanup();
    }
  });
}
