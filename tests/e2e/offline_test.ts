/**
 * "After the first run nothing is fetched" (README, issue 24 item 10), with the network
 * really denied: the run happens in a new network namespace (`unshare -n`, only loopback,
 * brought up for the demo's own loopback server). A control run with an empty Deno cache
 * fails there, which shows the namespace denies the network; with the cache this test
 * process already warmed (it runs from it), the demo's full tool-using turn and the
 * installed `hs` succeed and nothing is downloaded. Needs root (or user namespaces) and
 * `ip`; skipped, with the reason, where `unshare -n` is refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliRun, makeWorkspace, REPO } from "../support/workspace.ts";
import { installTask, runExe } from "../support/install.ts";

const NETNS = (() => {
  try {
    return new Deno.Command("unshare", {
      args: ["-n", "sh", "-c", "ip link set lo up"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();
if (!NETNS) {
  console.warn("offline_test: skipped: `unshare -n` (a network namespace) is refused here");
}

/** Runs a command in a fresh network namespace with loopback up. */
function offline(cmd: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  return runExe(
    "unshare",
    ["-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...cmd],
    { cwd, env },
  );
}

Deno.test({
  name: "after a warm-up, the demo and the installed hs run with the network denied",
  ignore: !NETNS,
  fn: async () => {
    const w = await makeWorkspace();
    try {
      const demo = ["task", "-q", "--config", join(REPO, "deno.json"), "demo"];
      // control: a cold cache cannot be filled from inside the namespace
      const cold = await offline([Deno.execPath(), ...demo], {
        ...w.env,
        DENO_DIR: join(w.root, "empty-deno-dir"),
      }, REPO);
      assert.notEqual(cold.code, 0, "a cold cache ran offline: the namespace does not deny");

      const warm = await offline([Deno.execPath(), ...demo], w.env, REPO);
      assert.equal(warm.code, 0, warm.stderr);
      assert.doesNotMatch(warm.stdout + warm.stderr, /Download/);
      assert.match(warm.stdout, /messages are plain markdown/);

      const bin = join(w.root, "bin");
      assert.equal((await installTask("install", bin, w.env)).code, 0);
      const version = await offline([join(bin, "hs"), "version"], w.env, w.ws);
      assert.equal(version.code, 0, version.stderr);
      assert.match(version.stdout, new RegExp(`^hs 0\\.1\\.0 \\(source ${REPO}, rev `));
      const tools = await offline([join(bin, "hs"), "tools"], w.env, w.ws);
      assert.equal(tools.code, 0, tools.stderr);
      assert.match(tools.stdout, /read_file/);
      assert.doesNotMatch(tools.stderr, /Download/);
    } finally {
      await w.cleanup();
    }
  },
});
