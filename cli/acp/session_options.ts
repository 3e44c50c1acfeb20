/**
 * What an editor chooses per ACP session beyond the prompt: its **mode** — one of the effect
 * floor's presets (`read-only`, `workspace`, `full`), switched with `session/set_mode` — and the
 * **MCP servers** it names in `session/new` / `session/load`, in plugins.json's `servers`
 * shape for the built-in `mcp` plugin. Together with the working directory they pick the
 * harness a session runs on (one per distinct choice, for the connection's lifetime).
 *
 * @module
 */
import type * as Acp from "@agentclientprotocol/sdk";
import { FLOOR_PRESETS } from "../../core/base/mod.ts";

/** A floor preset, as a session mode. */
export type ModeId = typeof FLOOR_PRESETS[number];

const MODES: Record<ModeId, { name: string; description: string }> = {
  "read-only": {
    name: "Read only",
    description: "tools read the workspace and $HARNESS_HOME; nothing is written, nothing reached",
  },
  "workspace": {
    name: "Workspace",
    description: "tools read and write the workspace; no network (hs's default floor)",
  },
  "full": {
    name: "Full access",
    description: "tools may read, write, reach and run anything this hs process may",
  },
};

/** The modes offered, the current one first named by `current`. */
export function modeState(current: ModeId): Acp.SessionModeState {
  return {
    currentModeId: current,
    availableModes: FLOOR_PRESETS.map((id) => ({ id, ...MODES[id] })),
  };
}

/** A mode id the editor sent, checked; the error names the modes there are. */
export function parseMode(id: string): ModeId | string {
  if ((FLOOR_PRESETS as readonly string[]).includes(id)) return id as ModeId;
  return `unknown mode "${id}": the modes are ${FLOOR_PRESETS.join(", ")}`;
}

/** The editor's MCP servers in plugins.json's `servers` shape. */
export function editorServers(
  servers: readonly Acp.McpServer[] | undefined,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of servers ?? []) {
    if ("type" in s && (s.type === "http" || s.type === "sse")) {
      out[s.name] = {
        type: s.type,
        url: s.url,
        headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])),
      };
    } else {
      const stdio = s as Acp.McpServerStdio;
      out[stdio.name] = {
        type: "stdio",
        command: stdio.command,
        args: [...stdio.args],
        env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])),
      };
    }
  }
  return out;
}
