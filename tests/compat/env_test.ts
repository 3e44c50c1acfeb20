/**
 * Items 3 and 7 (done in Kernel II, verified here): the user's own `HARNESS_*` variables
 * reach every hook, tool and command unchanged (credentials stay filtered), and a
 * `commands/<name>` executable overrides a built-in command of its name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, runHs } from "../support/workspace.ts";
import { install } from "./kit.ts";

const USER_VARS = {
  HARNESS_APPROVE_TOOLS: "bash write_file",
  HARNESS_THINKING: "high",
  HARNESS_READ_LIMIT: "7",
  HARNESS_TOOL_TIMEOUT: "33",
  HARNESS_MY_TEAM_SETTING: "blue",
};
const NAMES = Object.keys(USER_VARS).join(" ");

const SHOW = `for v in ${NAMES} HARNESS_SECRET_TOKEN; do echo "$v=\${!v:-<unset>}"; done`;

Deno.test("the user's HARNESS_* variables reach hooks, tools and commands; credentials do not", async () => {
  const t = await loopbackWorkspace([
    { text: "Looking.", toolCalls: [{ id: "e1", name: "show_env", input: {} }] },
    { text: "Seen." },
  ]);
  try {
    const dump = join(t.w.ws, "hook-env.txt");
    await install(join(t.w.ws, ".harness"), {
      "tools/show_env": `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"show_env","description":"print settings","input_schema":{"type":"object"}}' ;;
  --exec) cat >/dev/null; ${SHOW} ;;
esac
`,
      "hooks.d/send/05-dump": `#!/usr/bin/env bash\n{ ${SHOW}; } > "${dump}"\ncat\n`,
      "commands/showenv": `#!/usr/bin/env bash\n${SHOW}\n`,
    });
    const env = { ...t.w.env, ...USER_VARS, HARNESS_SECRET_TOKEN: "tok-must-not-pass-0123" };
    const r = await runHs(["go"], { cwd: t.w.ws, env });
    assert.equal(r.code, 0, r.stderr);
    const tool = (t.server.requests[1].body as { messages: { content: unknown }[] }).messages
      .at(-1)!.content as { content: string }[];
    const command = await runHs(["showenv"], { cwd: t.w.ws, env });
    assert.equal(command.code, 0, command.stderr);
    for (
      const [what, text] of [
        ["tool", tool[0].content],
        ["hook", Deno.readTextFileSync(dump)],
        ["command", command.stdout],
      ]
    ) {
      for (const [k, v] of Object.entries(USER_VARS)) {
        assert.match(text, new RegExp(`^${k}=${v}$`, "m"), `${what}: ${k}`);
      }
      assert.match(text, /^HARNESS_SECRET_TOKEN=<unset>$/m, `${what}: a credential passed`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a commands/<name> executable overrides the built-in command of its name", async () => {
  const t = await loopbackWorkspace([]);
  try {
    await install(join(t.w.ws, ".harness"), {
      "commands/tools": `#!/usr/bin/env bash
[[ "\${1:-}" == "--describe" ]] && { echo "my own tool listing"; exit 0; }
echo "my tools: $*"
exit 3
`,
    });
    const r = await runHs(["tools", "--all"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.stdout, "my tools: --all\n");
    assert.equal(r.code, 3, "its exit code is hs's");
  } finally {
    await t.close();
  }
});
