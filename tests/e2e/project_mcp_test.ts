/**
 * A workspace's `.mcp.json` through `deno task hs` (issue 24 point 7): read only in a
 * trusted workspace; each server starts once approved by name (`hs trust`, the trust
 * prompt, or `--trust-workspace` for one run) and is asked about again when what it runs
 * changes; its tools are offered to the model and pass the seam; its environment holds no
 * provider key; a server that fails leaves the `mcp` plugin `degraded` with the reason and
 * the others running.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mcpServer } from "../support/mcp.ts";
import { runInPty } from "../support/pty.ts";
import {
  hsArgs,
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

const KEY = "sk-ant-e2e-provider-key-0123456789";
const OPENAI = "sk-openai-e2e-provider-key-987654";

/** A `.mcp.json` with server-everything as `everything` (and other servers). */
function mcpJson(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    mcpServers: { everything: mcpServer("server-everything", ["stdio"]), ...extra },
  });
}

/** The text of every request the model was sent. */
function sent(reqs: { body: unknown }[]): string[] {
  return reqs.map((r) => JSON.stringify(r.body));
}

/** Tool names offered in a recorded (Anthropic) request. */
function offered(req: { body: unknown }): string[] {
  return ((req.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
}

Deno.test("a trusted workspace's .mcp.json: not approved until hs trust; then its tools, an echo round trip, no provider key; a change asks again", async () => {
  const t = await loopbackWorkspace([
    {
      toolCalls: [
        { id: "e1", name: "mcp__everything__echo", input: { message: "from .mcp.json" } },
        { id: "e2", name: "mcp__everything__get-env", input: {} },
      ],
    },
    { text: "all done" },
  ]);
  const env = { ...t.w.env, ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: OPENAI };
  try {
    await writeFile(join(t.w.ws, ".mcp.json"), mcpJson());
    // not approved: nothing starts; hs plugins and hs doctor say why
    const before = await runHs(["plugins"], { cwd: t.w.ws, env });
    assert.equal(before.code, 0, before.stderr);
    assert.match(
      before.stdout,
      /^mcp\s+1\.0\.0\s+degraded \(built-in\) — server everything: not approved: run hs trust$/m,
    );
    assert.doesNotMatch(before.stdout, /mcp__everything__/);
    assert.match(
      before.stderr,
      /not starting MCP server everything of .*\.mcp\.json: not approved/,
    );
    const doctor = await runHs(["doctor"], { cwd: t.w.ws, env });
    assert.match(
      doctor.stdout,
      /mcp servers\n\s+everything\s+stdio\s+not approved \.mcp\.json\n\s+not approved: run hs trust/,
    );

    const trust = await runHs(["trust"], { cwd: t.w.ws, env });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /^approved MCP server everything of .*\.mcp\.json$/m);

    const after = await runHs(["plugins"], { cwd: t.w.ws, env });
    assert.match(after.stdout, /^mcp\s+1\.0\.0\s+active \(built-in\)$/m, after.stdout);
    assert.match(after.stdout, /tools: .*mcp__everything__echo/);
    assert.equal(after.stderr.includes("not starting"), false, after.stderr);

    const r = await runHs(["call the echo tool"], { cwd: t.w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /all done/);
    assert.equal(t.server.requests.length, 2);
    assert.ok(offered(t.server.requests[0]).includes("mcp__everything__echo"));
    const [, second] = sent(t.server.requests);
    assert.ok(second.includes("Echo: from .mcp.json"), second.slice(0, 2000));
    // the server's environment (get-env) reached the model: no provider key in it
    assert.ok(second.includes("DENO_DIR"), "get-env answered");
    assert.equal(second.includes(KEY), false, "no Anthropic key in the server's environment");
    assert.equal(second.includes(OPENAI), false, "no OpenAI key in the server's environment");
    assert.equal(second.includes("ANTHROPIC_API_KEY"), false);

    // a changed command asks again (and does not start)
    const cfg = mcpServer("server-everything", ["stdio"]);
    await writeFile(
      join(t.w.ws, ".mcp.json"),
      JSON.stringify({ mcpServers: { everything: { ...cfg, args: ["-q", ...cfg.args] } } }),
    );
    const changed = await runHs(["plugins"], { cwd: t.w.ws, env });
    assert.match(
      changed.stdout,
      /^mcp\s+1\.0\.0\s+degraded \(built-in\) — server everything: changed since approved: run hs trust$/m,
    );
    assert.match(changed.stderr, /not starting MCP server everything .*changed since approved/);
  } finally {
    await t.close();
  }
});

Deno.test("--trust-workspace starts the .mcp.json servers for that run only; a failing server leaves mcp degraded, the others run", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "e1", name: "mcp__everything__echo", input: { message: "one run" } }] },
    { text: "echoed" },
  ], { trusted: false });
  try {
    await writeFile(
      join(t.w.ws, ".mcp.json"),
      mcpJson({ broken: { command: "/bin/sh", args: ["-c", "echo BROKEN-SPAWNED >&2; exit 3"] } }),
    );
    // untrusted: nothing of it is read, nothing spawned
    const untrusted = await runHs(["plugins"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(
      untrusted.stdout,
      /^mcp\s+1\.0\.0\s+degraded \(built-in\) — \.mcp\.json not read: the workspace is not trusted \(run: hs trust\)$/m,
    );
    assert.match(untrusted.stderr, /not reading .*\.mcp\.json of an untrusted workspace/);
    const log = () => {
      try {
        return Deno.readTextFileSync(t.w.env.HARNESS_LOG);
      } catch {
        return "";
      }
    };
    assert.equal(log().includes("BROKEN-SPAWNED"), false, "no server was started");

    const r = await runHs(["--trust-workspace", "echo it"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /echoed/);
    assert.ok(sent(t.server.requests)[1].includes("Echo: one run"));
    assert.ok(log().includes("BROKEN-SPAWNED"), "the broken server was started and failed");

    const listed = await runHs(["--trust-workspace", "plugins"], { cwd: t.w.ws, env: t.w.env });
    assert.match(
      listed.stdout,
      /^mcp\s+1\.0\.0\s+degraded \(built-in\) — server broken: could not start: /m,
    );
    assert.match(listed.stdout, /tools: .*mcp__everything__echo/);
    const doctor = await runHs(["--trust-workspace", "doctor"], { cwd: t.w.ws, env: t.w.env });
    assert.match(doctor.stdout, /\n\s+broken\s+stdio\s+failed \.mcp\.json\n\s+could not start: /);
    assert.match(doctor.stdout, /\n\s+everything\s+stdio\s+active \(\d+ tools\) \.mcp\.json\n/);

    // for that run only: nothing was recorded
    const next = await runHs(["plugins"], { cwd: t.w.ws, env: t.w.env });
    assert.match(next.stdout, /\.mcp\.json not read: the workspace is not trusted/);
    const approvals = await Deno.readTextFile(join(t.w.home, "mcp-approvals.json")).catch(() => "");
    assert.equal(approvals, "");
  } finally {
    await t.close();
  }
});

Deno.test({
  name:
    "the trust prompt lists the .mcp.json servers; y starts them in this run; a changed one is asked about again",
  // the prompt is the launcher's run on a terminal (the bundle is covered by the headless tests)
  ignore: Deno.env.get("HS_E2E_CMD") !== undefined,
  async fn() {
    const t = await loopbackWorkspace([], { trusted: false });
    try {
      await writeFile(join(t.w.ws, ".mcp.json"), mcpJson());
      const env = { ...t.w.env, TERM: "dumb" };
      const first = await runInPty(
        [Deno.execPath(), ...hsArgs(), "plugins"],
        [["Trust and load them? [y/N]", "y\r"], ["mcp__everything__echo", ""]],
        { cwd: t.w.ws, env },
      );
      assert.equal(first.exit, 0, first.text);
      assert.match(
        first.text,
        /\.mcp\.json: MCP servers it would start\r?\n\s+everything: \S+ run -A/,
      );
      assert.match(first.text, /^mcp\s+1\.0\.0\s+active \(built-in\)\r?$/m);
      const approvals = JSON.parse(await Deno.readTextFile(join(t.w.home, "mcp-approvals.json")));
      assert.ok(approvals.approved[t.w.ws].everything.hash);

      const cfg = mcpServer("server-everything", ["stdio"]);
      await writeFile(
        join(t.w.ws, ".mcp.json"),
        JSON.stringify({ mcpServers: { everything: { ...cfg, command: "/bin/false" } } }),
      );
      const second = await runInPty(
        [Deno.execPath(), ...hsArgs(), "plugins"],
        [["Start them? [y/N]", "n\r"]],
        { cwd: t.w.ws, env },
      );
      assert.equal(second.exit, 0, second.text);
      assert.match(
        second.text,
        /not approved:\r?\n.*\r?\n\s+everything: \/bin\/false .*\(changed since you approved it\)/,
      );
      assert.match(
        second.text,
        /degraded \(built-in\) — server everything: changed since approved/,
      );
    } finally {
      await t.close();
    }
  },
});

Deno.test("an untrusted .harness above a trusted workspace does not hide its .mcp.json servers' notice", async () => {
  const w = await makeWorkspace({ trusted: false });
  try {
    // the workspace is trusted, the .harness of its parent is not
    await writeFile(
      join(w.home, "trust.json"),
      JSON.stringify({ version: 1, trusted: { [w.ws]: { at: "test" } } }),
    );
    await writeExe(join(w.root, ".harness/tools/above"), "#!/bin/sh\necho above\n");
    await writeFile(
      join(w.ws, ".mcp.json"),
      JSON.stringify({ mcpServers: { x: { command: "/bin/false" } } }),
    );
    const r = await runHs(["plugins"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /skipping untrusted .*\/\.harness \(trust it with/);
    assert.match(r.stderr, /not starting MCP server x of .*\/ws\/\.mcp\.json: not approved/);
    assert.match(
      r.stdout,
      /^mcp\s+1\.0\.0\s+degraded \(built-in\) — server x: not approved: run hs trust$/m,
    );
  } finally {
    await w.cleanup();
  }
});
