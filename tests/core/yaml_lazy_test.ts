/**
 * `yaml` loads when a file with a YAML frontmatter is read, not when the harness starts
 * (issue 25: "load only what a command uses"; its CommonJS build costs ~60 ms CPU): a
 * harness in a workspace without skills, packs or `.claude/` files never loads it, and one
 * with a SKILL.md lists that skill on the first listing (the reader is awaited at creation).
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const REPO = new URL("../../", import.meta.url).pathname;

/** Creates a harness in `ws` in a fresh Deno process; what it printed. */
async function probe(ws: string, home: string): Promise<{ loaded: boolean; skills: string[] }> {
  const script = join(ws, "..", "probe.ts");
  await Deno.writeTextFile(
    script,
    `import { Harness } from "${REPO}plugins/mod.ts";
import { yamlLoaded } from "${REPO}core/mod.ts";
const h = await Harness.create({ cwd: ${JSON.stringify(ws)}, trustWorkspace: true });
try {
  const skills = h.frontEnd.catalog.skills().skills.map((s) => s.name);
  console.log(JSON.stringify({ loaded: yamlLoaded(), skills }));
} finally {
  await h.close();
}
`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--config", join(REPO, "deno.json"), script],
    cwd: ws,
    env: {
      HARNESS_HOME: home,
      HOME: home,
      NO_COLOR: "1",
      DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim().split("\n").pop() ?? "";
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(text);
}

Deno.test("a harness without frontmatter files never loads yaml; a SKILL.md is listed at once", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-yaml-" });
  try {
    const ws = join(root, "ws");
    const home = join(root, "home");
    await Deno.mkdir(join(ws, ".harness"), { recursive: true });
    await Deno.mkdir(home, { recursive: true });
    assert.deepEqual(await probe(ws, home), { loaded: false, skills: [] });

    await Deno.mkdir(join(ws, ".harness", "skills", "greet"), { recursive: true });
    await Deno.writeTextFile(
      join(ws, ".harness", "skills", "greet", "SKILL.md"),
      "---\nname: greet\ndescription: 'says: hello'\n---\nSay hello.\n",
    );
    assert.deepEqual(await probe(ws, home), { loaded: true, skills: ["greet"] });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
