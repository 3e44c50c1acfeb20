/** core/base/log.ts `redactingLog`: no secret's value reaches a log line. */
import assert from "node:assert/strict";
import { REDACTED, redactingLog } from "../../core/base/mod.ts";

function recorder() {
  const lines: string[] = [];
  const sink = (line: string) => void lines.push(line);
  return { lines, sink };
}

Deno.test("redactingLog: every value of 8 or more characters is replaced, shorter ones left", () => {
  const { lines, sink } = recorder();
  const log = redactingLog(sink, () => ["sk-0123456789", "short", "sk-0123456789"]);
  log("key sk-0123456789 twice sk-0123456789, short stays");
  assert.deepEqual(lines, [`key ${REDACTED} twice ${REDACTED}, short stays`]);
});

Deno.test("redactingLog: a value holding another is replaced whole", () => {
  const { lines, sink } = recorder();
  const log = redactingLog(sink, () => ["abcdefgh", "abcdefgh-and-more"]);
  log("x abcdefgh-and-more y abcdefgh");
  assert.deepEqual(lines, [`x ${REDACTED} y ${REDACTED}`]);
});

Deno.test("redactingLog: the values are asked again only after freshMs", () => {
  const { lines, sink } = recorder();
  let values = ["first-secret"];
  const log = redactingLog(sink, () => values, 60_000);
  log("one first-secret");
  values = ["second-secret"];
  log("two second-secret first-secret");
  assert.deepEqual(lines, [`one ${REDACTED}`, `two second-secret ${REDACTED}`]);
  const every = redactingLog(sink, () => values, 0);
  every("three second-secret");
  assert.equal(lines[2], `three ${REDACTED}`);
});

Deno.test("redactingLog: a line logged while the secrets are asked for is still written", () => {
  const { lines, sink } = recorder();
  let log: (line: string) => void = () => {};
  let first = true;
  log = redactingLog(sink, () => {
    if (first) (first = false), log("asking for secrets-1234");
    return ["secrets-1234"];
  });
  log("the line secrets-1234");
  // the nested line had only the values known before (none yet); the outer one is redacted
  assert.deepEqual(lines, ["asking for secrets-1234", `the line ${REDACTED}`]);
});

Deno.test("redactingLog: secrets() that throws keeps the values known before, and close reaches the sink", () => {
  const { lines, sink } = recorder();
  let closed = false;
  let calls = 0;
  const withClose = Object.assign(sink, { close: () => void (closed = true) });
  // asked for every line (freshMs 0): the second asking throws
  const log = redactingLog(withClose, () => {
    if (calls++ > 0) throw new Error("unreadable");
    return ["known-value-1"];
  }, 0);
  log("a known-value-1");
  log("b known-value-1");
  assert.equal(calls, 2);
  assert.deepEqual(lines, [`a ${REDACTED}`, `b ${REDACTED}`]);
  log.close?.();
  assert.ok(closed);
});
