/**
 * The next-run escape suite, git and hs's own state (issue 23, causes 3 and
 * 4): the agent plants hooks and configuration in the user's repository, makes
 * a repository where there is none, or reaches hs's own state through a link;
 * the user's next `git status` / `git commit` and the next runs must run none
 * of it. Each row is one attempt; a table shares one scripted run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BWRAP_OK } from "./_helpers.ts";
import {
  attemptList,
  call,
  escapes,
  git,
  hs,
  makeNextRunRig,
  mk,
  outcomesOf,
  plantRows,
  sh,
  startAttackServer,
} from "./_next_run.ts";

Deno.test({
  name: "agent-planted git hooks and config never run on the user's next git status / commit",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeNextRunRig();
    try {
      const { list, add } = attemptList("g");
      const g = { name: "gh", dir: ".git" };
      plantRows(rig, add, ".git/hooks/pre-commit", () => ".git/hooks/pre-commit", g);
      plantRows(rig, add, ".git/hooks/post-commit", () => ".git/hooks/post-commit", g);
      const fsm = (id: string) => `[core]\\n\\tfsmonitor = ${rig.payloadCommand(id)}\\n`;
      const cfg = () => [".git/config"];
      add("git config core.fsmonitor", (id) => [
        sh(`git config core.fsmonitor '${rig.payloadCommand(id)}'`),
      ], cfg);
      add("git config core.hooksPath to an agent folder", (id) => [
        sh(
          `${
            mk(rig, id)
          } && mkdir -p hk-${id} && cp p-${id}.sh hk-${id}/pre-commit && git config core.hooksPath hk-${id}`,
        ),
      ]);
      add("append to .git/config", (id) => [sh(`printf '${fsm(id)}' >> .git/config`)], cfg);
      add("cd .git && git config", (id) => [
        sh(`cd .git && git config core.fsmonitor '${rig.payloadCommand(id)}'`),
      ], cfg);
      add("GIT_DIR=.git git config --local", (id) => [
        sh(`GIT_DIR=.git git config --local core.fsmonitor '${rig.payloadCommand(id)}'`),
      ], cfg);
      add("write_file .git/config", (id) => [
        call("write_file", {
          path: ".git/config",
          content: `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ${
            rig.payloadCommand(id)
          }\n`,
        }),
      ], cfg);
      add("write_file .git/config through a symlinked .git", (id) => [
        call("write_file", {
          path: "gh/config",
          content: `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ${
            rig.payloadCommand(id)
          }\n`,
        }),
      ], cfg);
      add("edit_file .git/config (append)", (id) => [
        call("edit_file", {
          path: ".git/config",
          edits: [{
            type: "append_file",
            content: `[core]\n\tfsmonitor = ${rig.payloadCommand(id)}\n`,
          }],
        }),
      ], cfg);
      add("a hard link to .git/config, appended to", (id) => [
        sh(`ln .git/config gc-${id} && printf '${fsm(id)}' >> gc-${id}`),
      ], cfg);
      add("python3 appends to .git/config", (id) => [
        sh(
          `python3 -c "open('.git/config','a').write('[core]\\n\\tfsmonitor = ${
            rig.payloadCommand(id)
          }\\n')"`,
        ),
      ], cfg);
      add("sed -i .git/config", (id) => [
        sh(`sed -i 's#^\\[core\\]#[core]\\n\\tfsmonitor = ${rig.payloadCommand(id)}#' .git/config`),
      ], cfg);
      add(".git/config replaced by a symlink", (id) => [
        sh(`printf '${fsm(id)}' > cfg-${id} && ln -sf ../cfg-${id} .git/config`),
      ]);
      add("mv .git away, copy it back, configure the copy", (id) => [
        sh(
          `mv .git g-${id} && cp -r g-${id} .git && git config core.fsmonitor '${
            rig.payloadCommand(id)
          }'`,
        ),
      ], cfg);
      add("chmod +x whatever landed in .git/hooks", () => [sh("chmod +x .git/hooks/* 2>&1; true")]);
      await startAttackServer(rig, [sh("ln -s .git gh"), ...list.flatMap((a) => a.calls)]);
      const run = await hs(rig, ["--events", "go"]);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      const outcomes = outcomesOf(run);
      const status = await git(rig, "status", "--short");
      const commit = await git(rig, "commit", "-q", "--allow-empty", "-m", "user commit");
      const found = escapes(rig, list, outcomes);
      console.log(`next-run suite (git): ${list.length} attempts, ${found.length} escapes`);
      assert.deepEqual(found, [], `${status.stderr}\n${commit.stderr}`);
      assert.equal(commit.code, 0, `the user's repository still works: ${commit.stderr}`);
    } finally {
      await rig.close();
    }
  },
});

Deno.test({
  name: "hs's own state and missing control paths (no .git yet) stay out of reach, run after run",
  ignore: !BWRAP_OK,
  fn: async () => {
    const rig = await makeNextRunRig();
    try {
      // this workspace is no repository: the user's git finds none, and the agent makes none
      Deno.removeSync(join(rig.w.ws, ".git"), { recursive: true });
      const home = rig.w.home;
      const { list, add } = attemptList("s");
      const gitCfg = (id: string) => `git config core.fsmonitor '${rig.payloadCommand(id)}'`;
      add("git init the workspace, then core.fsmonitor", (id) => [
        sh(`git init -q . ; ${gitCfg(id)}`),
      ], () => [".git/config"]);
      add("mkdir .git/hooks + a pre-commit", (id) => [
        sh(`${mk(rig, id)} && mkdir -p .git/hooks && cp p-${id}.sh .git/hooks/pre-commit`),
      ], () => [".git/hooks/pre-commit"]);
      add("write_file a missing .git/config", (id) => [
        call("write_file", {
          path: ".git/config",
          content: `[core]\n\tfsmonitor = ${rig.payloadCommand(id)}\n`,
        }),
      ], () => [".git/config"]);
      add("a .git made elsewhere and moved in", (id) => [
        sh(
          `mkdir -p g-${id} && git -C g-${id} init -q && git -C g-${id} config core.fsmonitor '${
            rig.payloadCommand(id)
          }' && mv g-${id}/.git .git`,
        ),
      ], () => [".git/config"]);
      add("create .harness/sessions (hs would store sessions there)", () => [
        sh("mkdir -p .harness/sessions/planted"),
      ]);
      add("write_file into the harness home through a symlink (plugins.json)", () => [
        call("write_file", { path: "hm/plugins.json", content: '{"runtimePlugins":[]}' }),
      ]);
      add("write_file the run-change record empty through a symlink", () => [
        call("write_file", { path: "hm/run-changes.json", content: "{}" }),
      ]);
      add("edit_file trust.json through a symlink", () => [
        call("edit_file", {
          path: "hm/trust.json",
          edits: [{ type: "append_file", content: " " }],
        }),
      ]);
      add("bash cp into the harness home through a symlink", () => [
        sh("cp notes.txt hm/plugins.json; cp notes.txt hm/floor.json"),
      ]);
      add("bash rm the harness home's records through a symlink", () => [
        sh("rm -f hm/run-changes.json hm/trust.json"),
      ]);
      const calls = [sh(`ln -s ${home} hm`), ...list.flatMap((a) => a.calls)];
      const second = calls.slice(1).map((c) => ({ toolCalls: [{ ...c, id: `${c.id}b` }] }));
      await startAttackServer(rig, calls, [...second, { text: "second done" }]);
      const run = await hs(rig, ["--events", "go"]);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      // the same attempts again, now that the placeholders of the first run exist
      const again = await hs(rig, ["--events", "go", "again"]);
      assert.equal(again.code, 0, again.stderr.slice(-2000));
      const outcomes = new Map([...outcomesOf(run), ...outcomesOf(again)]);
      const found = escapes(rig, list, outcomes);
      for (const a of list) {
        for (const c of a.calls) if (!outcomes.has(`${c.id}b`)) found.push(`${c.id}b not answered`);
      }
      const status = await git(rig, "status");
      if (status.code === 0) found.push("the workspace became a git repository");
      if (await Deno.stat(join(rig.w.ws, ".harness/sessions")).then(() => true, () => false)) {
        found.push(".harness/sessions exists");
      }
      for (const f of ["plugins.json", "floor.json"]) {
        if (await Deno.stat(join(home, f)).then(() => true, () => false)) {
          found.push(`${f} written`);
        }
      }
      if (!Deno.readTextFileSync(join(home, "trust.json")).includes(rig.w.root)) {
        found.push("trust.json changed");
      }
      for (const line of [run.stderr, again.stderr]) {
        const m = /session: (\S+)/.exec(line);
        if (m && m[1].startsWith(rig.w.ws)) found.push(`a session went to ${m[1]}`);
      }
      console.log(
        `next-run suite (state, missing paths): ${list.length} attempts ×2, ${found.length} escapes`,
      );
      assert.deepEqual(found, []);
    } finally {
      await rig.close();
    }
  },
});
