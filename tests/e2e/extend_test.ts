/**
 * End-to-end: skills and self-extension, and the offline demo.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  floorTestEnv,
  loopbackWorkspace,
  plainBody,
  REPO,
  runHs,
  writeFile,
} from "../support/workspace.ts";

const setup = loopbackWorkspace;

Deno.test("a skill is listed in the system prompt and loaded through the skill tool by frontmatter name", async () => {
  const t = await setup([
    { toolCalls: [{ id: "toolu_s", name: "skill", input: { name: "release-notes" } }] },
    { text: "loaded" },
  ]);
  try {
    // directory name differs from the frontmatter name on purpose
    await writeFile(
      join(t.w.ws, ".harness/skills/rn-dir/SKILL.md"),
      "---\nname: release-notes\ndescription: Use when writing release notes for a tag.\n---\n# Release notes\nList user-visible changes first.\n",
    );
    await writeFile(
      join(t.w.ws, ".harness/skills/rn-dir/scripts/collect.sh"),
      "#!/bin/sh\ngit log\n",
    );
    const r = await runHs(["write", "notes"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const system = plainBody<{ system: string }>(t.server.requests[0].body).system;
    assert.match(
      system,
      new RegExp(
        `<available-skills>\\n  <skill name="release-notes" path="${t.w.ws}/\\.harness/skills/rn-dir/SKILL\\.md">\\n    Use when writing release notes for a tag\\.\\n  </skill>\\n</available-skills>`,
      ),
    );
    assert.doesNotMatch(
      system,
      /List user-visible changes first/,
      "only the catalog is in the prompt",
    );
    const second = t.server.requests[1].body as { messages: { content: { content: string }[] }[] };
    const result = second.messages.at(-1)!.content[0].content;
    assert.match(
      result,
      /<skill name="release-notes">[\s\S]*List user-visible changes first\.[\s\S]*<\/skill>/,
    );
    assert.match(result, /scripts\/collect\.sh/);
  } finally {
    await t.close();
  }
});

Deno.test("a tool written during a session is callable in the next round", async () => {
  const script = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"fresh_tool","description":"made by the agent","input_schema":{"type":"object"}}' ;;
  --describe) echo "made by the agent" ;;
  --exec) echo "fresh tool works" ;;
esac
`;
  const t = await setup([
    {
      toolCalls: [{
        id: "toolu_w",
        name: "write_file",
        input: { path: ".harness/tools/fresh_tool", content: script },
      }],
    },
    {
      toolCalls: [{
        id: "toolu_c",
        name: "bash",
        input: { command: "chmod +x .harness/tools/fresh_tool" },
      }],
    },
    { toolCalls: [{ id: "toolu_f", name: "fresh_tool", input: {} }] },
    { text: "it works" },
  ]);
  try {
    const r = await runHs(["extend", "yourself"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "it works\n");
    const before = (t.server.requests[1].body as { tools: { name: string }[] }).tools.map((x) =>
      x.name
    );
    assert.ok(!before.includes("fresh_tool"), "not executable yet");
    const after = (t.server.requests[2].body as { tools: { name: string }[] }).tools.map((x) =>
      x.name
    );
    assert.ok(after.includes("fresh_tool"), "discovered after chmod");
    const last = t.server.requests[3].body as {
      messages: { content: { content: string; is_error?: boolean }[] }[];
    };
    const block = last.messages.at(-1)!.content[0];
    assert.equal(block.content, "fresh tool works");
    assert.equal(block.is_error, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("the offline demo prints a full tool-using turn and where the session was written", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "demo/run.ts")],
    env: { HS_DEMO_FAST: "1", NO_COLOR: "1", ...floorTestEnv() },
    stdout: "piped",
    stderr: "piped",
  });
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(stdout, /● skill \{"name":"concise-report"\}/);
  assert.match(
    stdout,
    /● word_count notes\.txt\n\s+✓ notes\.txt: 2 lines, 31 words, 184 characters/,
  );
  assert.match(stdout, /● bash rm -rf build\/\n\s+✗ blocked by the workspace gate 05-guard/);
  assert.match(stdout, /session written to (\S+)/);
  const dir = /session written to (\S+)/.exec(stdout)![1];
  try {
    const usage = await Deno.readTextFile(join(dir, "usage.log"));
    assert.equal(usage.trim().split("\n").length, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
