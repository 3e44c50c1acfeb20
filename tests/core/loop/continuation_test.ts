/**
 * The continuation decision (core/loop/continuation.ts; seed 000 §6) with plain notes.
 */
import assert from "node:assert/strict";
import { Continuation, type Note } from "../../../core/loop/continuation.ts";

const note = (kind: Note["kind"], message: string, extra: Partial<Note> = {}): Note => ({
  kind,
  from: "p/b",
  message,
  boundary: "round",
  at: "end",
  ...extra,
});

Deno.test("'Two plugins share one continuation decision': activating notes and loop-end addenda are ORed, consumed once", () => {
  const c = new Continuation();
  assert.equal(c.shouldContinue(), false);
  c.add(note("activating", "from a", { from: "a/x" }));
  c.add(note("activating", "from b", { from: "b/y" }));
  c.addendum("an addendum");
  assert.equal(c.shouldContinue(), true);
  assert.deepEqual(c.activate(), ["from a", "from b", "an addendum"]);
  assert.equal(c.shouldContinue(), false, "consumed");
  c.addendum("only an addendum");
  assert.equal(c.shouldContinue(), true);
});

Deno.test("ambient, empty and round-start notes never continue; origin notes are shown only", () => {
  const c = new Continuation();
  c.add(note("ambient", "context"));
  c.add(note("activating", "   "));
  c.add(note("activating", "at the start", { at: "start" }));
  c.add(note("origin", "look"));
  assert.equal(c.shouldContinue(), false);
  assert.deepEqual(c.shown.map((n) => n.message), ["look"]);
  assert.deepEqual(c.takeContext(), ["context", "at the start"]);
  assert.deepEqual(c.takeContext(), [], "'Notes are consumed once.'");
});

Deno.test("'Turn-end activation is rejected.' 'Cancellation is not reactivated.' 'Unused round-end notes expire with the turn.'", () => {
  const c = new Continuation();
  assert.throws(
    () => c.add(note("activating", "again", { boundary: "turn", at: "end" })),
    /turn-end activation is rejected/,
  );
  c.add(note("activating", "left"));
  c.expire();
  assert.equal(c.shouldContinue(), false);
  c.add(note("activating", "before the cancel"));
  c.cancel();
  c.add(note("activating", "after the cancel"));
  c.addendum("an addendum");
  assert.equal(c.shouldContinue(), false);
  assert.deepEqual(c.takeContext(), []);
});
