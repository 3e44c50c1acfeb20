/**
 * The turn and round boundaries' own seam (issue 26, Kernel III step 2): a boundary runs its
 * guards and hooks — the registries', as packs publish them — through the effect seam's chains,
 * and never enters the dispatcher: no ceiling, no floor, no audit record. A tool call of the
 * same turn still passes all three.
 */
import assert from "node:assert/strict";
import {
  AgentLineage,
  type AuditEvent,
  type EffectCall,
  type Guard,
  type Hook,
  Registries,
} from "../../core/mod.ts";
import { effectSeam } from "../../core/seam.ts";
import { answer, fakeHost, scriptedTurn, withTempDir } from "./loop/_fakes.ts";

const BOT = { kind: "behavior" as const, pack: "pack", bot: "bot" };

/** The real seam wiring with a floor, a ceiling and an audit that record what reaches them. */
function seamWith(guards: Guard[], hooks: Hook[] = []) {
  const registries = new Registries();
  guards.forEach((g, i) => registries.guards.register(BOT, `pack/bot#${i}:${g.id}`, g));
  hooks.forEach((h, i) => registries.effectHooks.register(BOT, `pack/bot#${i}:${h.id}`, h));
  const floorSaw: EffectCall[] = [];
  const ceilingAsked: string[] = [];
  const audit: AuditEvent[] = [];
  const logs: string[] = [];
  const lineage = new AgentLineage();
  const seam = effectSeam({
    registries,
    floor: {
      decide: (call) => {
        floorSaw.push(call);
        return { decision: "allow", rule: "test" };
      },
    },
    audit: {
      hasFailClosed: false,
      emit: (e) => audit.push(e),
      record: (e) => Promise.resolve(audit.push(e) > 0 || "not written"),
    },
    log: (l) => logs.push(l),
    lineage: {
      ceilingOf: (session, own) => {
        ceilingAsked.push(session ?? "");
        return lineage.ceilingOf(session, own);
      },
    },
  });
  return { seam, floorSaw, ceilingAsked, audit, logs };
}

function turnOn(dir: string, s: ReturnType<typeof seamWith>, answers: ReturnType<typeof answer>[]) {
  const host = fakeHost(dir);
  host.dispatch = (call, core) => s.seam.dispatcher.dispatch(call, core);
  host.boundary = (kind, record, principal) => s.seam.boundaries.start(kind, record, principal);
  host.boundaryEnd = (kind, record, principal, outcome) =>
    s.seam.boundaries.end(kind, record, principal, outcome);
  const { turn, provider } = scriptedTurn(host, dir, answers);
  return { turn, provider };
}

Deno.test("a guard/round refusing a round stops the turn with its text; no boundary reaches the floor, the ceiling or the audit, the tool call does", async () => {
  const seen: string[] = [];
  const oneRound: Guard = {
    id: "pack/bot/one-round",
    point: "round",
    middleware: (raw, invoke) => {
      const r = raw as { round: number; phase: string };
      seen.push(`guard round ${r.round} ${r.phase}`);
      return r.round > 1
        ? Promise.resolve({ refused: true, reason: "one round is enough" })
        : invoke(raw);
    },
  };
  const rounds: Hook = {
    id: "pack/bot/rounds",
    point: "round",
    pre: (v) => seen.push(`pre round ${(v as { round: number }).round}`),
    post: (v) => {
      const r = v as { round: number; phase: string; stop: string };
      seen.push(`post round ${r.round} ${r.phase} ${r.stop}`);
    },
  };
  const turnEnd: Hook = {
    id: "pack/bot/turn-end",
    point: "turn",
    postFail: (v, failure) => seen.push(`turn ${(v as { phase: string }).phase}: ${failure}`),
  };
  await withTempDir(async (dir) => {
    const s = seamWith([oneRound], [rounds, turnEnd]);
    const t = turnOn(dir, s, [
      answer("", [{ id: "c1", name: "echo", input: { x: 1 } }]),
      answer("never sent"),
    ]);
    const r = await t.turn.run("hello");
    assert.equal(r.error, true);
    assert.match(r.output, /error: refused by guard pack\/bot\/one-round: one round is enough/);
    assert.equal(t.provider.payloads.length, 1, "the refused round sent no request");
    // the tool call passed the ceiling, the floor and the audit; no boundary did
    assert.deepEqual(s.floorSaw.map((c) => `${c.point}:${c.tool}`), ["tool:echo"]);
    assert.equal(s.ceilingAsked.length, 1);
    assert.deepEqual(
      s.audit.map((e) => `${e.type}:${(e as { tool?: string }).tool}`),
      ["permission:echo", "tool_execution:echo"],
    );
    assert.deepEqual(seen, [
      "guard round 1 start",
      "pre round 1",
      "post round 1 end tool_calls",
      "guard round 2 start",
      // the turn's output is the error display of the refusal (one prefix)
      "turn end: error: refused by guard pack/bot/one-round: one round is enough",
    ]);
  });
});

Deno.test("a guard/turn refusing a turn stops it with the guard's text before any request", async () => {
  const noPasswords: Guard = {
    id: "pack/bot/no-secrets-talk",
    point: "turn",
    match: (call) => /password/.test(String((call.input as { message?: string }).message)),
    middleware: () => Promise.resolve({ refused: true, reason: "no passwords here" }),
  };
  await withTempDir(async (dir) => {
    const s = seamWith([noPasswords]);
    const t = turnOn(dir, s, [answer("never sent")]);
    const r = await t.turn.run("what is the password?");
    assert.equal(r.error, true);
    assert.match(r.output, /error: refused by guard pack\/bot\/no-secrets-talk: no passwords here/);
    assert.equal(t.provider.payloads.length, 0);
    assert.deepEqual([s.floorSaw, s.ceilingAsked, s.audit], [[], [], []]);
  });
});

Deno.test("a boundary's guards keep the dispatcher's semantics: fail closed, guard/retry within its budget, ends not gated", async () => {
  let tries = 0;
  let failed = 0;
  const failing: Guard = {
    id: "g/fails",
    point: "turn",
    match: (call) => (call.input as { message?: string }).message === "fail",
    middleware: () => Promise.reject(new Error(`boom ${++failed}`)),
  };
  const retrying: Guard = {
    id: "g/retries",
    point: "turn",
    match: (call) => (call.input as { message?: string }).message === "retry",
    middleware: () => Promise.resolve({ retry: true, reason: `try ${++tries}` }),
  };
  const s = seamWith([failing, retrying]);
  const b = s.seam.boundaries;
  assert.equal(
    await b.start("turn", { message: "fail" }, "main"),
    "refused by guard g/fails (it failed; guards fail closed)",
  );
  assert.equal(
    await b.start("turn", { message: "retry" }, "main"),
    "refused by guard g/retries: retry budget of 3 exhausted (try 4)",
  );
  assert.equal(await b.start("turn", { message: "hello" }, "main"), undefined);
  // an end is observed by hooks only: the guards (which would refuse) are not asked
  await b.end("turn", { message: "fail" }, "main", { stop: "end", error: false });
  assert.deepEqual([failed, tries], [1, 4]);
  assert.deepEqual([s.floorSaw, s.ceilingAsked, s.audit], [[], [], []]);
});
