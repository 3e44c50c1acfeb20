/**
 * A typo is a usage error, not a prompt (issue 24 item 5; the rule in cli/typo.ts and
 * docs/cli.md): through `deno task hs`, the scripted server receives no request for a typo.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, runHs, writeExe } from "../support/workspace.ts";

Deno.test("typos of built-in and discovered commands are rc 2 with the suggestion; nothing reaches the model", async () => {
  const t = await loopbackWorkspace([{ text: "got tols" }, { text: "fixing" }, { text: "hi" }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/commands/deploy"),
      "#!/usr/bin/env bash\necho deployed\n",
    );
    const cases: [string[], RegExp][] = [
      [["tols"], /did you mean `hs tools`\? To send it to the model as a message: hs -- tols/],
      [["docter"], /did you mean `hs doctor`\?/],
      [["sesion", "list"], /did you mean `hs session list`\? .*hs -- sesion list/],
      [["deplyo"], /did you mean `hs deploy`\?/],
    ];
    for (const [args, hint] of cases) {
      const r = await runHs(args, { cwd: t.w.ws, env: t.w.env });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, new RegExp(`^hs: unknown command "${args[0]}"\\nhint: `));
      assert.match(r.stderr, hint);
    }
    assert.equal(t.server.requests.length, 0, "no typo reached the model");

    // the escape the hint names, and real prompts that start near a command's name
    const asPrompt = await runHs(["--", "tols"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(asPrompt.code, 0, asPrompt.stderr);
    assert.equal(asPrompt.stdout, "got tols\n");
    const fix = await runHs(["sesion", "is", "broken"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(fix.code, 0, fix.stderr);
    const hello = await runHs(["hello"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(hello.code, 0, hello.stderr);
    const sent = t.server.requests.map((r) => JSON.stringify(r.body));
    assert.equal(sent.length, 3);
    assert.match(sent[0], /"tols"|tols/);
    assert.match(sent[1], /sesion is broken/);
    assert.match(sent[2], /hello/);
  } finally {
    await t.close();
  }
});

Deno.test("unknown flags, missing arguments and a missing trust path are rc 2 in one style", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const flag = await runHs(["--modle", "x", "hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(flag.code, 2, flag.stderr);
    assert.equal(flag.stderr, "hs: unknown option '--modle'\nhint: did you mean --model?\n");
    const missing = await runHs(["session", "show"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /^hs: missing required argument 'id'\nhint: .*--help/);
    const trust = await runHs(["trust", "/nonexistent"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(trust.code, 2, trust.stderr);
    assert.match(trust.stderr, /^hs: \/nonexistent is not a directory\nhint: /);
    const help = await runHs(["help", "tols"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(help.code, 2, help.stderr);
    assert.equal(help.stderr, 'hs: no command "tols"\nhint: did you mean `hs help tools`?\n');
    const empty = await runHs(["agent"], { cwd: t.w.ws, env: t.w.env, stdin: "" });
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /^hs: no message given\nhint: usage: hs /);
    const list = await runHs(["trust", "--list"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(t.server.requests.length, 0);
  } finally {
    await t.close();
  }
});
