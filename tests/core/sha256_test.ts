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

Deno.test("sha256Hex of bytes equals node:crypto's, also for bytes that are not UTF-8", () => {
  const inputs = [
    new Uint8Array(0),
    new Uint8Array([0xff, 0xfe, 0x00, 0x80]),
    Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff),
  ];
  for (const b of inputs) {
    assert.equal(sha256Hex(b), createHash("sha256").update(b).digest("hex"), `${b.length} bytes`);
  }
  assert.equal(sha256Hex(new TextEncoder().encode("héllo")), sha256Hex("héllo"));
});
