/**
 * A workspace's `.mcp.json` (the file other agents keep their MCP servers in:
 * `{"mcpServers": {name: {command, args, env} | {type, url, headers}}}`) and
 * the user's approval of each server. The file is a control path (tools may
 * not write it); its servers start only in a trusted workspace, each once the
 * user approved it by name. An approval records a hash of what the server
 * would run — type, command, args, env (names and values as written), cwd,
 * read paths, url and header names — so a change asks again, like pack
 * consent. The approvals live in `$HARNESS_HOME/mcp-approvals.json`; a run
 * with `--trust-workspace` approves the workspace's servers for that run only.
 *
 * @module
 */
import { dirname, firstUse, join, resolve } from "../early/mod.ts";
import { z } from "zod";
import {
  atomicWriteSync,
  HarnessError,
  readOwnText,
  readTextOrUndefined,
  sha256Hex,
} from "../base/mod.ts";

/** The file's name at the workspace root. */
export const PROJECT_MCP_FILE = ".mcp.json";

/** The approvals file's name in `$HARNESS_HOME`. */
export const MCP_APPROVALS_FILE = "mcp-approvals.json";

/** One server of a `.mcp.json`, as written (variables not expanded). */
export interface ProjectMcpServer {
  /** The server's name (its key in `mcpServers`). */
  name: string;
  /** The entry as written. */
  raw: Record<string, unknown>;
  /** The hash an approval records (a change asks again). */
  hash: string;
  /** One line for the trust prompt: `command args…` or `type url`. */
  summary: string;
}

/** A workspace's `.mcp.json`, read. */
export interface ProjectMcp {
  /** The file (absolute). */
  file: string;
  /** Its servers by name order (disabled ones left out). */
  servers: ProjectMcpServer[];
  /** Why the file could not be used (invalid JSON, wrong shape). */
  problem?: string;
}

/** A `.mcp.json`'s shape, built when one is first read (most workspaces have none). */
const FileShape = firstUse(() =>
  z.object({
    mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())),
  }).passthrough()
);

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => String(x)) : typeof v === "string" ? [v] : [];
const record = (v: unknown): Record<string, string> =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]).sort())
    : {};

/** The hash of a server entry: what it runs or reaches, header values left out. */
export function mcpServerHash(raw: Record<string, unknown>): string {
  const what = {
    type: typeof raw.type === "string" ? raw.type : raw.url ? "http" : "stdio",
    command: typeof raw.command === "string" ? raw.command : "",
    args: strings(raw.args),
    env: record(raw.env),
    cwd: typeof raw.cwd === "string" ? raw.cwd : "",
    read: strings(raw.read),
    url: typeof raw.url === "string" ? raw.url : "",
    headers: Object.keys(record(raw.headers)),
  };
  return sha256Hex(JSON.stringify(what));
}

function summaryOf(raw: Record<string, unknown>): string {
  if (typeof raw.url === "string") {
    const type = typeof raw.type === "string" ? raw.type : "http";
    const headers = Object.keys(record(raw.headers));
    return `${type} ${raw.url}` + (headers.length ? ` (headers: ${headers.join(", ")})` : "");
  }
  const env = Object.keys(record(raw.env));
  return [String(raw.command ?? "(no command)"), ...strings(raw.args)].join(" ") +
    (env.length ? ` (env: ${env.join(", ")})` : "");
}

/**
 * Reads `<workspace>/.mcp.json`; undefined when there is none. Read it to start servers
 * only in a trusted workspace (the trust prompt reads it to show what trust would start).
 */
export function readProjectMcp(workspace: string): ProjectMcp | undefined {
  const file = join(resolve(workspace), PROJECT_MCP_FILE);
  const text = readTextOrUndefined(file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { file, servers: [], problem: "not valid JSON" };
  }
  const r = FileShape().safeParse(data);
  if (!r.success) return { file, servers: [], problem: 'needs {"mcpServers": {name: {...}}}' };
  const servers = Object.entries(r.data.mcpServers)
    .filter(([, raw]) => raw.disabled !== true)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, raw]) => ({ name, raw, hash: mcpServerHash(raw), summary: summaryOf(raw) }));
  return { file, servers };
}

/** The approvals file's shape, built when it is first read. */
const ApprovalsFile = firstUse(() =>
  z.object({
    version: z.literal(1).default(1),
    /** Workspace → server name → the approved hash. */
    approved: z.record(
      z.string(),
      z.record(z.string(), z.object({ hash: z.string(), at: z.string() })),
    )
      .default({}),
  })
);
type Approvals = z.infer<ReturnType<typeof ApprovalsFile>>;

/** Where a server stands with the user. */
export type McpApproval = "approved" | "new" | "changed";

/** The user's approvals of `.mcp.json` servers (`$HARNESS_HOME/mcp-approvals.json`). */
export class McpApprovals {
  /** The approvals file. */
  readonly path: string;
  /** Workspaces whose servers are approved for this process (`--trust-workspace`). */
  #forRun = new Set<string>();

  /** Opens the approvals of the harness home `home`. */
  constructor(home: string) {
    this.path = join(home, MCP_APPROVALS_FILE);
  }

  #read(): Approvals {
    const text = readOwnText(this.path); // never through a link (nothing approved then)
    if (text === undefined) return { version: 1, approved: {} };
    try {
      return ApprovalsFile().parse(JSON.parse(text));
    } catch {
      throw new HarnessError(
        `${this.path} is not valid`,
        "fix or delete it, then approve the servers again: hs trust",
      );
    }
  }

  /** Approves every server of `workspace` for this process only. */
  approveForRun(workspace: string): void {
    this.#forRun.add(resolve(workspace));
  }

  /** Where `server` of `workspace` stands: approved (this run or on record), new or changed. */
  status(workspace: string, server: Pick<ProjectMcpServer, "name" | "hash">): McpApproval {
    const ws = resolve(workspace);
    if (this.#forRun.has(ws)) return "approved";
    const rec = this.#read().approved[ws]?.[server.name];
    if (!rec) return "new";
    return rec.hash === server.hash ? "approved" : "changed";
  }

  /** Records the approval of `servers` of `workspace` (the person at the terminal). */
  approve(workspace: string, servers: ProjectMcpServer[]): void {
    if (servers.length === 0) return;
    const ws = resolve(workspace);
    const data = this.#read();
    const at = new Date().toISOString();
    const mine = data.approved[ws] ??= {};
    for (const s of servers) mine[s.name] = { hash: s.hash, at };
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteSync(this.path, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
  }
}
