/**
 * End-to-end: provider failures through the real CLI against the loopback
 * server — retried 429, 500s until giving up, a cut stream, a malformed data
 * line, an in-stream error event, a 401 — and after each the session is
 * resumable. Ctrl-C during a slow stream aborts at once and exits 130.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedServer, ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  type CliRun,
  loopbackWorkspace,
  plainBody,
  REPO,
  runHs,
  sessionsOf,
  type Workspace,
} from "../support/workspace.ts";

interface Setup {
  w: Workspace;
  server: ScriptedServer;
  env: Record<string, string>;
  close(): Promise<void>;
}

async function setup(script: ScriptedTurn[], confExtra = ""): Promise<Setup> {
  const t = await loopbackWorkspace(script, { confExtra });
  return { ...t, env: { ...t.w.env, HARNESS_RETRY_BASE_MS: "5" } };
}

/** The session id of a run: from the resume hint (failures) or the `session:` line. */
function sessionIdOf(r: CliRun): string {
  const id = /hs (\d{8}-\d{6}-\d+) <message>/.exec(r.stderr)?.[1] ??
    /session: \S+\/(\d{8}-\d{6}-\d+)/.exec(r.stderr)?.[1];
  assert.ok(id, `no session id in: ${r.stderr}`);
  return id;
}

/** Resumes the session and checks that the request carries the earlier user message. */
async function assertResumable(t: Setup, r: CliRun, earlier: string): Promise<void> {
  const id = sessionIdOf(r);
  const before = t.server.requests.length;
  const again = await runHs([id, "and", "now?"], { cwd: t.w.ws, env: t.env });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "resumed fine\n");
  assert.equal(t.server.requests.length, before + 1);
  const body = plainBody<{ messages: { role: string; content: unknown }[] }>(
    t.server.requests.at(-1)!.body,
  );
  assert.deepEqual(body.messages[0], { role: "user", content: earlier });
  assert.deepEqual(body.messages.at(-1), { role: "user", content: "and now?" });
  const dir = join(sessionsOf(t.w), id);
  const files = [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name).sort();
  assert.equal(files[0], "0001-user.md");
  assert.equal(files.at(-1)!.endsWith("-assistant.md"), true, files.join(","));
  const show = await runHs(["session", "show", id], { cwd: t.w.ws, env: t.env });
  assert.equal(show.code, 0, show.stderr);
}

const RESUMED: ScriptedTurn = { text: "resumed fine" };

interface FailureCase {
  name: string;
  script: ScriptedTurn[];
  conf?: string;
  code: number;
  stderr: RegExp[];
  requests: number;
}

const CASES: FailureCase[] = [
  {
    name: "429 with retry-after is retried (shown on stderr), then succeeds",
    script: [
      { fault: { kind: "status", status: 429, retryAfter: "1" } },
      { text: "after the retry" },
      RESUMED,
    ],
    code: 0,
    stderr: [/hs: retrying \(HTTP 429: [^)]*\) in 1 s/],
    requests: 2,
  },
  {
    name: "500 three times is a clear error after the last attempt",
    script: [{ fault: { kind: "status", status: 500 }, repeat: 3 }, RESUMED],
    conf: "max_attempts=3\n",
    code: 1,
    stderr: [
      /hs: retrying \(HTTP 500/,
      /hs: error: loop: HTTP 500: .* \(gave up after 3 attempts\)/,
    ],
    requests: 3,
  },
  {
    name: "a connection closed mid-stream",
    script: [
      { text: "this answer is cut in the middle", fault: { kind: "drop-mid-stream" } },
      RESUMED,
    ],
    code: 1,
    stderr: [/hs: error: loop: stream ended before completion/],
    requests: 1,
  },
  {
    name: "malformed JSON in a data line",
    script: [{ text: "this answer has a bad line", fault: { kind: "malformed-json" } }, RESUMED],
    code: 1,
    stderr: [/hs: error: loop: .*(JSON|json)/],
    requests: 1,
  },
  {
    name: "an error event mid-stream",
    script: [{ text: "this answer meets an error", fault: { kind: "error-event" } }, RESUMED],
    code: 1,
    stderr: [/hs: error: loop: stream ended before completion: server error: /],
    requests: 1,
  },
  {
    name: "a 401 names hs auth set <name>",
    script: [
      {
        fault: {
          kind: "status",
          status: 401,
          body:
            '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
      },
      RESUMED,
    ],
    code: 1,
    stderr: [/authentication failed \(HTTP 401\): .*invalid x-api-key — run: hs auth set loop/],
    requests: 1,
  },
];

for (const c of CASES) {
  Deno.test(`provider failure through hs: ${c.name}; the session stays resumable`, async () => {
    const t = await setup(c.script, c.conf);
    try {
      const r = await runHs(["first", "question"], { cwd: t.w.ws, env: t.env });
      assert.equal(r.code, c.code, r.stderr);
      for (const re of c.stderr) assert.match(r.stderr, re);
      assert.equal(t.server.requests.length, c.requests);
      if (c.code !== 0) {
        assert.match(r.stderr, /hint: the session is kept and can be resumed: hs \S+ <message>/);
        assert.equal(r.stdout, "");
      } else assert.equal(r.stdout, "after the retry\n");
      await assertResumable(t, r, "first question");
    } finally {
      await t.close();
    }
  });
}

Deno.test("Ctrl-C during a slow stream aborts the request at once, exits 130, the session stays consistent", async () => {
  const long = "slow ".repeat(200);
  const t = await setup([{ text: long, chunkSize: 2, delayMs: 50 }, RESUMED]);
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(REPO, "main.ts"), "first", "question"],
      cwd: t.w.ws,
      env: t.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const out = new Response(child.stdout).text();
    const err = new Response(child.stderr).text();
    const deadline = Date.now() + 30_000;
    while (t.server.requests.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(t.server.requests.length, 1, "hs never sent its request");
    await new Promise((r) => setTimeout(r, 400)); // mid-stream (the whole answer takes ~25 s)
    const sent = performance.now();
    child.kill("SIGINT");
    const status = await child.status;
    const elapsed = performance.now() - sent;
    const [stdout, stderr] = await Promise.all([out, err]);
    assert.equal(status.code, 130, stderr);
    assert.ok(elapsed < 3000, `hs took ${Math.round(elapsed)} ms to stop`);
    assert.match(stderr, /cancelling…/);
    assert.match(stderr, /hs: cancelled; the session is kept: /);
    assert.equal(stdout, "");
    const id = /session: \S+\/(\d{8}-\d{6}-\d+)/.exec(stderr)?.[1];
    assert.ok(id, stderr);
    const dir = join(sessionsOf(t.w), id);
    assert.deepEqual([...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name), [
      "0001-user.md",
    ]);
    const stream = Deno.readTextFileSync(join(dir, ".stream")).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.equal(stream.at(-1).type, "done");
    assert.ok(stream.some((e) => e.type === "text"), "the stream had started");
    await assertResumable(t, { code: 130, stdout, stderr }, "first question");
  } finally {
    await t.close();
  }
});
