/**
 * Support for the own-state tests: a workspace with the stored key in `$HARNESS_HOME`,
 * the provider configured there, every run's output kept, and the check that the key
 * reached nothing.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedServer, ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  type CliRun,
  loopbackConf,
  makeWorkspace,
  runHs,
  type Workspace,
  writeFile,
} from "../support/workspace.ts";

export const KEY = "sk-OWNSTATE-KEY-60613";

export interface Rig {
  w: Workspace;
  server: ScriptedServer;
  /** Every run's output, to look for the key in. */
  outputs: CliRun[];
  hs(args: string[]): Promise<CliRun>;
  close(): Promise<void>;
}

/** A workspace with the key stored in `$HARNESS_HOME` and the provider configured there. */
export async function rig(
  script: ScriptedTurn[] | ((w: Workspace) => ScriptedTurn[]),
  trusted: boolean,
): Promise<Rig> {
  const w = await makeWorkspace({ trusted });
  const server = await startScriptedServer(typeof script === "function" ? script(w) : script);
  await writeFile(
    join(w.home, ".auth.json"),
    JSON.stringify({ loop: [{ type: "api_key", key: KEY }] }),
    0o600,
  );
  await writeFile(join(w.home, "providers/loop.conf"), loopbackConf(server.url));
  await writeFile(join(w.home, "settings.conf"), "provider=loop\n");
  await writeFile(join(w.ws, "notes.txt"), "hello\n");
  const outputs: CliRun[] = [];
  return {
    w,
    server,
    outputs,
    async hs(args) {
      const r = await runHs(args, { cwd: w.ws, env: w.env });
      outputs.push(r);
      return r;
    },
    async close() {
      await server.close();
      await w.cleanup();
    },
  };
}

/** The key reached nothing: no request body (the header carries it by design), no output. */
export function assertKeyNowhere(r: Rig): void {
  for (const [i, req] of r.server.requests.entries()) {
    assert.ok(!JSON.stringify(req.body).includes(KEY), `request ${i} carried the stored key`);
  }
  for (const out of r.outputs) {
    assert.ok(!out.stdout.includes(KEY), `hs printed the key on stdout:\n${out.stdout}`);
    assert.ok(!out.stderr.includes(KEY), `hs printed the key on stderr:\n${out.stderr}`);
  }
}

export const bash = (id: string, command: string): ScriptedTurn => ({
  toolCalls: [{ id, name: "bash", input: { command } }],
});
