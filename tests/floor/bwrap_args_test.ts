import assert from "node:assert/strict";
import { withoutNested } from "../../core/mod.ts";

Deno.test("read-only binds: duplicates and nested paths are dropped, order kept", () => {
  assert.deepEqual(
    withoutNested([
      "/usr",
      "/bin",
      "/usr/local/bin",
      "/bin",
      "/root/.pyenv/shims",
      "/root/.pyenv",
      "/work/ws/",
    ]),
    ["/usr", "/bin", "/root/.pyenv", "/work/ws"],
  );
  // a sibling with a common prefix is not nested
  assert.deepEqual(withoutNested(["/usr", "/usrlocal"]), ["/usr", "/usrlocal"]);
  assert.deepEqual(withoutNested(["/", "/etc"]), ["/"]);
});
