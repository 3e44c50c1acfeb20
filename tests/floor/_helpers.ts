/**
 * Support for the floor tests: a workspace with secrets planted outside it, a
 * scripted model, and the real CLI run with `--events` so every tool result
 * can be checked.
 *
 * @module
 */
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type { ScriptedServer, ScriptedToolCall } from "../../plugins/scripted/mod.ts";
import {
  BWRAP_OK,
  type CliRun,
  loopbackConf,
  makeWorkspace,
  runHs,
  type Workspace,
  writeExe,
  writeFile,
} from "../support/workspace.ts";

export { BWRAP_OK };

/** Secrets that must never appear in a tool result. */
export const SECRETS = {
  outside: "TOPSECRET-OUTSIDE-7731",
  env: "ENVSECRET-5521",
  dotenv: "DOTENV-SECRET-9911",
  auth: "sk-AUTHSECRET-4242",
};

/** A tool result seen on the event stream. */
export interface ToolOutcome {
  id: string;
  name: string;
  error: boolean;
  result: string;
}

/** A prepared floor workspace. */
export interface FloorRig {
  w: Workspace;
  server?: ScriptedServer;
  /** A TCP listener on loopback that no tool may reach; counts connections. */
  listener: Deno.Listener;
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** An executable tool that tries the same escapes (input: {action, arg}). */
const EVIL_TOOL = `#!/usr/bin/env bash
case "$1" in
  --schema) echo '{"name":"evil","description":"tries things","input_schema":{"type":"object","properties":{"action":{"type":"string"},"arg":{"type":"string"}}}}' ;;
  --describe) echo "tries things" ;;
  --exec)
    input="$(cat)"
    action="$(printf '%s' "$input" | sed -E 's/.*"action":"([^"]*)".*/\\1/')"
    arg="$(printf '%s' "$input" | sed -E 's/.*"arg":"([^"]*)".*/\\1/')"
    case "$action" in
      read) cat "$arg" ;;
      write) echo pwned > "$arg" && echo "wrote $arg" ;;
      net) curl -s -m 2 "http://127.0.0.1:$arg/" && echo "reached" ;;
      env) env ;;
      ok) echo "fine in $PWD" ;;
    esac ;;
esac
`;

/** Creates the workspace, secrets, listener, floor settings and the evil tool. */
export async function makeRig(): Promise<FloorRig> {
  const w = await makeWorkspace();
  await writeFile(join(w.root, "secret.txt"), SECRETS.outside + "\n");
  await Deno.symlink(join(w.root, "secret.txt"), join(w.ws, "link-out"));
  await writeFile(join(w.ws, ".env"), `TOKEN=${SECRETS.dotenv}\n`);
  await writeFile(join(w.ws, "notes.txt"), "hello from the workspace\n");
  await writeFile(
    join(w.home, ".auth.json"),
    JSON.stringify({ loop: [{ type: "api_key", key: SECRETS.auth }] }),
    0o600,
  );
  await writeFile(
    join(w.ws, ".harness", "floor.json"),
    JSON.stringify({ rules: { deny: ["bash(curl *)", "bash(wget *)"], ask: ["bash(git push*)"] } }),
  );
  await writeExe(join(w.ws, ".harness", "tools", "evil"), EVIL_TOOL);
  w.env.HS_SECRET_TOKEN = SECRETS.env;
  // the floor tests never run children unconfined: without bubblewrap they expect refusals
  delete w.env.HARNESS_UNSANDBOXED;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let count = 0;
  (async () => {
    for await (const c of listener) {
      count++;
      c.close();
    }
  })().catch(() => {});
  const rig: FloorRig = {
    w,
    listener,
    port: (listener.addr as Deno.NetAddr).port,
    connections: () => count,
    async close() {
      listener.close();
      await rig.server?.close();
      await w.cleanup();
    },
  };
  return rig;
}

/** Runs the CLI on a scripted model that makes these calls (one per round), then stops. */
export async function runCalls(
  rig: FloorRig,
  calls: ScriptedToolCall[],
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ run: CliRun; outcomes: Map<string, ToolOutcome> }> {
  rig.server = await startScriptedServer([
    ...calls.map((c) => ({ toolCalls: [c] })),
    { text: "done" },
  ]);
  await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(rig.server.url));
  await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
  const run = await runHs(["--events", ...extraArgs, "go"], {
    cwd: rig.w.ws,
    env: { ...rig.w.env, ...env },
  });
  const outcomes = new Map<string, ToolOutcome>();
  for (const line of run.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const e = JSON.parse(line);
    if (e.type === "tool_done") {
      outcomes.set(e.id, { id: e.id, name: e.name, error: e.error, result: e.result });
    }
  }
  await rig.server.close();
  rig.server = undefined;
  return { run, outcomes };
}
