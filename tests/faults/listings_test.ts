/**
 * Fault injection: names and texts that plugins, packs, skills, tools, provider `.conf`
 * files and hooks supply are shown by every CLI listing with their escape sequences as
 * pictures (`hs plugins`, `hs packs`, `hs tools`, `hs skills`, `hs hooks`, `hs providers`,
 * `hs doctor`, `hs help`, the consent and trust prompts, the REPL's `/plugins`, `/tools`,
 * `/commands` and pack commands); `--json` outputs stay JSON and carry the exact data.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, makeWorkspace, runHs, writeFile } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import {
  assertInertOnTerminal,
  assertNoControls,
  HOSTILE,
  HOSTILE_MCP_SERVER,
  hostileWorkspace,
} from "./_listings.ts";

/** One command of the table: its argv, and what its output must still show. */
interface Case {
  args: string[];
  shows?: RegExp;
  json?: (data: unknown) => void;
}

const PICTURE = /x␛\]0;pwned␇␛\[2J�31m<U\+202E>evil/;

const CASES: Case[] = [
  { args: ["plugins"], shows: /^hostile\s+x␛\]0;pwned␇/m },
  {
    args: ["plugins", "--json"],
    json: (d) => {
      const p = (d as { id: string; version: string }[]).find((p) => p.id === "hostile");
      assert.equal(p?.version, HOSTILE, "the JSON carries the exact data");
    },
  },
  { args: ["tools"], shows: PICTURE },
  { args: ["skills"], shows: PICTURE },
  { args: ["hooks"], shows: /h␛\]0;pwned␇/ },
  { args: ["hooks", "st\x1b[2Jage"] },
  { args: ["providers"], shows: PICTURE },
  { args: ["providers", "evil"], shows: PICTURE },
  { args: ["providers", "hostile-provider"], shows: PICTURE },
  {
    args: ["providers", "--json"],
    json: (d) => {
      const rows = (d as { providers: { name: string; description: string }[] }).providers;
      assert.equal(rows.find((r) => r.name === "evil")?.description, HOSTILE);
    },
  },
  { args: ["doctor"], shows: /h␛\]0;pwned␇/ },
  { args: ["help"], shows: PICTURE },
  { args: ["help", "hostile-cmd"], shows: PICTURE },
  { args: ["packs"], shows: PICTURE },
  { args: ["packs", "command", "evil"], shows: /T␛\]0;pwned␇/ },
  {
    args: ["packs", "command", "evil", "--json"],
    json: (d) => assert.equal((d as { view: { title: string } }).view.title, "T\x1b]0;pwned\x07"),
  },
];

Deno.test("fault: every listing shows what plugins, packs, skills, tools, .conf files and hooks supply as pictures", async (t) => {
  const w = await hostileWorkspace();
  try {
    for (const c of CASES) {
      await t.step(`hs ${c.args.join(" ")}`, async () => {
        const r = await runHs(c.args, { cwd: w.ws, env: w.env });
        const what = `hs ${JSON.stringify(c.args)}`;
        assertNoControls(r.stdout, `${what} stdout`);
        assertNoControls(r.stderr, `${what} stderr`);
        if (c.shows) assert.match(r.stdout, c.shows, `${what} shows the text\n${r.stderr}`);
        if (c.json) c.json(JSON.parse(r.stdout));
      });
    }
    await t.step("the headless consent notice", async () => {
      const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
      assert.match(r.stderr, /pack evil\/watcher is not attached/);
    });
  } finally {
    await w.cleanup();
  }
});

Deno.test("fault: the trust and consent prompts and the REPL's listings show escapes as pictures", async () => {
  const w = await hostileWorkspace({ trusted: false });
  try {
    const out = await runInPty([Deno.execPath(), ...hsArgs(), "repl"], [
      ["Trust and load them?", "y\r"],
      ["Approve them?", "n\r"],
      ["›", "/plugins\r"],
      ["hostile-skill", ""],
      ["›", "/tools\r"],
      ["evil_tool", ""],
      ["›", "/commands\r"],
      ["/evil", ""],
      ["›", "/evil\r"],
      ["choose", "\r"],
      ["›", "/quit\r"],
    ], { cwd: w.ws, env: { ...w.env, TERM: "xterm" } });
    assert.match(out.text, /EXIT 0/, out.text);
    assertInertOnTerminal(out.text, "hs repl");
    assert.match(out.text, /hooks\.d\/: start/);
    assert.match(out.text, /tools\/: evil_tool, t␛\[2Jx/);
    assert.match(out.text, /evil_tool\s+x␛\]0;pwned␇/);
    assert.match(out.text, /T␛\]0;pwned␇/);
    assert.match(out.text, /L␛\[2J/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("fault: an MCP server's tool description is shown as pictures by hs tools", async () => {
  const w = await makeWorkspace();
  try {
    const server = join(w.root, "mcp-evil", "server.js");
    await writeFile(server, HOSTILE_MCP_SERVER);
    const denoDir = w.env.DENO_DIR;
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [{
          id: "mcp",
          config: {
            servers: {
              evil: {
                command: Deno.execPath(),
                args: ["run", "--quiet", "--no-config", server],
                env: { DENO_DIR: denoDir },
                read: [join(w.root, "mcp-evil"), denoDir],
              },
            },
          },
        }],
      }),
    );
    const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assertNoControls(r.stdout + r.stderr, "hs tools");
    assert.match(r.stdout, /^mcp__evil__evil\s+x␛\]0;pwned␇␛\[2J�31m<U\+202E>evil$/m, r.stderr);
  } finally {
    await w.cleanup();
  }
});

Deno.test("fault: hs trust and hs trust --list show a hostile workspace path as pictures", async () => {
  const w = await makeWorkspace({ trusted: false });
  try {
    // a directory named by an archive or a clone: its name is not the user's words
    const hostile = join(w.root, "repo\x1b]0;pwned\x07\x1b[2J");
    await Deno.mkdir(join(hostile, ".harness"), { recursive: true });
    const trust = await runHs(["trust", hostile], { cwd: w.ws, env: w.env });
    assert.equal(trust.code, 0, trust.stderr);
    assertNoControls(trust.stdout + trust.stderr, "hs trust");
    assert.match(trust.stdout, /^trusted .*repo␛\]0;pwned␇␛\[2J$/m);
    const list = await runHs(["trust", "--list"], { cwd: w.ws, env: w.env });
    assert.equal(list.code, 0, list.stderr);
    assertNoControls(list.stdout + list.stderr, "hs trust --list");
    assert.match(list.stdout, /repo␛\]0;pwned␇␛\[2J/);
  } finally {
    await w.cleanup();
  }
});
