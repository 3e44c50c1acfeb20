/**
 * A session-scope named bot's instances (seed 000 §2 "scope … names where one instance lives"):
 * its published program routes each call to the instance of the conversation it runs for, and
 * a copy loaded for another conversation must hash as approved.
 */
import assert from "node:assert/strict";
import {
  type BehaviorProgram,
  type EffectCall,
  perConversation,
  resultText,
  textResult,
  type ToolContext,
  type ToolResult,
} from "../../core/mod.ts";

const text = (r: unknown) => resultText(r as ToolResult);

/** A program whose guard, tool and hook answer which copy they are. */
function copy(name: string, hash = "h1", seen: string[] = []): BehaviorProgram {
  return {
    guards: [{
      id: "g",
      point: "shell",
      middleware: () => Promise.resolve(textResult(`guard of ${name}`)),
    }],
    hooks: [{ id: "h", point: "shell", post: () => void seen.push(`hook of ${name}`) }],
    tools: [{
      name: "t",
      description: "",
      inputSchema: { type: "object" },
      execute: () => Promise.resolve(textResult(`tool of ${name}`)),
    }],
    consent: [{ hash, guard: "g", point: "shell", loc: "x.scm:1:1" }],
    validateConfiguration: () => Promise.resolve(undefined),
  };
}

const callIn = (session: string): EffectCall => ({
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core" },
  principal: "bot:b",
  callId: "c",
  input: {},
  session,
});

Deno.test("each conversation gets its own instance; the first conversation gets the first copy", async () => {
  const seen: string[] = [];
  let loads = 0;
  // runs s1 and s1-child belong to conversation A, s2 to B
  const conversations: Record<string, string> = { s1: "A", "s1-child": "A", s2: "B" };
  const p = perConversation(
    copy("first", "h1", seen),
    (session, dir) => conversations[session ?? dir ?? ""],
    () => Promise.resolve(copy(`copy ${++loads}`, "h1", seen)),
  );
  const guard = (s: string) =>
    p.guards[0].middleware({}, () => Promise.resolve(textResult("")), callIn(s));
  assert.equal(text(await guard("s1")), "guard of first");
  assert.equal(text(await guard("s1-child")), "guard of first");
  assert.equal(text(await guard("s2")), "guard of copy 1");
  const ctx = { sessionDir: "s2" } as ToolContext;
  assert.equal(resultText(await p.tools[0].execute({}, ctx)), "tool of copy 1");
  await p.hooks[0].post?.({}, textResult(""), callIn("s1"));
  await p.hooks[0].post?.({}, textResult(""), callIn("s2"));
  assert.deepEqual(seen, ["hook of first", "hook of copy 1"]);
  // outside any run: the first copy
  assert.equal(text(await guard("nowhere")), "guard of first");
  assert.equal(loads, 1);
});

Deno.test("a copy whose guards no longer hash as approved is refused (guards fail closed)", async () => {
  const p = perConversation(
    copy("first"),
    (session) => session,
    () => Promise.resolve(copy("changed", "h2")),
  );
  const guard = (s: string) =>
    p.guards[0].middleware({}, () => Promise.resolve(textResult("")), callIn(s));
  await guard("A");
  await assert.rejects(guard("B"), /changed since its guards were approved.*hs packs approve/);
});
