/**
 * Ceilings only narrow (core/guards/lineage.ts): a run's ceiling is its own ∩ its parent's;
 * a plain worker runs under its parent's behavior, a named bot under its own; a child whose
 * parent is unknown holds nothing.
 */
import assert from "node:assert/strict";
import { AgentLineage, narrowCeiling } from "../../core/guards/mod.ts";

const set = (...names: string[]) => new Set(names);

Deno.test("narrowCeiling: undefined does not narrow; sets intersect", () => {
  assert.equal(narrowCeiling(undefined, undefined), undefined);
  assert.deepEqual(narrowCeiling(set("a", "b"), undefined), set("a", "b"));
  assert.deepEqual(narrowCeiling(set("a", "b"), set("b", "c")), set("b"));
});

Deno.test("AgentLineage: workers inherit the ceiling and behavior, bots keep theirs, all within", () => {
  const l = new AgentLineage();
  assert.deepEqual(
    l.enter({ session: "s0", principal: "main", own: set("bash", "agent") }),
    set("bash", "agent"),
  );
  // a plain worker: the parent's ceiling, the parent's behavior
  assert.deepEqual(
    l.enter({ session: "s1", principal: "agent:s0", own: undefined, parent: "s0", worker: true }),
    set("bash", "agent"),
  );
  assert.equal(l.behaviorOf("agent:s0"), "main");
  // its own worker runs under main's behavior too
  l.enter({ session: "s2", principal: "agent:s1", own: undefined, parent: "s1", worker: true });
  assert.equal(l.behaviorOf("agent:s1"), "main");
  assert.deepEqual(l.ceilingOf("s2", undefined), set("bash", "agent"));
  // a named bot: its own tools ∩ the parent's, its own behavior
  assert.deepEqual(
    l.enter({ session: "s3", principal: "bot:x", own: set("bash", "write_file"), parent: "s1" }),
    set("bash"),
  );
  assert.equal(l.behaviorOf("bot:x"), "bot:x");
  assert.deepEqual(l.ceilingOf("s3", set("bash", "write_file")), set("bash"));
  // what a child asks for narrows further, never widens
  assert.deepEqual(
    l.enter({
      session: "s4",
      principal: "agent:s3",
      own: undefined,
      parent: "s3",
      worker: true,
      asked: ["bash", "memory"],
    }),
    set("bash"),
  );
  // a run without a lineage entry keeps its own ceiling
  assert.equal(l.ceilingOf("elsewhere", undefined), undefined);
  // a child of an unknown parent holds nothing
  assert.deepEqual(
    l.enter({
      session: "s9",
      principal: "agent:gone",
      own: undefined,
      parent: "gone",
      worker: true,
    }),
    set(),
  );
  // leaving drops the workers' behavior
  l.leave("s0");
  assert.equal(l.behaviorOf("agent:s0"), "agent:s0");
});
