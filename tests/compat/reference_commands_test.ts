/**
 * Issue 24 point 11, the reference's own commands: reference-style `commands/` (fixtures
 * written here, in the reference's style) call or source `$HARNESS_ROOT/bin/harness`, and hs
 * gives them one — a generated, read-only program that runs this hs under the caller's
 * scope; a `commands/<built-in>` replaces every built-in, `hs version` included; and hooks
 * that detect a provider with `[ -n "${!auth_env}" ]` see a presence marker, never the key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { loopbackConf, makeWorkspace, runHs, writeFile } from "../support/workspace.ts";
import { install } from "./kit.ts";

/** A command that runs `$HARNESS_ROOT/bin/harness` with its own arguments after `pre`. */
const CALLS_SHIM = (pre: string) =>
  `#!/usr/bin/env bash
set -euo pipefail
case "\${1:-}" in --describe) echo "calls bin/harness"; exit 0 ;; esac
echo "root=\${HARNESS_ROOT}"
exec "\${HARNESS_ROOT}/bin/harness" ${pre} "$@"
`;

Deno.test("a command calling $HARNESS_ROOT/bin/harness runs this hs: a generated, read-only shim", async () => {
  const w = await makeWorkspace();
  try {
    await install(join(w.ws, ".harness"), { "commands/mytools": CALLS_SHIM("tools") });
    const r = await runHs(["mytools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    const root = /^root=(.+)$/m.exec(r.stdout)![1];
    assert.ok(root.startsWith(join(w.home, ".cache") + "/"), root);
    assert.match(r.stdout, /\bread_file\b/);
    assert.match(r.stdout, /\bbash\b/);
    const shim = join(root, "bin", "harness");
    assert.equal(Deno.statSync(shim).mode! & 0o777, 0o555);
    // altered, it is written again (a new directory: the old one is replaced)
    Deno.chmodSync(shim, 0o755);
    Deno.writeTextFileSync(shim, "#!/bin/sh\necho tampered\n");
    const again = await runHs(["mytools"], { cwd: w.ws, env: w.env });
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /tampered/);
    assert.match(again.stdout, /\bread_file\b/);
  } finally {
    await w.cleanup();
  }
});

Deno.test("sourced by a reference command, bin/harness runs hs's built-in of its name; by others, helpers", async () => {
  const w = await makeWorkspace();
  try {
    await install(join(w.ws, ".harness"), {
      // like the reference's commands/tools: it sources bin/harness, then walks the sources
      "commands/tools": `#!/usr/bin/env bash
set -euo pipefail
case "\${1:-}" in --describe) echo "list discovered tools"; exit 0 ;; esac
source "\${HARNESS_ROOT}/bin/harness"
echo "the reference's own listing"
`,
      "commands/srcs": `#!/usr/bin/env bash
set -euo pipefail
source "\${HARNESS_ROOT}/bin/harness"
_refresh_sources
printf 'src %s\\n' "\${_HARNESS_SOURCES[@]}"
echo "found $(_find_command srcs)"
`,
    });
    const r = await runHs(["tools"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\bread_file\b/, "hs's built-in tools ran");
    assert.doesNotMatch(r.stdout, /reference's own listing/);
    const s = await runHs(["srcs"], { cwd: w.ws, env: w.env });
    assert.equal(s.code, 0, s.stderr);
    assert.match(s.stdout, new RegExp(`^src ${join(w.ws, ".harness")}$`, "m"));
    assert.match(s.stdout, new RegExp(`^found ${join(w.ws, ".harness/commands/srcs")}$`, "m"));
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs agent through bin/harness runs under the caller's floor: a denied read stays denied", async () => {
  const w = await makeWorkspace();
  const outside = join(w.root, "outside", "secret.txt"); // outside the default grant
  const inside = join(w.ws, "private.txt"); // inside it, denied by the caller's --deny-read
  const read = (id: string, path: string) => ({
    text: "Reading.",
    toolCalls: [{ id, name: "read_file", input: { path } }],
  });
  const server = await startScriptedServer([
    read("r1", inside),
    read("r2", outside),
    { text: "done" },
  ]);
  try {
    await writeFile(outside, "the-contents-outside-the-grant\n");
    await writeFile(inside, "the-contents-the-caller-denied\n");
    await writeFile(join(w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
    await install(join(w.ws, ".harness"), { "commands/ask": CALLS_SHIM("agent") });
    const r = await runHs(["--deny-read", inside, "ask", "read it"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^done$/m);
    const result = (i: number) => {
      const body = server.requests[i].body as { messages: { content: unknown }[] };
      return JSON.stringify(body.messages.at(-1)!.content);
    };
    assert.match(result(1), /permission denied/, "the caller's --deny-read did not hold");
    assert.ok(!result(1).includes("the-contents-the-caller-denied"));
    assert.match(result(2), /permission denied/, "the default grant did not hold");
    assert.ok(!result(2).includes("the-contents-outside-the-grant"));
  } finally {
    await server.close();
    await w.cleanup();
  }
});

Deno.test("a trusted commands/version replaces hs version (and --version); untrusted, the built-in", async () => {
  const fixture = `#!/usr/bin/env bash
case "\${1:-}" in --describe) echo "print version"; exit 0 ;; esac
echo "harness fixture-9.9"
`;
  const trusted = await makeWorkspace();
  const untrusted = await makeWorkspace({ trusted: false });
  try {
    for (const w of [trusted, untrusted]) {
      await install(join(w.ws, ".harness"), { "commands/version": fixture });
    }
    for (const arg of ["version", "--version", "-v"]) {
      const r = await runHs([arg], { cwd: trusted.ws, env: trusted.env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "harness fixture-9.9\n", arg);
    }
    const u = await runHs(["version"], { cwd: untrusted.ws, env: untrusted.env });
    assert.equal(u.code, 0, u.stderr);
    assert.match(u.stdout, /^hs \d/);
    const d = await runHs(["version"], { cwd: trusted.ws, env: trusted.env, direct: true });
    assert.equal(d.stdout, "harness fixture-9.9\n", "main.ts run directly");
  } finally {
    await trusted.cleanup();
    await untrusted.cleanup();
  }
});

const KEY = "sk-keyed-provider-0123456789abcdef";
const STORED = "sk-keyed-stored-fedcba9876543210";

/**
 * A `resolve/20-detect` in the reference's style: the first `providers/*.conf` of
 * `HARNESS_SOURCES` whose `auth_env` variable is set. It first dumps its argv and whole
 * environment to stderr (HARNESS_LOG).
 */
const DETECT_HOOK = `#!/usr/bin/env bash
set -euo pipefail
input="$(cat)"
{ echo "argv: $*"; env; } >&2
provider=""
IFS=':' read -ra sources <<< "\${HARNESS_SOURCES}"
for src in "\${sources[@]}"; do
  for f in "\${src}/providers"/*.conf; do
    [[ -e "\${f}" ]] || continue
    ae="$(grep '^auth_env=' "\${f}" | head -1 | cut -d= -f2-)"
    if [[ -n "\${ae}" && -n "\${!ae:-}" ]]; then provider="$(basename "\${f}" .conf)"; break 2; fi
  done
done
[[ -n "\${provider}" ]] || { echo '{"error": "no ready provider found"}'; exit 1; }
echo "detected: \${provider}" >&2
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["provider"]=sys.argv[2]; print(json.dumps(d))' "\${input}" "\${provider}"
`;

Deno.test("a reference 20-detect finds a provider by ${!auth_env}: a presence marker, never the key", async () => {
  const w = await makeWorkspace();
  const server = await startScriptedServer([{ text: "from env" }, { text: "from store" }]);
  try {
    await install(join(w.ws, ".harness"), { "hooks.d/resolve/20-detect": DETECT_HOOK });
    await writeFile(
      join(w.ws, ".harness/providers/keyed.conf"),
      loopbackConf(server.url, "openai", "auth_env=KEYED_API_KEY\n"),
    );
    const log = w.env.HARNESS_LOG;
    // the key in the environment
    const r = await runHs(["hello"], { cwd: w.ws, env: { ...w.env, KEYED_API_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "from env\n");
    assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`, "hs sent the key");
    let text = Deno.readTextFileSync(log);
    assert.match(text, /^detected: keyed$/m);
    assert.match(text, /^KEYED_API_KEY=hs-key-present:withheld$/m);
    assert.ok(!text.includes(KEY), "the key reached a hook");
    // the key stored (hs auth set), no variable
    Deno.removeSync(log);
    await writeFile(
      join(w.home, ".auth.json"),
      JSON.stringify({ keyed: [{ type: "api_key", key: STORED }] }),
      0o600,
    );
    const s = await runHs(["again"], { cwd: w.ws, env: w.env });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.stdout, "from store\n");
    assert.equal(server.requests[1].headers.authorization, `Bearer ${STORED}`);
    text = Deno.readTextFileSync(log);
    assert.match(text, /^detected: keyed$/m);
    assert.ok(!text.includes(STORED), "the stored key reached a hook");
  } finally {
    await server.close();
    await w.cleanup();
  }
});
