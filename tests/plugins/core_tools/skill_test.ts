import assert from "node:assert/strict";
import type { SkillInfo } from "../../../core/mod.ts";
import { parseSkillDocument, skillTool } from "../../../plugins/core_tools/mod.ts";
import { makeCtx, run, withTempDir } from "./helpers.ts";

/** Creates `<root>/<folder>/SKILL.md` plus resource files; returns the SkillInfo. */
async function fileSkill(
  root: string,
  folder: string,
  name: string,
  body: string,
  files: string[] = [],
): Promise<SkillInfo> {
  const directory = `${root}/${folder}`;
  await Deno.mkdir(directory, { recursive: true });
  const path = `${directory}/SKILL.md`;
  await Deno.writeTextFile(path, `---\nname: ${name}\ndescription: "a test: skill"\n---\n${body}`);
  for (const f of files) {
    await Deno.mkdir(`${directory}/${f.slice(0, f.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${directory}/${f}`, "x");
  }
  return { name, description: "a test: skill", path, directory, source: root };
}

Deno.test("skill: resolves by frontmatter name, body and resources in the reference format", async () => {
  await withTempDir(async (dir) => {
    const info = await fileSkill(
      dir,
      "some-folder-name",
      "published-name",
      "\n# Title\nbody line\n\n",
      [
        "scripts/run.sh",
        "scripts/b.py",
        "scripts/.hidden",
        "references/api.md",
        "references/sub/deep.md",
        "assets/logo.png",
        "other/ignored.txt",
      ],
    );
    const ctx = makeCtx(dir, { skills: () => Promise.resolve([info]) });
    const r = await run(skillTool, { name: "published-name" }, ctx);
    assert.equal(r.isError, false);
    assert.equal(
      r.text,
      [
        '<skill name="published-name">',
        "",
        "# Title",
        "body line",
        "",
        `Skill directory: ${dir}/some-folder-name`,
        "Relative paths in this skill resolve against the skill directory.",
        "",
        "<skill-resources>",
        "  scripts/b.py",
        "  scripts/run.sh",
        "  references/api.md",
        "  references/sub/deep.md",
        "  assets/logo.png",
        "</skill-resources>",
        "</skill>",
      ].join("\n"),
    );
    // the directory name is not a skill name
    const byDir = await run(skillTool, { name: "some-folder-name" }, ctx);
    assert.equal(byDir.isError, true);
  });
});

Deno.test("skill: frontmatter name wins even when the catalog entry is named otherwise", async () => {
  await withTempDir(async (dir) => {
    const info = await fileSkill(dir, "x", "real-name", "hello\n");
    const ctx = makeCtx(dir, { skills: () => Promise.resolve([{ ...info, name: "x" }]) });
    const r = await run(skillTool, { name: "real-name" }, ctx);
    assert.match(r.text, /^<skill name="real-name">\nhello\n\nSkill directory: /);
  });
});

Deno.test("skill: runtime skills (body, no directory) and first match wins", async () => {
  await withTempDir(async (dir) => {
    const local = await fileSkill(dir, "local", "dup", "local body\n");
    const skills: SkillInfo[] = [
      { name: "inline", description: "d", path: "", body: "Do the thing.\n", source: "plugin:x" },
      local,
      { name: "dup", description: "d", path: "", body: "global body", source: "plugin:y" },
    ];
    const ctx = makeCtx(dir, { skills: () => Promise.resolve(skills) });
    let r = await run(skillTool, { name: "inline" }, ctx);
    assert.deepEqual(r, {
      text: '<skill name="inline">\nDo the thing.\n\n</skill>',
      isError: false,
    });
    r = await run(skillTool, { name: "dup" }, ctx);
    assert.match(r.text, /local body/);
  });
});

Deno.test("skill: unknown name lists the available skills; other errors", async () => {
  await withTempDir(async (dir) => {
    const skills: SkillInfo[] = [
      { name: "beta", description: "d", path: "", body: "b", source: "s" },
      { name: "alpha", description: "d", path: "", body: "a", source: "s" },
    ];
    const ctx = makeCtx(dir, { skills: () => Promise.resolve(skills) });
    let r = await run(skillTool, { name: "gamma" }, ctx);
    assert.deepEqual(r, {
      text: "error: skill 'gamma' not found (available skills: alpha, beta)",
      isError: true,
    });
    r = await run(skillTool, { name: "x" }, makeCtx(dir, { skills: () => Promise.resolve([]) }));
    assert.equal(r.text, "error: skill 'x' not found (no skills are available)");
    r = await run(skillTool, { name: "x" }, makeCtx(dir));
    assert.deepEqual(r, { text: "error: skills are not available in this session", isError: true });
    r = await run(skillTool, { name: 3 }, ctx);
    assert.deepEqual(r, { text: "error: name must be a string", isError: true });
    r = await run(skillTool, {}, ctx);
    assert.deepEqual(r, { text: "error: name is required", isError: true });
    const missing: SkillInfo = {
      name: "gone",
      description: "d",
      path: `${dir}/gone/SKILL.md`,
      source: "s",
    };
    r = await run(
      skillTool,
      { name: "gone" },
      makeCtx(dir, { skills: () => Promise.resolve([missing]) }),
    );
    assert.equal(r.isError, true);
    assert.match(r.text, /^error: cannot read skill 'gone'/);
  });
});

Deno.test("skill: parseSkillDocument", async () => {
  assert.deepEqual(
    await parseSkillDocument("---\nname: a\ndescription: 'x: y'\n---\nbody\n---\nmore"),
    {
      frontmatter: { name: "a", description: "x: y" },
      body: "body\n---\nmore",
    },
  );
  assert.deepEqual(await parseSkillDocument("no frontmatter"), {
    frontmatter: {},
    body: "no frontmatter",
  });
  assert.deepEqual(await parseSkillDocument("---\n: [bad\n---\nb"), { frontmatter: {}, body: "b" });
  assert.deepEqual(await parseSkillDocument("\uFEFF---\r\nname: w\r\n---\r\nb"), {
    frontmatter: { name: "w" },
    body: "b",
  });
});
