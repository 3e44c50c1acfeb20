/**
 * The two kinds of paths, unit by unit: which paths are control paths (by
 * their resolved real path, existing or not), and the mounts that keep them
 * read-only for a sandboxed child. The end-to-end consequences are in
 * next_run_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { classifyPath, controlLayout, controlMountPlan, realPathOf } from "../../core/trust/mod.ts";
import { bwrapArgs } from "../../core/sandbox/mod.ts";
import type { EffectPolicy } from "../../core/sandbox/mod.ts";

async function tree() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hs-cp-" }));
  const ws = join(root, "ws");
  const home = join(root, "home");
  await Deno.mkdir(join(ws, ".harness/tools"), { recursive: true });
  await Deno.mkdir(join(ws, ".git/hooks"), { recursive: true });
  await Deno.writeTextFile(join(ws, ".git/HEAD"), "ref: refs/heads/main\n");
  await Deno.writeTextFile(join(ws, ".git/config"), "[core]\n");
  await Deno.mkdir(home, { recursive: true });
  return { root, ws, home, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test("control paths: rooms are the agent's, everything else of .harness is control", async () => {
  const t = await tree();
  try {
    const l = controlLayout({ workspace: t.ws, home: t.home, state: [join(t.root, "log")] });
    const kind = (p: string) => classifyPath(join(t.ws, p), l)?.kind ?? "agent";
    for (const p of [".harness/tools/x", ".harness/skills/s/SKILL.md", ".harness/prompts/p.md"]) {
      assert.equal(kind(p), "agent", p);
    }
    for (
      const p of [
        ".harness/commands/tools",
        ".harness/hooks.d/send/10-x",
        ".harness/providers/x.conf",
        ".harness/settings.conf",
        ".harness/floor.json",
        ".harness/plugins/p/x",
        ".harness/packs/p/x",
        ".harness/sessions/s/meta.json",
        ".harness/anything-new",
        ".harness",
        ".mcp.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".claude/hooks/no-rm.sh",
        ".git/hooks/pre-commit",
        ".git/config",
        ".git/info/attributes",
        ".git/modules/m/config",
      ]
    ) assert.equal(kind(p), "project", p);
    for (
      const p of [
        "AGENTS.md",
        "CLAUDE.md",
        ".claude/commands/c.md",
        ".claude/agents/a.md",
        ".claude/skills/s/SKILL.md",
        "src/a.ts",
        ".git/objects/ab/cd",
        ".git/refs/heads/x",
        ".git/index",
      ]
    ) {
      assert.equal(kind(p), "agent", p);
    }
    assert.equal(classifyPath(join(t.home, "anything"), l)?.kind, "home");
    assert.equal(classifyPath(join(t.root, "log"), l)?.kind, "home", "hs's log is state");
    // a .harness above the workspace is control too (even before it exists)
    assert.equal(classifyPath(join(t.root, ".harness/commands/x"), l)?.kind, "project");
  } finally {
    await t.cleanup();
  }
});

Deno.test("control paths: classified by the resolved path (links, dangling links, missing parents)", async () => {
  const t = await tree();
  try {
    await Deno.symlink(".harness", join(t.ws, "hh"));
    await Deno.symlink(join(t.ws, ".harness/commands/new"), join(t.ws, "dangling"));
    await Deno.symlink(t.home, join(t.ws, "hm"));
    const l = controlLayout({ workspace: t.ws, home: t.home });
    const cls = (p: string) => classifyPath(realPathOf(join(t.ws, p)), l)?.kind;
    assert.equal(
      realPathOf(join(t.ws, "hh/commands/tools")),
      join(t.ws, ".harness/commands/tools"),
    );
    assert.equal(cls("hh/commands/tools"), "project");
    assert.equal(cls("hh/tools/mine"), undefined, "a link to a room is a room");
    assert.equal(realPathOf(join(t.ws, "dangling")), join(t.ws, ".harness/commands/new"));
    assert.equal(cls("dangling"), "project");
    assert.equal(cls("hm/trust.json"), "home");
    assert.equal(cls("a/b/../../hh/providers/x"), "project");
  } finally {
    await t.cleanup();
  }
});

Deno.test("control paths: a missing or empty .git is a placeholder; a gitfile is control", async () => {
  const t = await tree();
  try {
    const sub = join(t.ws, "sub");
    await Deno.mkdir(sub);
    let l = controlLayout({ workspace: sub, home: t.home });
    assert.equal(l.gitDir, join(t.ws, ".git"), "the enclosing repository");
    assert.equal(l.missingGit, join(sub, ".git"));
    await Deno.mkdir(join(sub, ".git"));
    l = controlLayout({ workspace: sub, home: t.home });
    assert.equal(l.missingGit, join(sub, ".git"), "an empty .git stays a placeholder");
    assert.equal(l.gitDir, join(t.ws, ".git"), "git skips an empty .git");
    await Deno.remove(join(sub, ".git"));
    await Deno.writeTextFile(join(sub, ".git"), "gitdir: ../.git\n");
    l = controlLayout({ workspace: sub, home: t.home });
    assert.equal(classifyPath(join(sub, ".git"), l)?.kind, "project");
    assert.equal(l.gitDir, join(t.ws, ".git"), "the gitfile is followed");
    assert.equal(classifyPath(join(t.ws, ".git/config"), l)?.kind, "project");
  } finally {
    await t.cleanup();
  }
});

Deno.test("control mounts: .harness read-only with writable rooms, .git pinned, placeholders", async () => {
  const t = await tree();
  try {
    const l = controlLayout({ workspace: t.ws, home: t.home });
    const plan = controlMountPlan(l);
    const policy: EffectPolicy = {
      read: "all",
      write: [t.ws],
      net: [],
      run: "all",
      env: [],
      deny: { read: [], write: [], net: [], run: [], env: [] },
    };
    const a = bwrapArgs(policy, { readOnly: [], writable: [], cwd: t.ws, control: plan });
    const s = a.join(" ");
    const at = (x: string) => s.indexOf(x);
    assert.ok(s.includes(`--bind-try ${t.ws} ${t.ws}`));
    assert.ok(at(`--ro-bind ${t.ws}/.harness ${t.ws}/.harness`) > at(`--bind-try ${t.ws}`));
    assert.ok(at(`--bind ${t.ws}/.harness/tools`) > at(`--ro-bind ${t.ws}/.harness `));
    assert.ok(s.includes(`--bind ${t.ws}/.git ${t.ws}/.git`), "the git directory is pinned");
    assert.ok(at(`--ro-bind ${t.ws}/.git/config`) > at(`--bind ${t.ws}/.git `));
    assert.ok(s.includes(`--ro-bind ${t.ws}/.git/hooks`));
    assert.ok(!s.includes(t.home), "the home is outside the writable grant: nothing to bind");
    // no .git: an empty read-only placeholder
    const sub = join(t.ws, "sub");
    await Deno.mkdir(sub);
    const l2 = controlLayout({ workspace: sub, home: t.home });
    const s2 = bwrapArgs({ ...policy, write: [sub] }, {
      readOnly: [],
      writable: [],
      cwd: sub,
      control: controlMountPlan(l2),
    }).join(" ");
    assert.ok(s2.includes(`--tmpfs ${sub}/.git --remount-ro ${sub}/.git`), s2);
  } finally {
    await t.cleanup();
  }
});

Deno.test("control paths: a .harness or home that is a link is control where it points", async () => {
  const t = await tree();
  try {
    const elsewhere = join(t.root, "dotfiles-harness");
    await Deno.mkdir(join(elsewhere, "commands"), { recursive: true });
    const ws2 = join(t.root, "ws2");
    await Deno.mkdir(ws2);
    await Deno.symlink(elsewhere, join(ws2, ".harness"));
    const realHome = join(t.root, "real-home");
    await Deno.mkdir(realHome);
    const linkHome = join(t.root, "link-home");
    await Deno.symlink(realHome, linkHome);
    const l = controlLayout({ workspace: ws2, home: linkHome });
    assert.equal(classifyPath(realPathOf(join(ws2, ".harness/commands/x")), l)?.kind, "project");
    assert.equal(classifyPath(realPathOf(join(ws2, ".harness/tools/x")), l), undefined);
    assert.equal(classifyPath(join(realHome, "trust.json"), l)?.kind, "home");
  } finally {
    await t.cleanup();
  }
});
