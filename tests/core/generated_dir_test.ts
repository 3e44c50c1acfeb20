/** core/generated_dir.ts: the content hash is 64-bit FNV-1a, as the names of existing directories have it. */
import assert from "node:assert/strict";
import { contentHash } from "../../core/generated_dir.ts";

/** The reference FNV-1a 64 (BigInt), as the directories were first named with. */
function reference(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text)) {
    h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  }
  return h.toString(16).padStart(16, "0");
}

Deno.test("contentHash is FNV-1a 64: the known vectors and the BigInt reference on many texts", () => {
  assert.equal(contentHash(""), "cbf29ce484222325");
  assert.equal(contentHash("a"), "af63dc4c8601ec8c");
  assert.equal(contentHash("foobar"), "85944171f73967e8");
  const texts = Array.from({ length: 300 }, (_, n) => "xyz\0\u00e9🎉\n".repeat(40).slice(0, n));
  texts.push("#!/bin/sh\n".repeat(5000), "\xff".repeat(1000));
  for (const t of texts) assert.equal(contentHash(t), reference(t), JSON.stringify(t.slice(0, 20)));
});
