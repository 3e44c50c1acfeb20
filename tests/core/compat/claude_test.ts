/**
 * The Claude Code layout, unit by unit: permission rules as hs rules, hook matchers,
 * command arguments, and what the layout reads (trusted only, each CLAUDE.md once).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ClaudeCompat,
  expandArguments,
  matches,
  parseSettings,
  splitArguments,
  translateRule,
} from "../../../core/compat/mod.ts";

Deno.test("permission rules: Claude Code's syntax as hs rules; what hs cannot read says why", () => {
  const p = "/p";
  assert.deepEqual(translateRule("Bash", p), ["bash"]);
  assert.deepEqual(translateRule("Bash(npm run test:*)", p), ["bash(npm run test *)"]);
  assert.deepEqual(translateRule("Bash(git push)", p), ["bash(git push)"]);
  assert.deepEqual(translateRule("Read(./.env)", p), ["read_file(/p/.env)"]);
  assert.deepEqual(translateRule("Read(/src/**)", p), ["read_file(/p/src/**)"]);
  assert.deepEqual(translateRule("Read(//etc/**)", p), ["read_file(/etc/**)"]);
  assert.deepEqual(translateRule("Read(~/.ssh/**)", p), ["read_file(~/.ssh/**)"]);
  assert.deepEqual(translateRule("Edit(docs/**)", p), [
    "edit_file(/p/docs/**)",
    "write_file(/p/docs/**)",
  ]);
  assert.deepEqual(translateRule("mcp__github", p), ["mcp__github__*"]);
  assert.deepEqual(translateRule("mcp__github__create_issue", p), ["mcp__github__create_issue"]);
  assert.match(String(translateRule("WebFetch(domain:example.com)", p)), /no tool like WebFetch/);
});

Deno.test("hook matchers: empty and * match all, a name exactly, else a regular expression", () => {
  assert.equal(matches("", "Bash"), true);
  assert.equal(matches("*", "Read"), true);
  assert.equal(matches("Bash", "Bash"), true);
  assert.equal(matches("Bash", "BashOutput"), false);
  assert.equal(matches("Edit|Write", "Write"), true);
  assert.equal(matches("Edit|Write", "Read"), false);
  assert.equal(matches("mcp__memory__.*", "mcp__memory__store"), true);
});

Deno.test("settings: command hooks per event; other events and types are reported, not run", () => {
  const s = parseSettings(
    "/p/.claude/settings.json",
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x", timeout: 5 }] }],
        Notification: [{ hooks: [{ type: "command", command: "y" }] }],
        Stop: [{ hooks: [{ type: "prompt", prompt: "z" }] }],
      },
      permissions: { deny: ["Bash(rm:*)"] },
    }),
  );
  assert.deepEqual(s.hooks.map((h) => [h.event, h.matcher, h.command, h.timeout, h.projectDir]), [
    ["PreToolUse", "Bash", "x", 5, "/p"],
  ]);
  assert.equal(s.problems.length, 2);
  assert.deepEqual(s.permissions.deny, ["Bash(rm:*)"]);
  assert.deepEqual(parseSettings("/f", "{").problems, ["not valid JSON"]);
});

Deno.test("command arguments: $ARGUMENTS, $1… with quotes grouping", () => {
  assert.deepEqual(splitArguments(`a "b c" 'd'`), ["a", "b c", "d"]);
  assert.equal(expandArguments("$1/$2/$3 [$ARGUMENTS]", `x "y z"`), `x/y z/ [x "y z"]`);
});

Deno.test("the layout: trusted projects only, CLAUDE.md once when it links to AGENTS.md", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hs-claude-" }));
  try {
    const ws = join(root, "ws");
    await Deno.mkdir(join(ws, ".claude/skills"), { recursive: true });
    await Deno.mkdir(join(ws, ".harness")); // AGENTS.md is read beside it
    await Deno.writeTextFile(join(ws, "AGENTS.md"), "shared\n");
    await Deno.symlink("AGENTS.md", join(ws, "CLAUDE.md"));
    await Deno.writeTextFile(join(ws, ".claude/CLAUDE.md"), "inner\n");
    const home = join(root, "home");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.writeTextFile(join(home, ".claude/CLAUDE.md"), "global\n");
    const trusted = new ClaudeCompat({ cwd: ws, userHome: home, isTrusted: () => true });
    assert.deepEqual(trusted.layout.current().instructions, [
      join(home, ".claude/CLAUDE.md"),
      join(ws, ".claude/CLAUDE.md"),
    ]);
    assert.equal(trusted.instructions(), "global\n\ninner");
    assert.deepEqual(trusted.layout.current().skillRoots, [join(ws, ".claude/skills")]);
    const untrusted = new ClaudeCompat({ cwd: ws, userHome: home, isTrusted: () => false });
    assert.deepEqual(untrusted.layout.current().untrusted, [ws]);
    assert.deepEqual(untrusted.layout.current().skillRoots, []);
    assert.equal(untrusted.instructions(), "global");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agents: tools in Claude Code names become hs names; inherit and aliases keep the caller's model", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hs-claude-" }));
  try {
    const dir = join(root, "ws/.claude/agents");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      join(dir, "a.md"),
      "---\nname: alpha\ndescription: d\ntools: Read, Edit, Bash\nmodel: sonnet\n---\nbody\n",
    );
    await Deno.writeTextFile(join(dir, "b.md"), "---\ndescription: e\nmodel: my-model\n---\nB\n");
    const c = new ClaudeCompat({ cwd: join(root, "ws"), userHome: root, isTrusted: () => true });
    await c.plugin().setup({
      prompts: { register() {} },
      hooks: { register() {} },
      pages: { register() {} },
      onDispose() {},
    } as never);
    const [a, b] = c.agents();
    assert.deepEqual([a.name, a.tools, a.model, a.prompt], [
      "alpha",
      ["read_file", "edit_file", "bash"],
      undefined,
      "body",
    ]);
    assert.deepEqual([b.name, b.tools, b.model], ["b", undefined, "my-model"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
