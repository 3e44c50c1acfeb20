/**
 * Support of the fault-injection suite: workspaces whose `loop` provider is a
 * hostile server (short timeouts through the `.conf` and HARNESS_* settings),
 * the session of a run, and the checks every fault ends with — the session
 * is intact on disk, and it resumes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ConversationMessage, Session } from "../../core/mod.ts";
import {
  type CliRun,
  makeWorkspace,
  runHs,
  sessionsOf,
  type Workspace,
  writeFile,
} from "../support/workspace.ts";
import { type Behaviour, type HostileServer, type Protocol, startHostile } from "./_hostile.ts";

/** Short clocks for the suite (a `.conf`'s first occurrence of a key wins: extras go first). */
export const FAST_CONF = "timeout=3\nfirst_token_timeout=0.5\ndeadline=5\nmax_attempts=3\n" +
  "max_response_bytes=1M\n";

/** A workspace whose `loop` provider is a hostile server. */
export interface FaultWorkspace {
  w: Workspace;
  server: HostileServer;
  env: Record<string, string>;
  /** Runs `hs` through `deno task hs` in the workspace. */
  hs(args: string[], opts?: { env?: Record<string, string>; stdin?: string }): Promise<CliRun>;
  close(): Promise<void>;
}

/** Starts a hostile server and a workspace pointing `loop.conf` at it. */
export async function hostileWorkspace(
  behaviours: Behaviour[],
  opts: { protocol?: Protocol; conf?: string; env?: Record<string, string> } = {},
): Promise<FaultWorkspace> {
  const protocol = opts.protocol ?? "anthropic";
  const w = await makeWorkspace();
  const server = startHostile(behaviours);
  const path = protocol === "anthropic" ? "/v1/messages" : "/v1/chat/completions";
  await writeFile(
    join(w.ws, ".harness/providers/loop.conf"),
    `protocol=${protocol}\nurl=${server.url}${path}\nmodel=hostile-1\n${
      opts.conf ?? ""
    }${FAST_CONF}`,
  );
  await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
  const env = { ...w.env, HARNESS_RETRY_BASE_MS: "5", ...opts.env };
  return {
    w,
    server,
    env,
    hs: (args, o = {}) => runHs(args, { cwd: w.ws, env: { ...env, ...o.env }, stdin: o.stdin }),
    async close() {
      await server.close();
      await w.cleanup();
    },
  };
}

/** The session directory of a run (from `session: <dir>`), or the only session there is. */
export function sessionDirOf(t: { w: Workspace }, r?: CliRun): string {
  const m = r && /session: (\S+)/.exec(r.stderr);
  if (m) return m[1];
  const dir = sessionsOf(t.w);
  const ids = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.equal(ids.length, 1, `one session expected in ${dir}: ${ids.join(", ")}`);
  return join(dir, ids[0]);
}

/**
 * The session is intact: every message file is whole and parses, numbers are
 * unique and increasing, no temp file is left, and every tool call but those
 * of the last assistant message has a result.
 */
export function assertSessionIntact(dir: string): ConversationMessage[] {
  const names = [...Deno.readDirSync(join(dir, "messages"))].map((e) => e.name).sort();
  for (const n of names) {
    assert.match(n, /^\d{4}-(user|assistant|tool_result)\.md$/, `unexpected file ${n}`);
    const text = Deno.readTextFileSync(join(dir, "messages", n));
    assert.match(text, /^---\nrole: \w+\nseq: \d{4}\n/, `${n} starts with its frontmatter`);
    assert.ok(text.endsWith("\n"), `${n} is complete`);
  }
  const msgs = Session.open(dir).messages();
  assert.equal(msgs.length, names.length, "every file parses");
  const seqs = msgs.map((m) => m.seq);
  assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), "numbers unique and ordered");
  const lastAssistant = msgs.findLastIndex((m) => m.role === "assistant");
  const answered = new Set(msgs.flatMap((m) => (m.role === "tool_result" ? [m.callId] : [])));
  msgs.forEach((m, i) => {
    if (m.role !== "assistant" || i === lastAssistant) return;
    for (const b of m.blocks) {
      if (b.type === "tool_call") assert.ok(answered.has(b.id), `call ${b.id} has a result`);
    }
  });
  return msgs;
}

/** Resumes the session with a message; the server's next behaviour must answer "resumed fine". */
export async function assertResumes(t: FaultWorkspace, dir: string): Promise<void> {
  const id = dir.split("/").pop()!;
  const before = t.server.requests.length;
  const r = await t.hs([id, "and", "now?"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "resumed fine\n");
  assert.equal(t.server.requests.length, before + 1);
  const body = t.server.requests.at(-1)!.body as { messages: { role: string }[] };
  assert.equal(body.messages.at(-1)?.role, "user");
  assertSessionIntact(dir);
}
