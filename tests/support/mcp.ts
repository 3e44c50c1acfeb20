/**
 * Test support for MCP: the real servers from npm (`tests/mcp/deno.json`, installed by
 * `deno install --config tests/mcp/deno.json`, which .ci/run does), started with
 * `deno run --cached-only` so that a test never reaches the network.
 *
 * @module
 */
import { join } from "node:path";
import { REPO } from "./workspace.ts";

/** The npm MCP servers the tests use. */
export type McpTestServer = "server-everything" | "server-filesystem" | "server-memory";

/** An `mcp` plugin server entry (stdio) running one of the npm servers. */
export function mcpServer(
  pkg: McpTestServer,
  args: string[] = [],
  env: Record<string, string> = {},
): { command: string; args: string[]; env: Record<string, string>; read: string[] } {
  const denoDir = Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--cached-only",
      "--config",
      join(REPO, "tests/mcp/deno.json"),
      `npm:@modelcontextprotocol/${pkg}`,
      ...args,
    ],
    env: { DENO_DIR: denoDir, ...env },
    // inside the OS sandbox the server reads its config and the npm cache
    read: [join(REPO, "tests/mcp"), denoDir],
  };
}
