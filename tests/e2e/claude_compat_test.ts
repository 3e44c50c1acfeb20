/**
 * A Claude Code project works as it is (issue 28 point 1), through `deno task hs`: the
 * fixture `tests/fixtures/claude_project` — CLAUDE.md, a skill, a command, a sub-agent,
 * hooks (a blocking PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, Stop) and
 * permission rules in `.claude/settings.json` — copied into a workspace, with a `.mcp.json`. In a trusted
 * workspace each piece visibly acts in a scripted turn; in an untrusted one none loads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { mcpServer } from "../support/mcp.ts";
import { runInPty } from "../support/pty.ts";
import {
  hsArgs,
  loopbackConf,
  loopbackWorkspace,
  makeWorkspace,
  plainBody,
  REPO,
  runHs,
  writeFile,
} from "../support/workspace.ts";

const FIXTURE = join(REPO, "tests/fixtures/claude_project");

/** Copies the fixture project into `dest` (modes kept). */
function copyFixture(dest: string, from = FIXTURE): void {
  for (const e of Deno.readDirSync(from)) {
    const src = join(from, e.name);
    const to = join(dest, e.name);
    if (e.isDirectory) {
      Deno.mkdirSync(to, { recursive: true });
      copyFixture(to, src);
    } else {
      Deno.copyFileSync(src, to);
      Deno.chmodSync(to, Deno.statSync(src).mode! & 0o777);
    }
  }
}

type Body = {
  system: string;
  messages: { role: string; content: unknown }[];
};

/** Every text the messages of a request hold (tool results included). */
function messageText(b: Body): string {
  return JSON.stringify(b.messages);
}

