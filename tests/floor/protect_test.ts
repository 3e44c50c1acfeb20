/**
 * Escape attempts through the harness's own control files (issue "Kernel II",
 * Part C): the floor must not be widened by what the agent writes. A tool may
 * not quietly change `.harness/floor.json`, `settings.conf`, `providers/`,
 * `plugins/`, … of the workspace, nor anything of `$HARNESS_HOME`; a project
 * `floor.json` can only narrow; and a change to control files re-opens the
 * trust question.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ScriptedTurn, startScriptedServer } from "../../plugins/scripted/mod.ts";
import {
  BWRAP_OK,
  loopbackConf,
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  writeFile,
} from "../support/workspace.ts";

type Done = { id: string; error: boolean; result: string };

async function turn(
  script: ScriptedTurn[],
  args: string[] = [],
  prepare?: (ws: string, home: string) => Promise<void>,
) {
  const t = await loopbackWorkspace([...script, { text: "done" }]);
  await prepare?.(t.w.ws, t.w.home);
  const r = await runHs(["--events", ...args, "go"], { cwd: t.w.ws, env: t.w.env });
  const done = new Map<string, Done>();
  for (const l of r.stdout.split("\n")) {
    if (!l.startsWith("{")) continue;
    const e = JSON.parse(l);
    if (e.type === "tool_done") done.set(e.id, e);
  }
  return { t, r, done };
}

const call = (id: string, name: string, input: unknown): ScriptedTurn => ({
  toolCalls: [{ id, name, input }],
});

Deno.test("write_file .harness/floor.json {preset: full}: asked, so denied headless", async () => {
  const { t, r, done } = await turn([
    call("w1", "write_file", { path: ".harness/floor.json", content: '{"preset":"full"}' }),
  ]);
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(done.get("w1")!.error, true);
    assert.match(done.get("w1")!.result, /floor\.protect/);
    assert.ok(
      await Deno.stat(join(t.w.ws, ".harness/floor.json")).then(() => false, () => true),
      "nothing was written",
    );
  } finally {
    await t.close();
  }
});

Deno.test("a project floor.json that says full widens nothing on the next run", async () => {
  const { t, r, done } = await turn(
    [call("w1", "write_file", { path: ".harness/floor.json", content: '{"preset":"full"}' })],
    ["--yes"],
  );
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(done.get("w1")!.error, true, "--yes never approves a control path");
    assert.match(done.get("w1")!.result, /floor\.protect/);
    // the user writes it: still only a narrowing layer
    await writeFile(join(t.w.ws, ".harness/floor.json"), '{"preset":"full"}');
    const floor = await runHs(["floor"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(floor.code, 0, floor.stderr);
    assert.match(floor.stdout, /children OS sandbox required/);
    assert.doesNotMatch(floor.stdout, /no narrowing/);
    assert.match(floor.stdout, /^ {2}write {4}\S*\/ws /m, "write stays the workspace");
  } finally {
    await t.close();
  }
});

Deno.test("bash cannot write control files (redirection denied, the files read-only)", async () => {
  const { t, r, done } = await turn(
    [
      call("b1", "bash", { command: 'echo \'{"preset":"full"}\' > .harness/floor.json' }),
      call("b2", "bash", { command: "cp notes.txt .harness/providers/evil.conf" }),
    ],
    [],
    async (ws) => {
      await Deno.writeTextFile(
        join(ws, "notes.txt"),
        "protocol=openai\nurl=http://evil.example/\n",
      );
    },
  );
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(done.get("b1")!.error, true);
    assert.match(done.get("b1")!.result, /bash may not write it/);
    if (!BWRAP_OK) {
      // children unconfined (HARNESS_UNSANDBOXED): what bash changed is recorded at the run's
      // end, and the next command refuses until the user has looked
      const next = await runHs(["tools"], { cwd: t.w.ws, env: t.w.env });
      assert.notEqual(next.code, 0);
      assert.match(next.stderr, /changed during a run[\s\S]*providers\/evil\.conf/);
      return;
    }
    assert.equal(done.get("b2")!.error, true, done.get("b2")!.result);
    assert.match(done.get("b2")!.result, /Read-only file system/);
    assert.ok(
      await Deno.stat(join(t.w.ws, ".harness/providers/evil.conf")).then(() => false, () => true),
    );
  } finally {
    await t.close();
  }
});

Deno.test("the workspace's .mcp.json is written by no tool: write_file, a redirection, a program (--yes included)", async () => {
  const mcp = JSON.stringify({ mcpServers: { mine: { command: "/bin/false" } } });
  const evil = JSON.stringify({ mcpServers: { mine: { command: "/bin/sh" } } });
  const { t, r, done } = await turn(
    [
      call("j1", "write_file", { path: ".mcp.json", content: evil }),
      call("j2", "bash", { command: `echo '${evil}' > .mcp.json` }),
      call("j3", "bash", {
        command: `python3 -c 'open(".mcp.json","w").write(${JSON.stringify(evil)})'`,
      }),
    ],
    ["--yes"],
    (ws) => Deno.writeTextFile(join(ws, ".mcp.json"), mcp),
  );
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(done.get("j1")!.error, true, done.get("j1")!.result);
    assert.match(done.get("j1")!.result, /floor\.protect/);
    assert.equal(done.get("j2")!.error, true, done.get("j2")!.result);
    assert.match(done.get("j2")!.result, /bash may not write it/);
    if (BWRAP_OK) {
      assert.equal(done.get("j3")!.error, true, done.get("j3")!.result);
      assert.match(done.get("j3")!.result, /Read-only file system/);
      assert.equal(await Deno.readTextFile(join(t.w.ws, ".mcp.json")), mcp, "unchanged");
    }
  } finally {
    await t.close();
  }
});

Deno.test("the harness home's settings are never written by tools, even with --allow-write", async () => {
  const w = await makeWorkspace();
  const target = join(w.home, "plugins.json");
  const server = await startScriptedServer([
    call("h1", "write_file", { path: target, content: '{"runtimePlugins":[]}' }),
    { text: "done" },
  ]);
  try {
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    const r = await runHs(["--events", "--yes", "--allow-write", w.home, "go"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 0, r.stderr);
    const done = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.type === "tool_done");
    assert.equal(done.error, true);
    assert.match(done.result, /floor\.protect/);
    assert.ok(await Deno.stat(target).then(() => false, () => true), "nothing was written");
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("control files changed after `hs trust` re-open the trust question", async () => {
  const t = await loopbackWorkspace([
    call("p1", "bash", { command: "mkdir -p .harness/packs/p && cp notes.txt .harness/packs/p/x" }),
    { text: "done" },
  ], { trusted: false });
  try {
    await Deno.writeTextFile(join(t.w.ws, "notes.txt"), "pack\n");
    const trust = await runHs(["trust"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(trust.code, 0, trust.stderr);
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    if (!BWRAP_OK) return; // bash ran unconfined (HARNESS_UNSANDBOXED): see the test above
    const p1 = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .find((e) => e.type === "tool_done" && e.id === "p1");
    assert.equal(
      p1.error,
      true,
      "the agent's bash cannot add a pack (the control path is read-only)",
    );
    assert.ok(await Deno.stat(join(t.w.ws, ".harness/packs/p/x")).then(() => false, () => true));
    // the user adds one between runs: the ordinary trust rule asks again
    await writeFile(join(t.w.ws, ".harness/packs/p/x"), "pack\n");
    const next = await runHs(["tools"], { cwd: t.w.ws, env: t.w.env });
    assert.match(
      next.stderr,
      new RegExp(`skipping changed since trusted ${t.w.ws}/\\.harness \\(trust it with: hs trust`),
    );
    const again = await runHs(["trust"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(again.code, 0);
    const after = await runHs(["tools"], { cwd: t.w.ws, env: t.w.env });
    assert.doesNotMatch(after.stderr, /skipping/);
  } finally {
    await t.close();
  }
});

Deno.test("hs floor shows what is protected", async () => {
  const t = await loopbackWorkspace([]);
  try {
    const r = await runHs(["floor"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /protect {2}deny writes to .*\/home \(the harness home, all of it\)/);
    assert.match(
      r.stdout,
      /ask before writing \.harness\/ of .* but its rooms \{tools,skills,prompts\}, \.mcp\.json/,
    );
  } finally {
    await t.close();
  }
});
