/**
 * What the README says of the release binaries (issue 24 item 2): the release workflow bakes
 * the commit into each executable's `--version` and publishes a SHA-256 sums file beside them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { REPO } from "../support/workspace.ts";

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

Deno.test("the release workflow bakes the revision and publishes SHA256SUMS with the binaries", async () => {
  const wf = parse(await Deno.readTextFile(join(REPO, ".github/workflows/release.yml"))) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  const compile = wf.jobs.compile.steps.find((s) => s.run?.includes("scripts/build.ts compile"));
  assert.ok(compile, "a compile step");
  assert.equal(compile.env?.HS_REVISION, "${{ github.sha }}");
  const smoke = wf.jobs.compile.steps.find((s) => s.run?.includes("--version"));
  assert.match(smoke?.run ?? "", /\(rev /);
  const sums = wf.jobs.publish.steps.find((s) => s.run?.includes("sha256sum"));
  assert.match(sums?.run ?? "", /sha256sum hs-\* > SHA256SUMS/);
  const upload = wf.jobs.publish.steps.find((s) => s.with?.files);
  assert.match(upload?.with?.files ?? "", /dist\/hs-\*/);
  assert.match(upload?.with?.files ?? "", /dist\/SHA256SUMS/);
});
