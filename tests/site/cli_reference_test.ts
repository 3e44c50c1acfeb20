/**
 * The CLI reference page is generated from the real CLI and checked against it:
 * parsing commander's help, collecting every command's `--help`, and comparing a
 * built page with the live output.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseCommands } from "../../site/lib/help_parse.ts";
import {
  collectHelp,
  type HelpPage,
  normalizeHelp,
  renderCliReference,
} from "../../site/lib/cli_reference.ts";
import { compareCliPage, pageSections } from "../../site/lib/cli_page.ts";
import { REPO } from "../../site/lib/paths.ts";
import { hsEnv } from "../../site/lib/hs.ts";

const HELP = `Usage: hs [options] [command]

Options:
  -h, --help                   display help for command

Commands:
  agent [options] [words...]   run the agent headless: hs agent [session-id]
                               <message…>
  session                      list and inspect sessions
  help [command]               show help

Usage: hs <message…>        run the agent on a message
`;

Deno.test("parseCommands reads names, usages and wrapped descriptions of Commands:", () => {
  assert.deepEqual(parseCommands(HELP), [
    {
      name: "agent",
      usage: "[options] [words...]",
      description: "run the agent headless: hs agent [session-id] <message…>",
    },
    { name: "session", usage: "", description: "list and inspect sessions" },
    { name: "help", usage: "[command]", description: "show help" },
  ]);
  assert.deepEqual(parseCommands("Usage: hs scheme [file]\n\nOptions:\n  -h  help\n"), []);
});

/** `hs …args --help` spawned directly, as a user would run it. */
async function liveHelp(args: string[], home: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "main.ts"), ...args, "--help"],
    cwd: REPO,
    env: hsEnv(home),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return normalizeHelp(new TextDecoder().decode(out.stdout));
}

Deno.test("the generated reference has every command of hs --help with its exact help", async () => {
  const home = await Deno.makeTempDir({ prefix: "hs-site-test-" });
  try {
    const pages = await collectHelp();
    const root = await liveHelp([], home);
    assert.equal(pages[0].text, root);
    // Every command the live help lists (but help itself) has a page.
    const listed = [...root.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1])
      .filter((n) => n !== "help");
    assert.ok(listed.length >= 10, root);
    assert.deepEqual(pages.filter((p) => p.path.length === 1).map((p) => p.path[0]), listed);
    for (const p of pages.slice(1)) {
      assert.equal(p.text, await liveHelp(p.path, home), `hs ${p.path.join(" ")} --help`);
    }
    assert.ok(pages.some((p) => p.path.join(" ") === "session list"), "nested commands");
    const md = renderCliReference(pages);
    for (const p of pages) assert.ok(md.includes("```text\n" + p.text + "\n```"), p.path.join(" "));
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const page = (sections: [string, string][]) =>
  sections.map(([id, text]) =>
    `<h2 id="${id}" tabindex="-1">x</h2><div class="language-text"><pre class="shiki"><code>` +
    text.split("\n").map((l) => `<span class="line"><span>${esc(l)}</span></span>`).join("\n") +
    "</code></pre></div>"
  ).join("\n");

Deno.test("compareCliPage accepts the live help and reports every difference", () => {
  const live: HelpPage[] = [
    { path: [], text: "Usage: hs [options] [command]\n\n  agent <message…>" },
    { path: ["agent"], text: "Usage: hs agent [options]" },
  ];
  const good = page([["hs", live[0].text], ["hs-agent", live[1].text]]);
  assert.equal(pageSections(good).get("hs"), live[0].text);
  assert.deepEqual(compareCliPage(good, live), []);
  const changed = page([["hs", live[0].text], ["hs-agent", "Usage: hs agent"]]);
  assert.match(compareCliPage(changed, live).join("\n"), /hs agent: the page differs/);
  const missing = page([["hs", live[0].text]]);
  assert.match(compareCliPage(missing, live).join("\n"), /hs agent: no section #hs-agent/);
  const stale = page([["hs", live[0].text], ["hs-agent", live[1].text], ["hs-gone", "x"]]);
  assert.match(compareCliPage(stale, live).join("\n"), /#hs-gone: not a command/);
});
