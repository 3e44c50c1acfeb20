/**
 * `deno task install` / `deno task uninstall` (issue 24 item 2): `hs` on PATH from a clone,
 * run from an unrelated directory with a fresh HOME, through this checkout's launcher.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loopbackWorkspace, REPO, runHs, writeFile } from "../support/workspace.ts";
import { installTask, runExe } from "../support/install.ts";

Deno.test("install: the installed hs runs a tool-using turn from an unrelated folder, says where it came from, uninstalls", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "r1", name: "read_file", input: { path: "notes.txt" } }] },
    { text: "The notes say hello." },
  ]);
  const bin = join(t.w.root, "bin");
  try {
    await writeFile(join(t.w.ws, "notes.txt"), "MARKER-FROM-NOTES\n");
    // the user's project is a Deno project of its own: its config is not the harness's
    await writeFile(
      join(t.w.ws, "deno.json"),
      JSON.stringify({ imports: { zod: "npm:zod@0.0.0-none" }, nodeModulesDir: "auto" }),
    );
    const inst = await installTask("install", bin, t.w.env);
    assert.equal(inst.code, 0, inst.stderr);
    assert.match(inst.stdout, new RegExp(`installed ${bin}/hs`));
    assert.match(inst.stdout, /is not on PATH/);

    // from the workspace (nowhere near the checkout), with PATH finding the installed hs
    const env = { ...t.w.env, PATH: `${bin}:${t.w.env.PATH}` };
    const version = await runExe("hs", ["version"], { cwd: t.w.ws, env });
    assert.equal(version.code, 0, version.stderr);
    const git = await new Deno.Command("git", {
      args: ["rev-parse", "--short=12", "HEAD"],
      cwd: REPO,
    })
      .output();
    const rev = new TextDecoder().decode(git.stdout).trim();
    assert.match(rev, /^[0-9a-f]{12}$/, "the checkout has a git revision");
    assert.equal(version.stdout, `hs 0.1.0 (source ${REPO}, rev ${rev})\n`);

    const turn = await runExe("hs", ["what", "do", "the", "notes", "say?"], { cwd: t.w.ws, env });
    assert.equal(turn.code, 0, turn.stderr);
    assert.equal(turn.stdout, "The notes say hello.\n");
    assert.equal(t.server.requests.length, 2);
    // the consequence: the file of the folder it was started in reached the model
    assert.match(JSON.stringify(t.server.requests[1].body), /MARKER-FROM-NOTES/);
    await assert.rejects(Deno.stat(join(t.w.ws, "node_modules")), Deno.errors.NotFound);

    // the same launcher as `deno task hs`: the very same grant, never -A
    const debugEnv = { ...env, HS_LAUNCH_DEBUG: "1" };
    const installed = await runExe("hs", ["tools"], { cwd: t.w.ws, env: debugEnv });
    const task = await runHs(["tools"], { cwd: t.w.ws, env: debugEnv });
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stderr, /--allow-read=/);
    assert.doesNotMatch(installed.stderr, /--allow-all|(^|\s)-A(\s|$)/);
    assert.equal(installed.stderr, task.stderr);
    assert.equal(installed.stdout, task.stdout);

    const un = await installTask("uninstall", bin, t.w.env);
    assert.equal(un.code, 0, un.stderr);
    assert.match(un.stdout, new RegExp(`removed ${bin}/hs`));
    await assert.rejects(Deno.stat(join(bin, "hs")), Deno.errors.NotFound);
  } finally {
    await t.close();
  }
});

Deno.test("uninstall refuses a file install did not write, or one edited since; install will not overwrite one", async () => {
  const t = await loopbackWorkspace([]);
  const bin = join(t.w.root, "bin");
  try {
    await writeFile(join(bin, "hs"), "#!/bin/sh\necho mine\n", 0o755);
    const over = await installTask("install", bin, t.w.env);
    assert.equal(over.code, 1);
    assert.match(over.stderr, /^hs install: .*exists and was not written by `deno task install`/m);
    const refuse = await installTask("uninstall", bin, t.w.env);
    assert.equal(refuse.code, 1);
    assert.match(refuse.stderr, /not written by `deno task install` .*not removed/);
    assert.equal(await Deno.readTextFile(join(bin, "hs")), "#!/bin/sh\necho mine\n");

    await Deno.remove(join(bin, "hs"));
    assert.equal((await installTask("install", bin, t.w.env)).code, 0);
    const written = await Deno.readTextFile(join(bin, "hs"));
    await Deno.writeTextFile(join(bin, "hs"), written.replace("unset INIT_CWD", "echo edited"));
    const edited = await installTask("uninstall", bin, t.w.env);
    assert.equal(edited.code, 1);
    assert.match(edited.stderr, /or was edited since/);
    assert.ok((await Deno.readTextFile(join(bin, "hs"))).includes("echo edited"));

    // a link to an installed script is not the file install wrote
    await Deno.writeTextFile(join(bin, "hs"), written);
    await Deno.rename(join(bin, "hs"), join(t.w.root, "hs-real"));
    await Deno.symlink(join(t.w.root, "hs-real"), join(bin, "hs"));
    const link = await installTask("uninstall", bin, t.w.env);
    assert.equal(link.code, 1, link.stderr);
    assert.ok((await Deno.lstat(join(bin, "hs"))).isSymlink);
  } finally {
    await t.close();
  }
});
