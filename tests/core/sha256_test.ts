/** core/base/sha256.ts: the digest node:crypto gives, on the lengths around a block's edges. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex } from "../../core/base/sha256.ts";

Deno.test("sha256Hex equals node:crypto's SHA-256 for every length 0–200 and for Unicode paths", () => {
  const texts = Array.from({ length: 201 }, (_, n) => "abcdefghij".repeat(21).slice(0, n));
  texts.push("/home/me/src/my app", "/tmp/日本語/ワーク", "/emoji/🎉/x", "a".repeat(100_000));
  for (const t of texts) {
    assert.equal(sha256Hex(t), createHash("sha256").update(t).digest("hex"), `length ${t.length}`);
  }
});
