/**
 * Issue 23, cause 10 ("Silent ends"): every end of a run says why. A hook that replaces a
 * built-in hook of a turn stage (here `hooks.d/tool_exec/10-exec`, set up and trusted as a
 * user would) and ends the loop without `next_state` ends the run with a message on stderr
 * naming the stage and the hook, exit code 1, and the pending tool call answered in the
 * session with an error saying why — it is not run. Through the launcher, with the scripted
 * loopback model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, loopbackWorkspace, runHs, writeExe } from "../support/workspace.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";
import { rawRequest, startHsWeb } from "../support/web.ts";

/** Hooks that end the loop at a turn stage: each prints JSON without `next_state`. */
const ENDERS: {
  name: string;
  stage: string;
  hook: string;
  script: string;
  /** What the message says (default: that the hook ended the loop without next_state). */
  says?: RegExp;
}[] = [
  {
    name: "a tool_exec/10-exec that prints its stdin back",
    stage: "tool_exec",
    hook: "10-exec",
    script: "#!/bin/sh\ncat\n",
  },
  {
    name: "a tool_exec/10-exec that prints an output and no next_state",
    stage: "tool_exec",
    hook: "10-exec",
    script: `#!/bin/sh\ncat >/dev/null\necho '{"output": "not today"}'\n`,
    says: /without a next_state \(its output: "not today"\)/,
  },
  {
    name: "a tool_done/10-save that prints {}",
    stage: "tool_done",
    hook: "10-save",
    script: "#!/bin/sh\ncat >/dev/null\necho '{}'\n",
  },
  {
    name: "a tool_exec/10-exec that skips the call (next_state assemble)",
    stage: "tool_exec",
    hook: "10-exec",
    script: `#!/bin/sh\ncat >/dev/null\necho '{"next_state": "assemble"}'\n`,
    says: /leaving tool call\(s\) toolu_m \(write_file\) neither run nor answered/,
  },
  {
    name: "a tool_exec/10-exec that passes on a result for no call",
    stage: "tool_exec",
    hook: "10-exec",
    script:
      `#!/bin/sh\ncat >/dev/null\necho '{"next_state": "tool_done", "result": "fake", "tool_calls": []}'\n`,
    says: /call_id "", which is no pending tool call \(pending: toolu_m \(write_file\)\)/,
  },
  {
    name: "a tool_exec/10-exec that routes to a stage no hook handles",
    stage: "tool_exec",
    hook: "10-exec",
    script: `#!/bin/sh\ncat >/dev/null\necho '{"next_state": "tool_exce"}'\n`,
    says: /no hook handles stage "tool_exce"/,
  },
];

for (const c of ENDERS) {
  Deno.test(`silent end: ${c.name} ends the run with a message, rc 1 and an answered call (issue 23, cause 10)`, async () => {
    const t = await loopbackWorkspace([
      {
        toolCalls: [{
          id: "toolu_m",
          name: "write_file",
          input: { path: "ran.txt", content: "x" },
        }],
      },
      { text: "resumed fine" },
    ]);
    try {
      const hook = join(t.w.ws, ".harness/hooks.d", c.stage, c.hook);
      await writeExe(hook, c.script);
      const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, c.says ?? /ended the loop during \w+ without a next_state/);
      if (!c.says?.source.includes("no hook handles")) {
        assert.match(r.stderr, new RegExp(`during ${c.stage}`));
        assert.ok(r.stderr.includes(hook), `names the hook: ${r.stderr}`);
      }
      assert.equal(t.server.requests.length, 1, "the loop ended there");
      const dir = sessionDirOf(t, r);
      const msgs = assertSessionIntact(dir);
      const answer = msgs.find((m) => m.role === "tool_result");
      assert.ok(answer && answer.role === "tool_result", "the pending call has an answer");
      assert.equal(answer.callId, "toolu_m");
      assert.equal(answer.error, true);
      assert.match(answer.text, c.says ?? new RegExp(`during ${c.stage}`));
      if (c.stage === "tool_exec") {
        assert.match(answer.text, /not run/);
        await assert.rejects(Deno.stat(join(t.w.ws, "ran.txt")), Deno.errors.NotFound);
      }
      // the user removes the hook; the session goes on from the answered call
      await Deno.remove(hook);
      const next = await runHs(["resume", "again"], { cwd: t.w.ws, env: t.w.env });
      assert.equal(next.code, 0, next.stderr);
      assert.equal(next.stdout, "resumed fine\n");
    } finally {
      await t.close();
    }
  });
}

