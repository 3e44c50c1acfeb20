/**
 * Items 4 and 9: the `sources` stage runs — user-level hooks always, a trusted project's
 * too — and its list replaces the walk's; `HARNESS_SOURCES` starts with a generated,
 * read-only directory of the built-ins (tool schemas, base prompt), so the reference's
 * `assemble/20-tools` and `30-prompts` keep hs's built-in tools and prompt.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, plainBody, runHs, writeFile } from "../support/workspace.ts";
import {
  ADD_SOURCE_HOOK,
  install,
  RECORD_SOURCES_HOOK,
  WALK_PROMPTS_HOOK,
  WALK_TOOLS_HOOK,
} from "./kit.ts";

const TEAM_TOOL = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"team_tool","description":"the team tool","input_schema":{"type":"object"}}' ;;
  --exec) cat >/dev/null; echo "team tool ran" ;;
esac
`;

Deno.test("sources hooks (user and trusted project) list sources; reference assemble hooks keep the built-ins", async () => {
  const t = await loopbackWorkspace([
    { text: "Team.", toolCalls: [{ id: "c1", name: "team_tool", input: {} }] },
    { text: "Read.", toolCalls: [{ id: "c2", name: "read_file", input: { path: "notes.txt" } }] },
    { text: "done" },
  ]);
  try {
    const { w } = t;
    const team = join(w.home, "team-tools");
    const vendor = join(w.ws, "vendor", "harness");
    const record = join(w.ws, "sources-seen.jsonl");
    await install(w.home, {
      "hooks.d/sources/35-record": RECORD_SOURCES_HOOK(record),
      "hooks.d/sources/36-team": ADD_SOURCE_HOOK(team),
    });
    await install(team, { "tools/team_tool": TEAM_TOOL });
    await install(join(w.ws, ".harness"), {
      "hooks.d/sources/37-vendor": ADD_SOURCE_HOOK(vendor),
      "hooks.d/assemble/20-tools": WALK_TOOLS_HOOK,
      "hooks.d/assemble/30-prompts": WALK_PROMPTS_HOOK,
    });
    await writeFile(join(vendor, "prompts", "vendor.md"), "VENDOR PROMPT\n");
    await writeFile(join(w.ws, "notes.txt"), "the notes\n");

    const r = await runHs(["--json", "work"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).output, "done");
    const first = plainBody<{ tools: { name: string }[]; system: string }>(
      t.server.requests[0].body,
    );
    const names = first.tools.map((x) => x.name);
    for (const n of ["team_tool", "read_file", "bash", "write_file", "edit_file"]) {
      assert.ok(names.includes(n), `${n} in ${names}`);
    }
    assert.match(first.system, /You are an autonomous coding agent/, "the built-in prompt");
    assert.match(first.system, /VENDOR PROMPT/, "a prompt of the project hook's source");
    // the listed tool ran, and a built-in tool ran inside hs (not its descriptive stub)
    const results = t.server.requests.slice(1).map((q) =>
      JSON.stringify((q.body as { messages: unknown[] }).messages.at(-1))
    );
    assert.match(results[0], /team tool ran/);
    assert.match(results[1], /the notes/);

    // what the hooks saw: {"sources": [<built-ins>, home, …, ws/.harness]}, built-ins first
    const seen = JSON.parse(Deno.readTextFileSync(record).trim().split("\n")[0]);
    const builtin = seen.sources[0] as string;
    assert.match(builtin, /\/\.cache\/builtin-[0-9a-f]{16}$/);
    assert.ok(seen.sources.includes(join(w.ws, ".harness")));
    assert.equal(seen.sources.includes(team), false, "36-team runs after 35-record");
    const stub = join(builtin, "tools", "read_file");
    assert.equal(Deno.statSync(stub).mode! & 0o222, 0, "read-only");
    const schema = new Deno.Command(stub, { args: ["--schema"] }).outputSync();
    assert.equal(JSON.parse(new TextDecoder().decode(schema.stdout)).name, "read_file");

    // hs doctor shows the listed source; hs hooks lists the stage with its built-in
    const doctor = await runHs(["doctor"], { cwd: w.ws, env: w.env });
    assert.match(doctor.stdout, new RegExp(`listed +${team}`));
    const hooks = await runHs(["hooks", "sources"], { cwd: w.ws, env: w.env });
    assert.match(hooks.stdout, /30-walk-dirs +built-in/);
    assert.match(hooks.stdout, /37-vendor/);
  } finally {
    await t.close();
  }
});

Deno.test("an untrusted project's sources hooks do not run; the user's do", async () => {
  const t = await loopbackWorkspace([], { trusted: false });
  try {
    const { w } = t;
    const team = join(w.home, "team-tools");
    const marker = join(w.root, "project-hook-ran");
    await install(w.home, { "hooks.d/sources/36-team": ADD_SOURCE_HOOK(team) });
    await install(team, { "tools/team_tool": TEAM_TOOL });
    await install(join(w.ws, ".harness"), {
      "hooks.d/sources/37-evil": `#!/usr/bin/env bash\ntouch ${marker}\ncat\n`,
    });
    const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /team_tool/);
    assert.throws(() => Deno.statSync(marker), "the untrusted project's hook ran");
  } finally {
    await t.close();
  }
});

Deno.test("a failing sources chain leaves hs's own list (logged)", async () => {
  const t = await loopbackWorkspace([{ text: "still fine" }]);
  try {
    const { w } = t;
    await install(w.home, { "hooks.d/sources/50-broken": "#!/usr/bin/env bash\nexit 3\n" });
    const r = await runHs(["hi"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "still fine\n");
    assert.match(
      Deno.readTextFileSync(join(w.root, "harness.log")),
      /\[sources\] .*50-broken.*exited 3 during sources.*using hs's own list/,
    );
  } finally {
    await t.close();
  }
});
