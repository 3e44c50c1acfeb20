/**
 * What the seed 002 sentence tests share: small plugins (a tool, a config recorder, an audit
 * sink), a two-call script, a workspace that is cleaned up, a plugin's state by id.
 */
import type { AuditEvent, RuntimePlugin, ToolResult } from "../../core/mod.ts";
import { textResult } from "../../core/mod.ts";
import { makeWorkspace, type Workspace } from "../support/workspace.ts";
import { scriptedModel } from "../core/plugins/_helpers.ts";

/** A plugin with one read-only tool `name` whose `execute` is `run`. */
export function toolPlugin(
  id: string,
  name: string,
  run: (input: unknown, signal: AbortSignal) => Promise<ToolResult> = () =>
    Promise.resolve(textResult("done")),
): RuntimePlugin {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name,
        description: name,
        inputSchema: { type: "object" },
        readOnly: true,
        execute: (input, tctx) => run(input, tctx.signal),
      });
    },
  };
}

/** A plugin whose setup records the parsed configuration it was given. */
export function configRecorder(id: string, seen: unknown[]): RuntimePlugin<unknown> {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    parseConfig: (raw) => raw,
    setup(ctx) {
      seen.push(ctx.config);
    },
  };
}

/** A sink plugin collecting every audit event. */
export function sinkPlugin(id: string, events: AuditEvent[], sink?: (e: AuditEvent) => void) {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink((e) => {
        events.push(e);
        sink?.(e);
      });
    },
  } satisfies RuntimePlugin;
}

export const twoCalls = (tool: string, input: unknown = {}) =>
  scriptedModel([
    {
      calls: [{ id: "a", name: tool, input }, { id: "b", name: tool, input }],
    },
    { text: "ok" },
  ]);

export async function withWorkspace(fn: (w: Workspace) => Promise<void>): Promise<void> {
  const w = await makeWorkspace();
  try {
    await fn(w);
  } finally {
    // a rejected makeRig already removed it
    await w.cleanup().catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }
}

export function stateOf(h: { admin: { runtimePluginStatus(): { id: string; state: string }[] } }) {
  return (id: string) => h.admin.runtimePluginStatus().find((s) => s.id === id)?.state;
}
