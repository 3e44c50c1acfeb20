/**
 * Issue 25, "Load only what a command uses": what `hs` loads is what the command runs.
 * - main.ts names its rooms through variables and `require("…" as string)`, so Deno's module
 *   graph of main.ts is main.ts alone (a literal `require("…")` is a dependency to Deno's graph,
 *   and every room it names was loaded at start: 444 modules for `hs version`).
 * - the plain turn (`hs <words…>`, `hs agent <words…>`) runs without commander, whose CommonJS
 *   build and Node layer cost ~50 ms a process: shown with commander replaced by a module that
 *   throws when it loads.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { configWith, runMainWith } from "../support/config_with.ts";
import { loopbackConf, makeWorkspace, writeFile } from "../support/workspace.ts";

const REPO = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

interface Graph {
  roots: string[];
  modules: { specifier: string; dependencies?: { code?: { specifier?: string } }[] }[];
}

/** The modules Deno loads with `root` (code dependencies, static imports and literal `import()`/`require()`). */
async function loadedWith(root: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(REPO, "deno.json"), join(REPO, root)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const g = JSON.parse(new TextDecoder().decode(out.stdout)) as Graph;
  const deps = new Map(
    g.modules.map((
      m,
    ) => [m.specifier, (m.dependencies ?? []).flatMap((d) => d.code?.specifier ?? [])]),
  );
  const seen = new Set<string>([g.roots[0]]);
  const todo = [g.roots[0]];
  while (todo.length) {
    for (const d of deps.get(todo.pop()!) ?? []) {
      if (!seen.has(d)) seen.add(d), todo.push(d);
    }
  }
  return [...seen].map((s) => s.replace(`file://${REPO}/`, ""));
}

Deno.test("main.ts loads no room at start: each command's modules load when it runs", async () => {
  assert.deepEqual(await loadedWith("main.ts"), ["main.ts"]);
});

Deno.test("the CLI's late rooms (the commands, hs web, the harness) are not in its start graph", async () => {
  const mods = await loadedWith("cli/mod.ts");
  for (const late of ["cli/commands/", "cli/web/", "cli/harness/", "cli/external/"]) {
    assert.ok(!mods.some((m) => m.startsWith(late)), `${late} is loaded with cli/mod.ts`);
  }
  const view = await loadedWith("core/session/sessions_view.ts");
  assert.ok(!view.some((m) => m.includes("archive")), "the session archives load with the view");
});

Deno.test("the harness's graph holds no Scheme: the packs' runtime loads when a pack first needs it", async () => {
  // plugins/mod.ts is the room main.ts loads for every harness (`hs tools`, a turn …)
  const mods = await loadedWith("plugins/mod.ts");
  assert.ok(mods.includes("plugins/harness.ts"));
  for (const late of ["stdlib-harness/", "scheme/"]) {
    const found = mods.filter((m) => m.startsWith(late));
    assert.deepEqual(found, [], `${late} is in the harness's graph`);
  }
});

Deno.test("a plain turn and the plain listings run without commander; a flag or --help brings it in", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([
    { toolCalls: [{ id: "t1", name: "read_file", input: { path: "notes.txt" } }] },
    { text: "read it" },
    { text: "second" },
  ]);
  try {
    await writeFile(join(w.ws, "notes.txt"), "hello\n");
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    // the repository's configuration with commander replaced by a module that throws
    const poison = join(w.root, "poison.ts");
    await Deno.writeTextFile(poison, 'throw new Error("commander was loaded");\n');
    const config = await configWith(w.root, { "@commander-js/extra-typings": `file://${poison}` });
    const hs = (...args: string[]) => runMainWith(config, w, args);
    const plain = await hs("read", "the", "notes");
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, "read it\n");
    assert.equal(server.requests.length, 2);
    const agent = await hs("agent", "again");
    assert.equal(agent.code, 0, agent.stderr);
    assert.equal(agent.stdout, "second\n");
    // the listings' plain forms too
    const tools = await hs("tools");
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /read_file/);
    const plugins = await hs("plugins", "--json", "--trust-workspace");
    assert.equal(plugins.code, 0, plugins.stderr);
    assert.ok(Array.isArray(JSON.parse(plugins.stdout)));
    const skills = await hs("skills");
    assert.equal(skills.code, 0, skills.stderr);
    // the same turn with a flag is parsed by commander, as is a listing's help, a repeated flag
    // or an unknown one: the poison shows the test can fail
    for (
      const args of [
        ["--provider", "loop", "once more"],
        ["tools", "--help"],
        ["plugins", "--json", "--json"],
        ["skills", "--jsn"],
      ]
    ) {
      const r = await hs(...args);
      assert.notEqual(r.code, 0, args.join(" "));
      assert.match(r.stderr, /commander was loaded/, args.join(" "));
    }
  } finally {
    await server.close();
    await w.cleanup();
  }
});
