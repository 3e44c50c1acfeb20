/** cli/base/plain_flags.ts: the flags a command's quick form takes, and what it leaves to commander. */
import assert from "node:assert/strict";
import { plainFlags } from "../../cli/base/plain_flags.ts";

const KNOWN = { "--json": "json", "--trust-workspace": "trustWorkspace" };

Deno.test("plainFlags: known boolean flags, each once, give commander's options object", () => {
  assert.deepEqual(plainFlags([], KNOWN), {});
  assert.deepEqual(plainFlags(["--json"], KNOWN), { json: true });
  assert.deepEqual(plainFlags(["--trust-workspace", "--json"], KNOWN), {
    trustWorkspace: true,
    json: true,
  });
});

Deno.test("plainFlags: anything else is left to commander (undefined)", () => {
  for (
    const args of [
      ["--json", "--json"],
      ["--help"],
      ["-h"],
      ["name"],
      ["--json=1"],
      ["--toString"],
      ["__proto__"],
    ]
  ) {
    assert.equal(plainFlags(args, KNOWN), undefined, args.join(" "));
  }
});
