/**
 * A sandbox with no power (issue 23, cause 2): as root the sandboxed child must hold no
 * capability, so it can neither take a mask off (`umount` of the `/dev/null` over
 * `.auth.json`) nor make a read-only bind writable (`mount -o remount,rw,bind`). Every
 * attempt is checked by its consequence: the key never reaches the model (no tool result,
 * no request), and a binary of a read-only tool directory that the user runs afterwards,
 * outside any sandbox, is the one it was.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type EffectPolicy, OsSandbox } from "../../core/sandbox/mod.ts";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedToolCall } from "../../plugins/scripted/mod.ts";
import { loopbackConf, runHs, writeExe, writeFile } from "../support/workspace.ts";
import { BWRAP_OK, type FloorRig, makeRig, SECRETS, type ToolOutcome } from "./_helpers.ts";

/** Runs the calls and keeps what the model was sent (every request body). */
export async function runSeen(
  rig: FloorRig,
  calls: ScriptedToolCall[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string; outcomes: Map<string, ToolOutcome>; sent: string }> {
  const server = await startScriptedServer([
    ...calls.map((c) => ({ toolCalls: [c] })),
    { text: "done" },
  ]);
  try {
    await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
    await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
    const run = await runHs(["--events", "go"], { cwd: rig.w.ws, env: { ...rig.w.env, ...env } });
    const outcomes = new Map<string, ToolOutcome>();
    for (const line of run.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      const e = JSON.parse(line);
      if (e.type === "tool_done") outcomes.set(e.id, e);
    }
    const sent = JSON.stringify(server.requests);
    return { code: run.code, stderr: run.stderr, outcomes, sent };
  } finally {
    await server.close();
  }
}

const TOOL = "#!/bin/sh\necho tool-ok\n";
const TROJAN = "#!/bin/sh\necho TROJANED-by-agent\n";

/** A path the shell parser of the guards cannot see (the OS sandbox must stop the write). */
const b64 = (s: string) => btoa(s);

const isRoot = Deno.uid() === 0;

Deno.test({
  name: "as root: the sandboxed bash holds no capability (umount, remount rw, CapEff)",
  ignore: !BWRAP_OK,
  async fn() {
    const rig = await makeRig();
    const tools = join(rig.w.root, "usertools");
    const probe = `/usr/lib/hs-power-probe-${crypto.randomUUID().slice(0, 8)}`;
    try {
      await writeExe(join(tools, "mytool"), TOOL);
      const auth = join(rig.w.home, ".auth.json");
      const calls: ScriptedToolCall[] = [
        { id: "c1", name: "bash", input: { command: `umount ${auth} 2>&1; cat ${auth}` } },
        {
          id: "c2",
          name: "bash",
          input: { command: `umount -l ${auth} 2>&1; umount -l ${rig.w.home} 2>&1; cat ${auth}` },
        },
        {
          id: "c3",
          name: "bash",
          input: {
            command:
              `mount -o remount,rw,bind ${tools} 2>&1; f=$(echo ${b64(tools)} | base64 -d); ` +
              `printf '${TROJAN.replaceAll("\n", "\\n")}' > "$f/mytool"; cat "$f/mytool"`,
          },
        },
        {
          id: "c4",
          name: "bash",
          input: {
            command: `mount -o remount,rw,bind /usr 2>&1; f=$(echo ${b64(probe)} | base64 -d); ` +
              `echo x > "$f"; ls "$f"`,
          },
        },
        {
          id: "c5",
          name: "bash",
          input: { command: `mount -t tmpfs none ${tools} 2>&1; ls -a ${tools}` },
        },
        {
          id: "c6",
          name: "bash",
          input: { command: "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status" },
        },
      ];
      const { code, stderr, outcomes, sent } = await runSeen(rig, calls, {
        PATH: `${tools}:${rig.w.env.PATH}`,
      });
      assert.equal(code, 0, stderr);
      const problems: string[] = [];
      for (const c of calls) if (!outcomes.has(c.id!)) problems.push(`${c.id}: no answer`);
      // the key reached the model nowhere: not in a result, not in any request
      for (const o of outcomes.values()) {
        if (o.result.includes(SECRETS.auth)) problems.push(`${o.id}: the key in the result`);
      }
      if (sent.includes(SECRETS.auth)) problems.push("the key was sent to the model");
      // the user's tool, run outside any sandbox after the run, is the one it was
      if (await Deno.readTextFile(join(tools, "mytool")) !== TOOL) problems.push("tool changed");
      const out = await new Deno.Command(join(tools, "mytool"), { stdout: "piped" }).output();
      const printed = new TextDecoder().decode(out.stdout);
      if (printed !== "tool-ok\n") problems.push(`the user's tool printed ${printed.trim()}`);
      // nothing landed in /usr
      if (await Deno.stat(probe).then(() => true, () => false)) problems.push(`${probe} written`);
      // nothing was mounted over the tool directory the child sees
      if (!outcomes.get("c5")?.result.includes("mytool")) problems.push("c5: tmpfs mounted");
      // the child held no capability and could not gain one
      const caps = outcomes.get("c6")?.result ?? "";
      if (!/CapEff:\s+0{16}/.test(caps)) problems.push(`c6: ${caps.trim()}`);
      if (!/NoNewPrivs:\s+1/.test(caps)) problems.push(`c6: privileges can be gained`);
      assert.deepEqual(problems, [], JSON.stringify([...outcomes.values()], null, 1));
      if (isRoot) console.log("power: checked as root (uid 0)");
    } finally {
      await Deno.remove(probe).catch(() => {});
      await rig.close();
    }
  },
});

Deno.test({
  name: "a bwrap (setsid, bash, kill) in a workspace folder first on PATH is never run",
  ignore: !BWRAP_OK,
  async fn() {
    const rig = await makeRig();
    const bin = join(rig.w.ws, "bin"); // direnv's `PATH_add bin`
    const marker = (name: string) => join(rig.w.root, `ran-${name}`);
    try {
      for (const name of ["bwrap", "setsid", "bash", "kill"]) {
        await writeExe(join(bin, name), `#!/bin/sh\necho "$@" > ${marker(name)}\n`);
      }
      const outside = join(rig.w.root, "outside.txt");
      const { code, stderr, outcomes } = await runSeen(rig, [
        {
          id: "p1",
          name: "bash",
          input: {
            command: `grep -E '^(CapEff|NoNewPrivs)' /proc/self/status; ` +
              `f=$(echo ${b64(outside)} | base64 -d); echo x > "$f" || echo refused-outside`,
          },
        },
        { id: "p2", name: "bash", input: { command: "sleep 30 & echo started" } },
      ], { PATH: `${bin}:${rig.w.env.PATH}` });
      assert.equal(code, 0, stderr);
      for (const name of ["bwrap", "setsid", "bash", "kill"]) {
        assert.ok(
          await Deno.stat(marker(name)).then(() => false, () => true),
          `the workspace's ${name} was run`,
        );
      }
      const p1 = outcomes.get("p1")?.result ?? "";
      // it ran, and confined: no power, no write outside the workspace
      assert.match(p1, /CapEff:\s+0{16}/, p1);
      assert.match(p1, /refused-outside/, p1);
      assert.ok(await Deno.stat(outside).then(() => false, () => true), "wrote outside");
      assert.match(outcomes.get("p2")?.result ?? "", /started/);
    } finally {
      await rig.close();
    }
  },
});

/** The attempts of the first test, run straight through the OS sandbox as `uid`. */
async function attemptsAs(uid: number): Promise<{ text: string; tool: string; root: string }> {
  const root = await Deno.makeTempDir({ prefix: "hs-power-" });
  await Deno.chmod(root, 0o755);
  const ws = join(root, "ws");
  const tools = join(root, "usertools");
  const secret = join(root, "secret.json");
  await writeFile(secret, SECRETS.auth + "\n", 0o644);
  await writeExe(join(tools, "mytool"), TOOL);
  await Deno.mkdir(ws);
  // the workspace and the tool directory are the user's: only the read-only bind guards it
  for (const p of [ws, tools, join(tools, "mytool")]) await Deno.chown(p, uid, uid);
  const policy: EffectPolicy = {
    read: [root],
    write: [ws],
    net: [],
    run: "all",
    env: [],
    deny: { read: [secret], write: [], net: [], run: [], env: [] },
  };
  const sandbox = new OsSandbox({
    policy,
    narrower: true,
    env: { PATH: "/usr/bin:/bin" },
    userHome: ws,
    unsandboxed: false,
    warn: () => {},
  });
  const script = [
    `umount ${secret}; umount -l ${secret}; cat ${secret}`,
    `mount -o remount,rw,bind ${tools}; printf '${
      TROJAN.replaceAll("\n", "\\n")
    }' > ${tools}/mytool`,
    `mount -t tmpfs none ${tools}; ls ${tools}`,
    "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status",
  ].join("\n");
  const spec = await sandbox.prepare(
    { command: "/bin/bash", args: ["-c", script], env: { PATH: "/usr/bin:/bin" }, cwd: ws },
    "bash",
  );
  if ("refused" in spec) throw new Error(spec.refused);
  const as = uid === 0 ? [] : [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"];
  const out = await new Deno.Command("/usr/bin/setpriv", {
    args: [...as, "--", spec.command, ...spec.args],
    env: spec.env,
    clearEnv: true,
    cwd: "/",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { text, tool: await Deno.readTextFile(join(tools, "mytool")), root };
}

for (const uid of [0, 65534]) {
  Deno.test({
    name: `the OS sandbox's child as uid ${uid}: no mask comes off, no bind turns writable`,
    ignore: !BWRAP_OK || !isRoot, // setting another uid needs root
    async fn() {
      const { text, tool, root } = await attemptsAs(uid);
      try {
        assert.ok(!text.includes(SECRETS.auth), text);
        assert.equal(tool, TOOL, text);
        assert.match(text, /mytool/, text); // the tool directory is still the host's
        assert.match(text, /CapEff:\s+0{16}/, text);
        assert.match(text, /NoNewPrivs:\s+1/, text);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}
