/** core/sources.ts: the built-ins' directory is made on its first read, once; the home alone (harnessHome). */
import assert from "node:assert/strict";
import { harnessHome, resolvePaths, Sources, type SourcesInit } from "../../core/mod.ts";

Deno.test("Sources.builtin: a lazy directory is made on first read, once; a set one replaces it", () => {
  const sources = new Sources({} as SourcesInit); // builtin reads nothing of the init
  let made = 0;
  sources.lazyBuiltin(() => {
    made++;
    return "/cache/builtin-x";
  });
  assert.equal(made, 0, "nothing written before it is needed");
  assert.equal(sources.builtin, "/cache/builtin-x");
  assert.equal(sources.builtin, "/cache/builtin-x");
  assert.equal(made, 1);
  sources.lazyBuiltin(() => undefined);
  assert.equal(sources.builtin, undefined, "a directory that cannot be written: none");
  sources.lazyBuiltin(() => {
    throw new Error("not called");
  });
  sources.builtin = "/set";
  assert.equal(sources.builtin, "/set");
});

Deno.test("harnessHome is resolvePaths' home, without choosing the sessions directory", () => {
  const cwd = Deno.cwd();
  for (
    const env of [
      { HOME: "/home/me" },
      { HOME: "/home/me", HARNESS_HOME: "/elsewhere/hs" },
      { HARNESS_HOME: "" },
      {},
    ] as Record<string, string | undefined>[]
  ) {
    assert.equal(harnessHome(env), resolvePaths(env, cwd).home, JSON.stringify(env));
  }
  assert.equal(harnessHome({ HOME: "/home/me" }), "/home/me/.harness");
});
