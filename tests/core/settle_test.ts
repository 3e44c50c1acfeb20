/** `settlesWithin`: the bounded wait the audit bus, MCP transport, shell and close share. */
import assert from "node:assert/strict";
import { settlesWithin } from "../../core/base/mod.ts";

Deno.test("settlesWithin: true for a promise that fulfils or rejects in time; a rejection is not thrown", async () => {
  assert.equal(await settlesWithin(Promise.resolve(1), 1000), true);
  assert.equal(await settlesWithin(Promise.reject(new Error("no")), 1000), true);
});

Deno.test("settlesWithin: false for one that does not settle; no timer is left behind", async () => {
  let resolve = () => {};
  const pending = new Promise<void>((r) => resolve = r);
  assert.equal(await settlesWithin(pending, 20), false);
  resolve();
  // the test's op sanitizer fails this test if the 1 s timer of the first case outlived it
  assert.equal(await settlesWithin(pending, 1000), true);
});
