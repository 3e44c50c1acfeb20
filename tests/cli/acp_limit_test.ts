/**
 * The id of an ACP message over the size limit, read from its head (cli/acp/limit.ts): only a
 * top-level `"id"` counts, never one nested in the params or inside a string.
 */
import assert from "node:assert/strict";
import { idOfHead, limitLines } from "../../cli/acp/mod.ts";

Deno.test("idOfHead: the top-level id only", () => {
  assert.equal(idOfHead('{"jsonrpc":"2.0","id":7,"method":"x","params":{"pad":"'), 7);
  assert.equal(idOfHead('{"id": "req-1" , "method":"x"'), "req-1");
  assert.equal(idOfHead('{"method":"x","params":{"id":9,"pad":"xxxx'), null, "nested");
  assert.equal(idOfHead('{"method":"x","params":{"text":"\\"id\\":3","id":4},"id":5}'), 5);
  assert.equal(idOfHead('{"method":"x","params":{"pad":"xxxxxxxx'), null, "not seen");
  assert.equal(idOfHead("garbage"), null);
});

Deno.test("limitLines: lines within the limit pass whole, a longer one is dropped and reported", async () => {
  const chunks = ["ab", "c\n0123", "456789xyz", "\nde\n", "f"];
  const input = ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c)));
  const dropped: [string, number][] = [];
  const out = limitLines(input, (head, bytes) => {
    dropped.push([new TextDecoder().decode(head), bytes]);
    return Promise.resolve();
  }, 8);
  assert.equal(await new Response(out).text(), "abc\nde\nf");
  assert.deepEqual(dropped, [["0123456789xyz", 13]], "the head spans chunks");
});