/** A spawned `hs acp` spoken to in raw JSON-RPC lines. */
function rawAcp(cwd: string, env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...hsArgs(), "acp"],
    cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    send: (text: string) => writer.write(new TextEncoder().encode(text)),
    /** The next line hs wrote (undefined when stdout ended). */
    async next(): Promise<string | undefined> {
      while (!buffered.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) return undefined;
        buffered += value;
      }
      const i = buffered.indexOf("\n");
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      return line;
    },
    async close(): Promise<{ code: number; stderr: string }> {
      try {
        await writer.close();
      } catch { /* closed */ }
      while ((await lines.read()).done === false) { /* drain */ }
      const status = await child.status;
      return { code: status.code, stderr: await stderr };
    },
  };
}

Deno.test("silent end: an hs acp message over 32 MiB gets a JSON-RPC error naming the limit and hs goes on serving (issue 23, cause 10)", async () => {
  const t = await loopbackWorkspace([]);
  const acp = await rawAcp(t.w.ws, t.w.env);
  try {
    await acp.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: 1, clientCapabilities: {} },
      }) + "\n",
    );
    assert.equal(JSON.parse((await acp.next())!).id, 1);
    const pad = "x".repeat(33 * 1024 * 1024);
    const big = `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":${
      JSON.stringify(t.w.ws)
    },"mcpServers":[],"pad":"${pad}"}}\n`;
    await acp.send(big);
    const answer = await acp.next();
    assert.ok(answer, "hs acp answered (it did not end the connection)");
    const error = JSON.parse(answer);
    assert.equal(error.id, 2, "the answer is the big request's");
    assert.equal(error.error.code, -32600);
    assert.match(error.error.message, /32 MiB|33554432/);
    // it goes on serving
    await acp.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "session/new",
        params: { cwd: t.w.ws, mcpServers: [] },
      }) + "\n",
    );
    const created = JSON.parse((await acp.next())!);
    assert.equal(created.id, 3);
    assert.ok(created.result?.sessionId, JSON.stringify(created));
  } finally {
    const end = await acp.close();
    await t.close();
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, /a message of \d+ bytes was refused \(the limit is 32 MiB\)/);
  }
});

Deno.test("silent end: hs web answers a malformed Host header with 400 and a reason, and goes on (issue 23, cause 10)", async () => {
  const t = await loopbackWorkspace([]);
  const web = await startHsWeb([], { cwd: t.w.ws, env: t.w.env });
  try {
    const auth = { authorization: `Bearer ${web.token}` };
    const port = new URL(web.origin).port;
    for (const host of ["a b", "[::1", "127.0.0.1:99999999", "exa%mple", "x:y:z", "[zz]:1"]) {
      const r = await rawRequest(web.origin, "GET", "/", { host, ...auth });
      assert.equal(r.status, 400, `Host ${JSON.stringify(host)}: ${r.head}\n${r.body}`);
      assert.match(r.body, /Host/, `the reason names the header: ${r.body}`);
      assert.ok(r.body.length < 300, "a short reason");
    }
    // a well-formed foreign Host is still a 403, and this server's own is served
    const foreign = await rawRequest(web.origin, "GET", "/", { host: `evil.example:${port}` });
    assert.equal(foreign.status, 403);
    const ok = await rawRequest(web.origin, "GET", "/", { host: `127.0.0.1:${port}`, ...auth });
    assert.equal(ok.status, 200);
  } finally {
    const end = await web.stop();
    await t.close();
    assert.doesNotMatch(end.stderr, /something went wrong/);
  }
});