Deno.test("a trusted Claude Code project: CLAUDE.md, skill, hooks and deny rules act in a turn; hs doctor lists them", async () => {
  const t = await loopbackWorkspace([
    {
      toolCalls: [
        { id: "c1", name: "bash", input: { command: "rm -rf build" } },
        { id: "c2", name: "read_file", input: { path: "secret.txt" } },
        { id: "c3", name: "write_file", input: { path: "notes.txt", content: "hi\n" } },
        { id: "c4", name: "bash", input: { command: "echo allowed-by-hook" } },
        { id: "c5", name: "mcp__everything__echo", input: { message: "from .mcp.json" } },
      ],
    },
    { text: "done" },
    { text: "summary: done" }, // after the Stop hook asked for one more round
  ]);
  try {
    copyFixture(t.w.ws);
    // the project's .mcp.json, approved by hs trust like any
    await writeFile(
      join(t.w.ws, ".mcp.json"),
      JSON.stringify({ mcpServers: { everything: mcpServer("server-everything", ["stdio"]) } }),
    );
    const trust = await runHs(["trust"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(trust.code, 0, trust.stderr);
    const r = await runHs(["do the thing"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "summary: done");
    assert.equal(t.server.requests.length, 3, t.server.failures.join("\n"));
    const first = plainBody<Body>(t.server.requests[0].body);
    // CLAUDE.md joins the system prompt; the .claude skill is in the catalog
    assert.match(first.system, /CLAUDE-PROJECT-INSTRUCTIONS/);
    assert.match(first.system, /<skill name="release-notes" path="[^"]*\.claude\/skills/);
    // SessionStart and UserPromptSubmit stdout are context for the turn
    assert.match(first.system, /CLAUDE-SESSION-START/);
    assert.match(first.system, /CLAUDE-PROMPT-CONTEXT/);
    const second = messageText(plainBody<Body>(t.server.requests[1].body));
    // the PreToolUse hook blocked rm -rf (exit 2): its stderr is what the model reads
    assert.match(
      second,
      /blocked by a PreToolUse hook: rm -rf is not allowed in this project \(CLAUDE-HOOK\)/,
    );
    // the .mcp.json server's tool ran
    assert.match(second, /Echo: from \.mcp\.json/);
    // another bash call passed the same hook and ran
    assert.match(second, /allowed-by-hook/);
    // the deny rule Read(./secret.txt) narrowed the floor
    assert.match(second, /permission denied for read_file/);
    assert.doesNotMatch(second, /top secret/);
    // PostToolUse's JSON decision reached the model with the write's result
    assert.match(second, /wrote 3 bytes[^"]*\[PostToolUse hook\] CLAUDE-POST: run the formatter/);
    assert.equal(Deno.readTextFileSync(join(t.w.ws, "notes.txt")), "hi\n");
    // the Stop hook (exit 2) asked for one more round with its reason
    const third = messageText(plainBody<Body>(t.server.requests[2].body));
    assert.match(third, /CLAUDE-STOP: end with a one-line summary/);

    const doctor = await runHs(["doctor"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.match(doctor.stdout, /claude code \(CLAUDE\.md, \.claude\/\)/);
    assert.match(doctor.stdout, /instructions\s+\S*ws\/CLAUDE\.md/);
    assert.match(doctor.stdout, /skills\s+\S*ws\/\.claude\/skills/);
    assert.match(doctor.stdout, /command\s+\/greet\s/);
    assert.match(doctor.stdout, /agent\s+reviewer\s/);
    assert.match(doctor.stdout, /hook\s+PreToolUse\s+Bash\s/);
    assert.match(doctor.stdout, /rule\s+deny\s+read_file\(\S*ws\/secret\.txt\)/);
    assert.match(doctor.stdout, /Bash\(curl:\*\): an allow rule never widens hs's floor/);
  } finally {
    await t.close();
  }
});

Deno.test("an untrusted workspace: none of the Claude Code project loads, and hs doctor says why", async () => {
  const w = await makeWorkspace({ trusted: false });
  const server = await startScriptedServer([{ text: "plain answer" }]);
  try {
    // the provider lives in the user's home (an untrusted .harness would be skipped)
    await writeFile(join(w.home, "providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.home, "settings.conf"), "provider=loop\n");
    copyFixture(w.ws);
    const r = await runHs(["hello"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "plain answer");
    assert.match(
      r.stderr,
      /hs: not reading the Claude Code files of untrusted \S*ws \(trust it with: hs trust \S*ws\)/,
    );
    const body = plainBody<Body>(server.requests[0].body);
    for (const marker of ["CLAUDE-PROJECT-INSTRUCTIONS", "CLAUDE-SKILL", "CLAUDE-SESSION-START"]) {
      assert.doesNotMatch(body.system, new RegExp(marker));
    }
    assert.doesNotMatch(body.system, /CLAUDE-PROMPT-CONTEXT/);
    const doctor = await runHs(["doctor"], { cwd: w.ws, env: w.env });
    assert.match(doctor.stdout, /untrusted\s+\S*ws\s+not trusted: run hs trust/);
    assert.doesNotMatch(doctor.stdout, /command\s+\/greet/);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("a .claude/agents sub-agent runs by name through the agent tool, with its prompt and its tools only", async () => {
  const t = await loopbackWorkspace([
    {
      toolCalls: [{
        id: "a1",
        name: "agent",
        input: { bot: "reviewer", prompt: "review the diff" },
      }],
    },
    { text: "LGTM from reviewer" }, // the sub-agent's only request
    { text: "the reviewer is happy" },
    { text: "summary: reviewed" }, // the Stop hook's extra round
  ]);
  try {
    copyFixture(t.w.ws);
    const r = await runHs(["get a review"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const parent = plainBody<Body>(t.server.requests[0].body);
    // the system prompt names the agent with its description
    assert.match(parent.system, /- reviewer: Reviews a change for bugs \(marker CLAUDE-AGENT\)\./);
    const child = plainBody<Body & { tools: { name: string }[] }>(t.server.requests[1].body);
    assert.match(messageText(child), /CLAUDE-AGENT-PROMPT[\s\S]*review the diff/);
    // `tools: Read, Bash` is its ceiling (within the caller's)
    assert.deepEqual(child.tools.map((x) => x.name).sort(), ["bash", "read_file"]);
    // no session, prompt or stop hook ran for the sub-agent
    assert.doesNotMatch(child.system, /CLAUDE-PROMPT-CONTEXT|CLAUDE-SESSION-START/);
    const back = messageText(plainBody<Body>(t.server.requests[2].body));
    assert.match(back, /LGTM from reviewer/);
    assert.equal(t.server.requests.length, 4, t.server.failures.join("\n"));
  } finally {
    await t.close();
  }
});

Deno.test("a .claude/commands slash command in the REPL: /help lists it, arguments and ! lines expand through the seam", async () => {
  const t = await loopbackWorkspace([
    { text: "greeted" },
    { text: "summary: greeted" }, // the Stop hook's extra round
    { text: "pushed?" },
    { text: "summary: pushed" },
  ]);
  try {
    copyFixture(t.w.ws);
    const steps: [string, string][] = [
      ["›", "/help\r"],
      ["/greet <name> [mood]", ""],
      ["›", "/greet Ada happy\r"],
      ["summary: greeted", ""],
      ["›", "/ship\r"],
      ["summary: pushed", ""],
      ["›", "/quit\r"],
    ];
    const out = await runInPty([Deno.execPath(), ...hsArgs(), "repl"], steps, {
      cwd: t.w.ws,
      env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" },
    });
    assert.equal(out.code, 0, out.text);
    assert.match(
      out.text,
      /\/greet <name> \[mood\]\s+Greet someone by name \(marker CLAUDE-COMMAND\)/,
    );
    const greet = messageText(plainBody<Body>(t.server.requests[0].body));
    assert.match(greet, /Say hello to Ada, who feels happy\. All arguments: Ada happy\./);
    // the ! line ran as a bash call: its output replaced the line
    assert.match(greet, /The shell says:\\nshell-output-from-command\\nInline: inline-output/);
    // /ship's ! line met the deny rule Bash(git push:*) at the floor: it never ran
    const ship = messageText(plainBody<Body>(t.server.requests[2].body));
    assert.match(ship, /The push said:\\nerror: permission denied for bash/);
  } finally {
    await t.close();
  }
});

Deno.test("the trust question lists a Claude Code project's files; trusting it loads them in the same run", async () => {
  const w = await makeWorkspace({ trusted: false });
  const server = await startScriptedServer([{ text: "trusted answer" }, { text: "summary" }]);
  try {
    await writeFile(join(w.home, "providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.home, "settings.conf"), "provider=loop\n");
    copyFixture(w.ws);
    const out = await runInPty([Deno.execPath(), ...hsArgs(), "hello"], [
      ["Trust and load them? [y/N]", "y\r"],
      ["summary", ""],
    ], { cwd: w.ws, env: { ...w.env, TERM: "xterm" } });
    assert.equal(out.code, 0, out.text);
    assert.match(
      out.text,
      /ws \(Claude Code\)\s+CLAUDE\.md\s+\.claude\/settings\.json \(5 hooks\)/,
    );
    assert.match(out.text, /\.claude\/commands\/ \(2\)\s+\.claude\/agents\/ \(1\)/);
    const body = plainBody<Body>(server.requests[0].body);
    assert.match(body.system, /CLAUDE-PROJECT-INSTRUCTIONS/);
    assert.match(body.system, /CLAUDE-SESSION-START/);
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("plugins.json can turn the claude-code built-in off: the project's files are not read", async () => {
  const t = await loopbackWorkspace([{ text: "plain" }]);
  try {
    copyFixture(t.w.ws);
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "claude-code", enabled: false }] }),
    );
    const r = await runHs(["hello"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "plain"); // no Stop hook asked for another round
    const body = plainBody<Body>(t.server.requests[0].body);
    assert.doesNotMatch(body.system, /CLAUDE-PROJECT-INSTRUCTIONS|CLAUDE-SKILL|CLAUDE-SESSION/);
  } finally {
    await t.close();
  }
});
