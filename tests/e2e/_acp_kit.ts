/**
 * The editor of the ACP end-to-end tests: the official ACP SDK's client app connected to a
 * spawned `hs acp` (through `deno task hs`) over stdio.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { hsArgs } from "../support/workspace.ts";
import type { LoopbackWorkspace } from "../support/workspace.ts";

/** What the editor saw: session updates, permission requests, hs's stderr. */
export interface Seen {
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
  stderr?: string;
}

/** The SDK's client app, before it connects (to register more handlers). */
export type ClientApp = ReturnType<typeof acp.client>;

/**
 * Runs `op` as an editor connected to `hs acp` in the workspace: `answer` picks each
 * permission option; `extend` registers more client methods; hs must exit 0.
 */
export async function editor(
  t: LoopbackWorkspace,
  answer: () => string,
  op: (ctx: acp.ClientContext, seen: Seen) => Promise<void>,
  extraArgs: string[] = [],
  extend: (app: ClientApp) => ClientApp = (app) => app,
): Promise<Seen> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...hsArgs(), "acp", ...extraArgs],
    cwd: t.w.ws,
    env: t.w.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const seen: Seen = { updates: [], permissions: [] };
  const app = extend(
    acp.client({ name: "hs-test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        seen.updates.push(params.update);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        seen.permissions.push(params);
        return { outcome: { outcome: "selected", optionId: answer() } };
      }),
  );
  try {
    await app.connectWith(acp.ndJsonStream(child.stdin, child.stdout), (ctx) => op(ctx, seen));
  } finally {
    try {
      await child.stdin.close();
    } catch { /* closed with the connection */ }
    const status = await child.status;
    seen.stderr = await stderr;
    assert.equal(status.code, 0, `hs acp exited ${status.code}: ${seen.stderr}`);
  }
  return seen;
}

/** `initialize` with the given client capabilities. */
export function initialize(
  ctx: acp.ClientContext,
  clientCapabilities: acp.ClientCapabilities = {},
): Promise<acp.InitializeResponse> {
  return ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
  });
}

/** The tool call updates of the session, by kind. */
export function toolUpdates(u: acp.SessionUpdate[]) {
  return u.filter((x) =>
    x.sessionUpdate === "tool_call" || x.sessionUpdate === "tool_call_update"
  ) as (acp.SessionUpdate & { toolCallId: string; status?: string; content?: unknown })[];
}
