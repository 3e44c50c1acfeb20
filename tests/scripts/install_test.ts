/** scripts/install.ts over its inputs: the bin folder, the launcher command, the ownership line. */
import assert from "node:assert/strict";
import {
  binDir,
  InstallError,
  launcherArgs,
  launcherScript,
  writtenBy,
} from "../../scripts/install.ts";

Deno.test("install: --bin, then $HS_BIN_DIR, then ~/.local/bin", () => {
  const env = { HOME: "/home/u", HS_BIN_DIR: "/opt/bin" };
  assert.equal(binDir(["--bin", "b"], env, "/cwd"), "/cwd/b");
  assert.equal(binDir(["--bin=/x"], env, "/cwd"), "/x");
  assert.equal(binDir([], env, "/cwd"), "/opt/bin");
  assert.equal(binDir([], { HOME: "/home/u" }, "/cwd"), "/home/u/.local/bin");
  assert.throws(() => binDir(["--bin"], env, "/cwd"), InstallError);
});

Deno.test("install: tasks.hs becomes a run from anywhere, cached only, same flags", () => {
  assert.deepEqual(launcherArgs("deno run -q -P=launcher launch.ts", "/co"), [
    "run",
    "--config",
    "/co/deno.json",
    "--cached-only",
    "-q",
    "-P=launcher",
    "/co/launch.ts",
  ]);
  assert.throws(() => launcherArgs("deno task other", "/co"), /not a `deno run` command/);
});

Deno.test("install: the ownership line names the checkout and fails on any edit", async () => {
  const text = await launcherScript("/co'x", "/usr/bin/deno", "deno run -q -P=launcher launch.ts");
  assert.match(text, /exec '\/usr\/bin\/deno' 'run' .*'\/co'\\''x\/launch\.ts' "\$@"\n/);
  assert.equal(await writtenBy(text), "/co'x");
  assert.equal(await writtenBy(text.replace("unset", "unsut")), undefined);
  assert.equal(await writtenBy("#!/bin/sh\necho hi\n"), undefined);
  assert.equal(await writtenBy(""), undefined);
  await assert.rejects(launcherScript("/co\nrm -rf ~", "/d", "deno run x.ts"), InstallError);
});
