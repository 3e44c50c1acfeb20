/**
 * Every floor decision is a `permission` audit event with rule, principal and
 * decision; no audit event carries file contents or secrets. Runs a full turn
 * in-process against the scripted model with the floor built from a request.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import type { AuditEvent } from "../../core/mod.ts";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { loopbackConf, writeFile } from "../support/workspace.ts";
import { BWRAP_OK, makeRig, SECRETS } from "./_helpers.ts";

Deno.test("every decision is on the audit bus; events carry no contents or secrets", async () => {
  const rig = await makeRig();
  const server = await startScriptedServer([
    {
      toolCalls: [
        { id: "a1", name: "read_file", input: { path: "notes.txt" } },
        { id: "a2", name: "read_file", input: { path: join(rig.w.root, "secret.txt") } },
        { id: "a3", name: "read_file", input: { path: ".env" } },
        { id: "a4", name: "bash", input: { command: "git push origin main" } },
        { id: "a5", name: "bash", input: { command: "env curl example.com" } },
        { id: "a6", name: "write_file", input: { path: "x.txt", content: SECRETS.dotenv } },
      ],
    },
    { text: "done" },
  ]);
  await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
  await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
  const events: AuditEvent[] = [];
  const h = await Harness.create({
    cwd: rig.w.ws,
    env: { ...rig.w.env },
    userPlugins: false,
    log: () => {},
    floorRequest: { warn: () => {} },
  });
  try {
    h.audit.add("probe", (e) => {
      events.push(e);
    });
    const r = await h.run({ message: "go", provider: "loop" });
    assert.equal(r.error, false, r.message);
    await h.audit.remove("probe");
    const perms = events.filter((e) => e.type === "permission") as Extract<
      AuditEvent,
      { type: "permission" }
    >[];
    // an ask has a decision record and, right after it, its response record
    const asked = BWRAP_OK ? [["bash", "ask", "decision"], ["bash", "deny", "response"]] : [[
      "bash",
      "deny",
      "decision",
    ]];
    assert.deepEqual(
      perms.map((p) => [p.tool, p.decision, p.record]),
      [
        ["read_file", "allow", "decision"],
        ["read_file", "deny", "decision"],
        ["read_file", "deny", "decision"],
        ...asked, // ask, headless → deny
        ["bash", "deny", "decision"],
        ["write_file", "allow", "decision"],
      ],
    );
    const decisions = perms.filter((p) => p.record === "decision");
    assert.equal(decisions.length, 6, JSON.stringify(perms));
    const by = (i: number) => decisions[i];
    assert.equal(by(1).rule, "floor.read");
    assert.equal(by(2).rule, "read_file(**/.env)");
    // an ask needs no prompt when there is no sandbox to run the command in
    assert.equal(by(3).rule, BWRAP_OK ? "bash(git push*)" : "floor.sandbox");
    assert.equal(by(4).rule, "bash(curl *)");
    for (const p of perms) assert.equal(p.principal, "main");
    const execs = events.filter((e) => e.type === "tool_execution");
    assert.equal(execs.length, 6);
    const all = JSON.stringify(events);
    for (const s of Object.values(SECRETS)) assert.ok(!all.includes(s), `audit leaked ${s}`);
    assert.ok(!all.includes("hello from the workspace"), "audit leaked file contents");
  } finally {
    await h.close();
    await server.close();
    await rig.close();
  }
});
