/**
 * `HARNESS_COMPACT_AT` and `HARNESS_COMPACT_KEEP`: parsed once, defaults, and a malformed value
 * is an error naming the variable.
 */
import assert from "node:assert/strict";
import { parseConfig } from "../../core/config/mod.ts";

Deno.test("HARNESS_COMPACT_AT: default 80 %, a percentage with or without %, off; KEEP default 2", () => {
  assert.equal(parseConfig({}).compactAt, 0.8);
  assert.equal(parseConfig({}).compactKeep, 2);
  assert.equal(parseConfig({ HARNESS_COMPACT_AT: "60" }).compactAt, 0.6);
  assert.equal(parseConfig({ HARNESS_COMPACT_AT: "92.5%" }).compactAt, 0.925);
  assert.equal(parseConfig({ HARNESS_COMPACT_AT: "off" }).compactAt, 0);
  assert.equal(parseConfig({ HARNESS_COMPACT_AT: "0" }).compactAt, 0);
  assert.equal(parseConfig({ HARNESS_COMPACT_KEEP: "5" }).compactKeep, 5);
});

Deno.test("HARNESS_COMPACT_AT: a malformed value names the variable", () => {
  for (const bad of ["lots", "150", "-3"]) {
    assert.throws(() => parseConfig({ HARNESS_COMPACT_AT: bad }), /HARNESS_COMPACT_AT/, bad);
  }
  assert.throws(() => parseConfig({ HARNESS_COMPACT_KEEP: "two" }), /HARNESS_COMPACT_KEEP/);
});
