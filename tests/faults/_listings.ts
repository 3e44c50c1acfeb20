/**
 * A hostile workspace for the listing tests: a runtime plugin (plugins.json), a behavior
 * pack, a skill, an executable tool, a provider `.conf` and a hook, each naming or
 * describing itself with escape sequences (OSC title, clear-screen, an 8-bit CSI, a bidi
 * override) — what every CLI listing must show as pictures, never perform.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, type Workspace, writeExe, writeFile } from "../support/workspace.ts";

/** Every kind of sequence a terminal would act on, in one text. */
export const HOSTILE = "x\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil";

/** Asserts no raw ESC, BEL, 8-bit CSI/C1 or bidi override is in `out`. */
export function assertNoControls(out: string, what: string): void {
  // deno-lint-ignore no-control-regex
  const raw = /[\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/.exec(out);
  assert.equal(
    raw,
    null,
    `${what}: raw U+${raw?.[0].charCodeAt(0).toString(16)} at ${raw?.index}: ${
      JSON.stringify(out.slice(Math.max(0, (raw?.index ?? 0) - 40), (raw?.index ?? 0) + 40))
    }`,
  );
}

/** In a terminal (where the REPL's own line editor writes CSI): no hostile sequence performed. */
export function assertInertOnTerminal(out: string, what: string): void {
  for (const [seq, name] of [["\x1b]0;pwned", "OSC title"], ["\x1b[2J", "clear-screen"]]) {
    assert.ok(!out.includes(seq), `${what}: no ${name} reaches the terminal`);
  }
  assert.ok(!out.includes("\x9b"), `${what}: no 8-bit CSI reaches the terminal`);
  assert.ok(!out.includes("\u202e"), `${what}: no bidi override reaches the terminal`);
}

const E = `(string (integer->char 27))`;
const BEL = `(string (integer->char 7))`;
const CSI8 = `(string (integer->char 155))`;

/** A pack command whose title, row label and detail carry escapes. */
const COMMAND = `
(harness/choice
  :title (string-append "T" ${E} "]0;pwned" ${BEL})
  :rows (list (harness/row (string-append "L" ${E} "[2J")
                           (harness/action 'message :params (dict :text "hi"))
                           :detail (string-append "D" ${CSI8} "31m"))))
`;

/** A bot program with one guard (so the pack waits for consent). */
const BOT = `
(guard/shell :id 'watch
  :match "ls*"
  :middleware (lambda (raw invoke) (invoke raw)))
`;

/** The runtime plugin: a tool, a skill, a command and a provider, all described with escapes. */
function pluginModule(): string {
  const h = JSON.stringify(HOSTILE);
  return `export default {
  id: "hostile", version: ${h}, apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "hostile_tool", description: ${h}, inputSchema: { type: "object" },
      execute: () => Promise.resolve({ content: [{ type: "text", text: "ok" }] }),
    });
    ctx.skills.register({ name: "hostile-skill", description: ${h}, body: ${h} });
    ctx.commands.register({ name: "hostile-cmd", describe: ${h}, run: () => Promise.resolve(0) });
    ctx.models.register({
      name: "hostile-provider", description: ${h}, protocol: "anthropic",
      ready: () => Promise.resolve({ ready: false, reason: ${h} }),
      defaultModel: () => Promise.resolve(""),
      send: () => Promise.reject(new Error("not used")),
    }, [{ id: ${h} }]);
  },
};
`;
}

/**
 * A minimal MCP server (stdio, JSON-RPC lines) whose one tool describes itself with escapes;
 * it answers `initialize` and `tools/list` and says every call went fine.
 */
export const HOSTILE_MCP_SERVER = `
const out = (m) => Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(m) + "\\n"));
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
let buf = "";
for await (const chunk of lines) {
  buf += chunk;
  let i;
  while ((i = buf.indexOf("\\n")) >= 0) {
    const req = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (req.id === undefined) continue;
    const result = req.method === "initialize"
      ? { protocolVersion: req.params.protocolVersion, capabilities: { tools: {} },
          serverInfo: { name: "evil", version: "1" } }
      : req.method === "tools/list"
      ? { tools: [{ name: "evil", description: ${
  JSON.stringify(HOSTILE)
}, inputSchema: { type: "object" } }] }
      : { content: [{ type: "text", text: "ok" }] };
    out({ jsonrpc: "2.0", id: req.id, result });
  }
}
`;

/** A fresh workspace holding every hostile source (`trusted: false` leaves `.harness/` untrusted). */
export async function hostileWorkspace(opts: { trusted?: boolean } = {}): Promise<Workspace> {
  const w = await makeWorkspace(opts);
  const hs = join(w.ws, ".harness");
  const mod = join(w.root, "hostile-plugin.ts");
  await writeFile(mod, pluginModule());
  await writeFile(
    join(w.home, "plugins.json"),
    JSON.stringify({ runtimePlugins: [{ id: "hostile", module: mod, required: false }] }),
  );
  // the pack: manifest fields, a bot waiting for consent, a command view
  const pack = join(hs, "packs", "evil");
  await writeFile(
    join(pack, "plugin.json"),
    JSON.stringify({
      name: "evil",
      version: "1.0.0",
      description: HOSTILE,
      extensions: {
        "tools.inhuman": { bots: ["./bots/watcher.prompt"], commands: ["./commands/evil.scm"] },
      },
    }),
  );
  await writeFile(
    join(pack, "bots/watcher.prompt"),
    `---\nattach: foreground\nbehavior:\n  program: ../watcher.scm\n---\nWatcher.\n`,
  );
  await writeFile(join(pack, "watcher.scm"), BOT);
  await writeFile(join(pack, "commands/evil.scm"), COMMAND);
  // a skill file (YAML escapes: \e ESC, \a BEL, \x9b CSI, \u202e RLO)
  await writeFile(
    join(hs, "skills/evil/SKILL.md"),
    `---\nname: evil-skill\ndescription: "x\\e]0;pwned\\a\\e[2J\\x9b31m\\u202eevil"\n---\nBody.\n`,
  );
  // an executable tool describing itself with escapes
  await writeExe(
    join(hs, "tools/evil_tool"),
    `#!/bin/sh
case "$1" in
  --schema) echo '{"name":"evil_tool","description":"x\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202eevil","input_schema":{"type":"object"}}' ;;
  --describe) printf 'x\\033]0;pwned\\007\\033[2J\\302\\23331m\\342\\200\\256evil\\n' ;;
  --exec) echo ok ;;
esac
`,
  );
  // a provider .conf and a hook whose file name carries an escape
  await writeFile(
    join(hs, "providers/evil.conf"),
    `protocol=anthropic\nurl=http://127.0.0.1:9/v1/messages\nmodel=${HOSTILE}\ndescription=${HOSTILE}\n`,
  );
  await writeExe(join(hs, "hooks.d/start", "h\x1b]0;pwned\x07"), "#!/bin/sh\ncat\n");
  // a tool file whose name carries an escape (listed by the trust question, ignored as a tool)
  await writeExe(join(hs, "tools", "t\x1b[2Jx"), "#!/bin/sh\nexit 1\n");
  return w;
}
