/**
 * "Secrets never reach logs": HARNESS_LOG is written through core/base/log.ts `redactingLog`,
 * so a key a hostile model puts in a command, quoted back by a pack program's error with its
 * backtrace, is `[redacted]` in the log and in `hs packs log` — an environment key and a stored
 * one alike. Through `deno task hs` with a scripted model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runHs, writeFile } from "../support/workspace.ts";
import { call, type PackFiles, packsWorkspace, results } from "./_packs_kit.ts";

const ENV_KEY = "sk-ant-e2e-environment-key-0123456789";
const STORED_KEY = "sk-stored-e2e-key-9876543210";

const PACK: PackFiles = {
  name: "lk",
  files: {
    "plugin.json": JSON.stringify({
      name: "lk",
      extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
    }),
    "bots/main.prompt": "---\nattach: foreground\nbehavior:\n  program: ../main.scm\n---\nLk.\n",
    // the guard fails quoting what it was handed: the model's command
    "main.scm": `(guard/shell :id 'quoting
  :middleware (lambda (raw invoke)
                (error "refusing" (:command raw))))
`,
  },
};

Deno.test("a key quoted by a pack program's error is [redacted] in HARNESS_LOG and hs packs log", async () => {
  const command = `echo ${ENV_KEY} ${STORED_KEY}`;
  const t = await packsWorkspace([call("b1", "bash", { command }), { text: "done" }], [PACK]);
  try {
    const env = { ...t.w.env, ANTHROPIC_API_KEY: ENV_KEY };
    await writeFile(
      join(t.w.home, ".auth.json"),
      JSON.stringify({ other: [{ type: "api_key", key: STORED_KEY }] }),
    );
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(results(r.stdout).get("b1")!.result, /refused by guard lk\/main\/quoting/);
    const log = await Deno.readTextFile(t.w.env.HARNESS_LOG);
    const line = log.split("\n").find((l) => l.includes("guard quoting (shell) failed"));
    assert.ok(line, log);
    assert.match(line, /\[redacted\] \[redacted\]/, "the failure still says where the keys were");
    for (const key of [ENV_KEY, STORED_KEY]) {
      assert.ok(!log.includes(key), `HARNESS_LOG holds ${key}:\n${log}`);
    }
    const listed = await runHs(["packs", "log"], { cwd: t.w.ws, env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /lk\/main guard quoting \(shell\) failed/);
    for (const key of [ENV_KEY, STORED_KEY]) assert.ok(!listed.stdout.includes(key));
  } finally {
    await t.close();
  }
});
