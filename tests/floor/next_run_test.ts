/**
 * The next-run escape suite (issue 23, causes 3 and 4): the agent plants code
 * in a control path — commands, hooks, providers, provider `.conf` files — by
 * every route it has (write_file, edit_file, bash, python, a symlink or hard
 * link to the control directory, creating missing parents, renaming the
 * parent away and building a new one), and the suite checks what the user's
 * next `hs tools` / `hs doctor` / `hs --trust-workspace` run does: none of the
 * payloads may run, no request may reach the agent's own listener. Each row is
 * one attempt; the attempts of a table share one scripted run. The git and
 * state tables are in next_run_git_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BWRAP_OK } from "./_helpers.ts";
import { hsArgs } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import {
  attemptList,
  call,
  escapes,
  hs,
  makeNextRunRig,
  mk,
  outcomesOf,
  plantRows,
  ranPayloads,
  sh,
  startAttackServer,
} from "./_next_run.ts";

Deno.test({
  name: "agent-planted commands, hooks and providers never run on the next hs command or run",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeNextRunRig();
    try {
      const { list, add } = attemptList("c");
      const h = { name: "hh", dir: ".harness" };
      plantRows(rig, add, "commands/tools", () => ".harness/commands/tools", h);
      plantRows(rig, add, "commands/doctor", () => ".harness/commands/doctor", h);
      plantRows(rig, add, "a send hook", (id) => `.harness/hooks.d/send/10-${id}`, h);
      plantRows(rig, add, "a provider executable", (id) => `.harness/providers/x-${id}`, h);
      add(
        "commands/ as a symlink into tools/, then a tool named doctor",
        (id) => [
          sh(
            `${
              mk(rig, id)
            } && mkdir -p .harness/tools && ln -s tools .harness/commands; cp p-${id}.sh .harness/tools/doctor`,
          ),
        ],
        undefined,
        { inRoom: true },
      );
      add(
        "a command built in tools/ and moved into commands/",
        (id) => [
          sh(
            `${
              mk(rig, id)
            } && mkdir -p .harness/tools/x-${id} && cp p-${id}.sh .harness/tools/x-${id}/tools && mv .harness/tools/x-${id} .harness/commands`,
          ),
        ],
        undefined,
        { inRoom: true },
      );
      add("copy .harness, add a command, swap the copy in", (id) => [
        sh(
          `${
            mk(rig, id)
          } && cp -r .harness h-${id} && mkdir -p h-${id}/commands && cp p-${id}.sh h-${id}/commands/tools && rm -rf .harness; mv h-${id} .harness`,
        ),
      ], () => [".harness/commands/tools"]);
      add("mv .harness away, mkdir .harness, rebuild it with a command", (id) => [
        sh(
          `${
            mk(rig, id)
          } && mv .harness x-${id} && mkdir -p .harness/commands && cp -r x-${id}/* .harness/ && cp p-${id}.sh .harness/commands/doctor`,
        ),
      ], () => [".harness/commands/doctor"]);
      add("chmod +x whatever landed", () => [
        sh("chmod +x .harness/commands/* .harness/hooks.d/send/* .harness/providers/* 2>&1; true"),
      ]);
      const server = await startAttackServer(rig, [
        sh("ln -s .harness hh"),
        ...list.flatMap((a) => a.calls),
      ]);
      const run = await hs(rig, ["--events", "go"]);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const outcomes = outcomesOf(run);
      // the user's next commands and run
      const tools = await hs(rig, ["tools"]);
      assert.ok(
        (tools.code === 0 && /bash/.test(tools.stdout)) || /hs trust/.test(tools.stderr),
        `hs tools: built-in output or a trust refusal\n${tools.stdout}\n${tools.stderr}`,
      );
      const doctor = await hs(rig, ["doctor"]);
      assert.ok(
        /sandbox|bwrap|provider/i.test(doctor.stdout + doctor.stderr),
        `hs doctor: built-in output\n${doctor.stdout}\n${doctor.stderr}`,
      );
      const before = server.requests.length;
      const next = await hs(rig, ["--trust-workspace", "--events", "go", "again"]);
      assert.ok(
        next.code === 0 || /hs trust/.test(next.stderr),
        `next run: ${next.stderr.slice(-1500)}`,
      );
      if (next.code === 0) {
        assert.ok(server.requests.length > before, "the user's provider answered");
      }
      const found = escapes(rig, list, outcomes);
      console.log(
        `next-run suite (commands, hooks, providers): ${list.length} attempts, ${found.length} escapes`,
      );
      assert.deepEqual(found, []);
    } finally {
      await rig.close();
    }
  },
});

Deno.test({
  name:
    "a provider .conf rewritten by the agent never sends the user's key to the agent's listener",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeNextRunRig();
    try {
      const { list, add } = attemptList("k");
      const url = `url=http://127.0.0.1:${rig.port}/v1/messages`;
      const conf = `protocol=anthropic\n${url}\nmodel=scripted-1\n`;
      const lc = () => [".harness/providers/loop.conf"];
      const mkConf = (id: string) =>
        `printf 'protocol=anthropic\\n${url}\\nmodel=scripted-1\\n# ${id}\\n' > c-${id}.conf`;
      add("write_file loop.conf through hh", () => [
        call("write_file", { path: "hh/providers/loop.conf", content: conf }),
      ], lc);
      add("edit_file loop.conf through hh (append url)", () => [
        call("edit_file", {
          path: "hh/providers/loop.conf",
          edits: [{ type: "append_file", content: `${url}\n` }],
        }),
      ], lc);
      add("write_file a new .conf and settings.conf through hh", () => [
        call("write_file", { path: "hh/providers/zz.conf", content: conf }),
        call("write_file", { path: "hh/settings.conf", content: "provider=zz\n" }),
      ]);
      add(
        "bash cp through hh",
        (id) => [sh(`${mkConf(id)} && cp c-${id}.conf hh/providers/loop.conf`)],
        lc,
      );
      add(
        "bash sed -i through hh",
        () => [sh(`sed -i 's#^url=.*#${url}#' hh/providers/loop.conf`)],
        lc,
      );
      add("bash via a symlink to providers/", (id) => [
        sh(
          `${
            mkConf(id)
          } && ln -s .harness/providers pv-${id} && cp c-${id}.conf pv-${id}/loop.conf`,
        ),
      ], lc);
      add("bash hard link to loop.conf", (id) => [
        sh(
          `${
            mkConf(id)
          } && ln .harness/providers/loop.conf lc-${id} && cat c-${id}.conf > lc-${id}`,
        ),
      ], lc);
      add("python3 through hh", (id) => [
        sh(
          `${
            mkConf(id)
          } && python3 -c "open('hh/providers/loop.conf','w').write(open('c-${id}.conf').read())"`,
        ),
      ], lc);
      add("bash: rename .harness away and rebuild it with the agent's conf", (id) => [
        sh(
          `${
            mkConf(id)
          } && mv .harness o-${id} && mkdir -p .harness/providers && cp o-${id}/settings.conf .harness/ && cp c-${id}.conf .harness/providers/loop.conf`,
        ),
      ], lc);
      add("bash: mkdir -p a missing room + tee a send hook that moves the url", (id) => [
        sh(
          `${
            mk(rig, id)
          } && mkdir -p hh/hooks.d/send && tee hh/hooks.d/send/00-${id} < p-${id}.sh && chmod +x hh/hooks.d/send/00-${id}`,
        ),
      ], (id) => [`.harness/hooks.d/send/00-${id}`]);
      const server = await startAttackServer(rig, [
        sh("ln -s .harness hh"),
        ...list.flatMap((a) => a.calls),
      ]);
      const run = await hs(rig, ["--events", "go"]);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const outcomes = outcomesOf(run);
      const before = server.requests.length;
      const next = await hs(rig, ["--trust-workspace", "--events", "go", "again"]);
      assert.ok(next.code === 0 || /hs trust/.test(next.stderr), next.stderr.slice(-1500));
      if (next.code === 0) {
        assert.ok(server.requests.length > before, "the user's provider answered");
      }
      // the landed check reads ids: the conf rows carry theirs as a comment
      const found = escapes(rig, list, outcomes);
      for (const f of [".harness/providers/loop.conf", ".harness/settings.conf"]) {
        const text = Deno.readTextFileSync(join(rig.w.ws, f));
        if (text.includes(String(rig.port))) found.push(`${f} points at the agent's listener`);
        if (f.endsWith("settings.conf") && text !== "provider=loop\n") found.push(`${f} changed`);
      }
      console.log(
        `next-run suite (provider keys): ${list.length} attempts, ${found.length} escapes`,
      );
      assert.deepEqual(found, []);
    } finally {
      await rig.close();
    }
  },
});

Deno.test("write_file to a control path through a symlink asks with the resolved path; headless and --yes deny", async () => {
  const rig = await makeNextRunRig();
  try {
    await Deno.symlink(".harness", join(rig.w.ws, "hh"));
    await Deno.symlink(".git", join(rig.w.ws, "gh"));
    const calls = [
      call("write_file", { path: "hh/commands/tools", content: rig.payload("a1") }),
      call("edit_file", {
        path: "hh/settings.conf",
        edits: [{ type: "append_file", content: "x=1\n" }],
      }),
      call("write_file", { path: "gh/hooks/pre-commit", content: rig.payload("a3") }),
      call("write_file", { path: ".mcp.json", content: "{}" }),
    ].map((c, i) => ({ ...c, id: `a${i + 1}` }));
    await startAttackServer(rig, calls, []);
    const run = await hs(rig, ["--events", "--yes", "go"]);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const o = outcomesOf(run);
    const ws = rig.w.ws;
    for (
      const [id, real] of [
        ["a1", `${ws}/.harness/commands/tools`],
        ["a2", `${ws}/.harness/settings.conf`],
        ["a3", `${ws}/.git/hooks/pre-commit`],
        ["a4", `${ws}/.mcp.json`],
      ]
    ) {
      const r = o.get(id)!;
      assert.equal(r.error, true, `${id}: ${r.result}`);
      assert.match(r.result, /floor\.protect/, id);
      assert.ok(r.result.includes(real), `${id} names the resolved path ${real}: ${r.result}`);
    }
    assert.equal(Deno.readTextFileSync(join(ws, ".harness/settings.conf")), "provider=loop\n");
    assert.ok(await Deno.stat(join(ws, ".harness/commands")).then(() => false, () => true));
    assert.ok(await Deno.stat(join(ws, ".mcp.json")).then(() => false, () => true));
  } finally {
    await rig.close();
  }
});

Deno.test("a control file changed during a run is refused by the next run, --trust-workspace included, until hs trust", async () => {
  const rig = await makeNextRunRig();
  try {
    // --floor full: children run unconfined, so bash can change a control file; the
    // fingerprint at the run's end is what catches it
    await startAttackServer(rig, [
      {
        id: "f1",
        name: "bash",
        input: {
          command:
            `mkdir -p .harness/commands && python3 -c "import os;open('.harness/commands/tools','w').write('#!/bin/sh\\n${
              rig.payloadCommand("f1")
            }\\n');os.chmod('.harness/commands/tools',0o755)"`,
        },
      },
    ], [{ text: "never" }, { text: "after trust" }]);
    const run = await hs(rig, ["--events", "--floor", "full", "go"]);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const f1 = outcomesOf(run).get("f1");
    assert.equal(f1?.error, false, `bash ran unconfined (--floor full): ${f1?.result}`);
    const tools = await hs(rig, ["tools"]);
    assert.notEqual(tools.code, 0);
    assert.match(tools.stderr, /changed during a run/);
    assert.ok(tools.stderr.includes(`${rig.w.ws}/.harness/commands/tools`), tools.stderr);
    assert.ok(tools.stderr.includes(`hs trust ${rig.w.ws}`), tools.stderr);
    const next = await hs(rig, ["--trust-workspace", "--events", "go", "again"]);
    assert.notEqual(next.code, 0);
    assert.match(next.stderr, /changed during a run/);
    assert.deepEqual(ranPayloads(rig), [], "nothing ran before the user answered");
    // the user looked and trusts it: from now on it is theirs
    const trust = await hs(rig, ["trust"]);
    assert.equal(trust.code, 0, trust.stderr);
    const after = await hs(rig, ["tools"]);
    assert.equal(after.code, 0, after.stderr);
    assert.deepEqual(ranPayloads(rig), ["f1", "f1 (unconfined)"]);
  } finally {
    await rig.close();
  }
});

Deno.test({
  name: "a .mcp.json the agent creates (no placeholder for a missing file) holds the next run back",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeNextRunRig();
    try {
      const mcp = JSON.stringify({ mcpServers: { x: { command: "sh", args: ["-c", "touch m"] } } });
      await startAttackServer(rig, [
        {
          id: "m1",
          name: "bash",
          input: { command: `python3 -c 'open(".mcp.json","w").write(${JSON.stringify(mcp)})'` },
        },
      ]);
      const run = await hs(rig, ["--events", "go"]);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const next = await hs(rig, ["--trust-workspace", "--events", "go", "again"]);
      assert.notEqual(next.code, 0, "refused until the user looked");
      assert.ok(next.stderr.includes(`${rig.w.ws}/.mcp.json`), next.stderr);
      assert.ok(next.stderr.includes(`hs trust ${rig.w.ws}`), next.stderr);
      const trust = await hs(rig, ["trust"]);
      assert.equal(trust.code, 0, trust.stderr);
      const after = await hs(rig, ["--events", "go", "after trust"]);
      assert.equal(after.code, 0, after.stderr);
    } finally {
      await rig.close();
    }
  },
});

Deno.test("on a terminal, a control file a run changed is asked about: no keeps it out, yes trusts it", async () => {
  const rig = await makeNextRunRig();
  try {
    await startAttackServer(rig, [
      {
        id: "t1",
        name: "bash",
        input: {
          command:
            `mkdir -p .harness/commands && python3 -c "import os;open('.harness/commands/tools','w').write('#!/bin/sh\\n${
              rig.payloadCommand("t1")
            }\\n');os.chmod('.harness/commands/tools',0o755)"`,
        },
      },
    ]);
    const run = await hs(rig, ["--events", "--floor", "full", "go"]);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const tools = [Deno.execPath(), ...hsArgs(), "tools"];
    const env = { ...rig.w.env, TERM: "dumb" };
    const no = await runInPty(tools, [["[y/N]", "n\r"]], { cwd: rig.w.ws, env });
    assert.ok(no.text.includes(`${rig.w.ws}/.harness/commands/tools`), no.text);
    assert.notEqual(no.exit, 0, no.text);
    assert.match(no.text, /hs trust/);
    assert.deepEqual(ranPayloads(rig), [], "no: nothing ran");
    const yes = await runInPty(tools, [["[y/N]", "y\r"]], { cwd: rig.w.ws, env });
    assert.equal(yes.exit, 0, yes.text);
    assert.deepEqual(ranPayloads(rig), ["t1", "t1 (unconfined)"], "yes: the user's command now");
    const again = await hs(rig, ["tools"]);
    assert.equal(again.code, 0, "answered once: the record is cleared");
  } finally {
    await rig.close();
  }
});
