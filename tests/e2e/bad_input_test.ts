/**
 * End-to-end: bad input on purpose. Each case gets a clear error (what
 * failed, where, how to fix) and loses nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  loopbackConf,
  loopbackWorkspace,
  makeWorkspace,
  runHs,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

const setup = loopbackWorkspace;

Deno.test("tools whose --schema prints garbage or a mismatched name are left out and reported", async () => {
  const t = await setup([{ text: "fine" }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/tools/garbage"),
      `#!/usr/bin/env bash\necho 'this is not json'\n`,
    );
    await writeExe(
      join(t.w.ws, ".harness/tools/misnamed"),
      `#!/usr/bin/env bash\necho '{"name":"other","description":"x","input_schema":{"type":"object"}}'\n`,
    );
    const tools = await runHs(["tools"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(
      tools.stdout,
      /rejected \S+\/garbage: `--schema` printed something that is not JSON/,
    );
    assert.match(
      tools.stdout,
      /rejected \S+\/misnamed: schema name "other" does not match the file name "misnamed"/,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const sent = ((t.server.requests[0].body as { tools?: { name: string }[] }).tools ?? []).map((
      x,
    ) => x.name);
    assert.ok(!sent.includes("garbage") && !sent.includes("misnamed") && !sent.includes("other"));
  } finally {
    await t.close();
  }
});

Deno.test("a hook that prints non-JSON fails the turn with the hook named", async () => {
  const t = await setup([{ text: "never shown" }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/assemble/50-broken"),
      `#!/usr/bin/env bash\ncat >/dev/null\necho oops\n`,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /hook \S+50-broken printed something that is not a JSON object: "oops" during assemble/,
    );
    assert.match(r.stderr, /can be resumed: hs \d{8}-\d{6}-\d+/);
    assert.equal(t.server.requests.length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("a hook that hangs is killed with its process group after the timeout", async () => {
  const t = await setup([{ text: "never shown" }]);
  try {
    const marker = join(t.w.root, "grandchild-alive");
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/start/50-hang"),
      `#!/usr/bin/env bash\n(sleep 3; touch "${marker}") &\nsleep 100\n`,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: { ...t.w.env, HARNESS_HOOK_TIMEOUT: "1" } });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /hook \S+50-hang timed out after 1 s during start \(its process group was killed/,
    );
    await new Promise((res) => setTimeout(res, 3500));
    assert.equal(
      await Deno.stat(marker).then(() => true, () => false),
      false,
      "a grandchild survived",
    );
  } finally {
    await t.close();
  }
});

Deno.test("a hook that exits non-zero routes to error with its stderr", async () => {
  const t = await setup([{ text: "never shown" }]);
  try {
    await writeExe(
      join(t.w.ws, ".harness/hooks.d/send/05-quota"),
      `#!/usr/bin/env bash\necho "quota exceeded" >&2\nexit 7\n`,
    );
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /hook \S+05-quota exited 7 during send: quota exceeded/);
  } finally {
    await t.close();
  }
});

Deno.test("hs doctor reports a non-executable tool file and how to fix it", async () => {
  const w = await makeWorkspace();
  try {
    await writeFile(
      join(w.ws, ".harness/tools/forgot_chmod"),
      "#!/usr/bin/env bash\necho hi\n",
      0o644,
    );
    const r = await runHs(["doctor"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /forgot_chmod\n\s+not executable \(chmod \+x to enable\)/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("an unknown provider is a clear error", async () => {
  const w = await makeWorkspace();
  try {
    const r = await runHs(["--provider", "nope", "hi"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unknown provider "nope"/);
    assert.match(r.stderr, /hint: run `hs providers`/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("a sessions directory that is not writable is a clear error", async () => {
  const t = await setup([{ text: "x" }]);
  try {
    const file = join(t.w.root, "a-file");
    await Deno.writeTextFile(file, "");
    const r = await runHs(["hi"], {
      cwd: t.w.ws,
      env: { ...t.w.env, HARNESS_SESSIONS: join(file, "sessions") },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /cannot create the sessions directory \S+a-file\/sessions/);
    assert.match(r.stderr, /hint: set HARNESS_SESSIONS to a writable directory/);
  } finally {
    await t.close();
  }
});

Deno.test("a connection dropped mid-stream leaves the session readable and resumable", async () => {
  const t = await setup([
    {
      text: "this answer will be cut off in the middle of the stream",
      fault: { kind: "drop-mid-stream" },
    },
    { text: "second try worked" },
  ]);
  try {
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: .*(stream|connection)/i);
    const id = /hs (\d{8}-\d{6}-\d+) <message>/.exec(r.stderr)?.[1];
    assert.ok(id, r.stderr);
    const show = await runHs(["session", "show", id], { cwd: t.w.ws, env: t.w.env });
    assert.equal(show.code, 0, show.stderr);
    const again = await runHs([id, "try again"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, "second try worked\n");
    const body = t.server.requests.at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    assert.deepEqual(body.messages.map((m) => m.role), ["user", "user"]);
  } finally {
    await t.close();
  }
});

Deno.test("an untrusted workspace's executables are skipped with a notice until trusted", async () => {
  const t = await setup([
    { toolCalls: [{ id: "toolu_u", name: "local_tool", input: {} }] },
    { text: "done" },
    { toolCalls: [{ id: "toolu_v", name: "local_tool", input: {} }] },
    { text: "done again" },
  ], { trusted: false });
  try {
    await writeExe(
      join(t.w.ws, ".harness/tools/local_tool"),
      `#!/usr/bin/env bash\ncase "$1" in --schema) echo '{"name":"local_tool","description":"d","input_schema":{"type":"object"}}';; --exec) echo LOCAL-RAN;; esac\n`,
    );
    // the provider .conf lives in the untrusted workspace too: use a home conf instead
    await writeFile(join(t.w.home, "providers/loop.conf"), loopbackConf(t.server.url));
    await writeFile(join(t.w.home, "settings.conf"), "provider=loop\n");
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /skipping untrusted \S+\/ws\/\.harness \(trust it with: hs trust \S+\/ws\)/,
    );
    const sent = ((t.server.requests[0].body as { tools?: { name: string }[] }).tools ?? []).map((
      x,
    ) => x.name);
    assert.ok(!sent.includes("local_tool"));

    const trust = await runHs(["trust"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(trust.code, 0, trust.stderr);
    assert.match(trust.stdout, /trusted \S+\/ws/);
    const r2 = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r2.code, 0, r2.stderr);
    assert.doesNotMatch(r2.stderr, /untrusted/);
    const sent2 = ((t.server.requests[2].body as { tools?: { name: string }[] }).tools ?? []).map((
      x,
    ) => x.name);
    assert.ok(sent2.includes("local_tool"));
  } finally {
    await t.close();
  }
});

Deno.test("hs hooks lists stages and rejects an unknown one", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(join(w.ws, ".harness/hooks.d/receive/20-obs"), "#!/bin/sh\ncat\n");
    const r = await runHs(["hooks", "receive"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /10-save\s+built-in/);
    assert.match(r.stdout, /20-obs\s+\S+20-obs/);
    const bad = await runHs(["hooks", "nosuchstage"], { cwd: w.ws, env: w.env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unknown stage "nosuchstage"/);
  } finally {
    await w.cleanup();
  }
});
