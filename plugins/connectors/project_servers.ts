/**
 * The servers of the workspace's `.mcp.json` as the `mcp` plugin starts them:
 * read only when the workspace is trusted, each started only once the user
 * approved it by name (core/trust `project_mcp.ts`: a changed command, args or
 * URL asks again; `--trust-workspace` approves them for its run). `${VAR}` in
 * the file is expanded from the environment without credentials — a project
 * file can never copy a provider key out of the user's environment — and a
 * server's own environment holds only the base variables and what it names.
 * A server the user's plugins.json names too is the user's.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import {
  buildChildEnv,
  HarnessError,
  PROJECT_MCP_FILE,
  readProjectMcp,
  statOrUndefined,
} from "../../core/mod.ts";
import { type McpServerConfig, projectServerConfig } from "./mcp_config.ts";

/** What the plugin asks the harness's trust store (core/trust `TrustStore`). */
export interface McpTrust {
  /** Is a `.harness` directory (here: the workspace's) trusted? */
  isTrusted(harnessDir: string): boolean;
  /** The approvals of `.mcp.json` servers. */
  readonly mcp: {
    /** Where a server (by name and hash) of a workspace stands with the user. */
    status(
      workspace: string,
      server: { name: string; hash: string },
    ): "approved" | "new" | "changed";
  };
}

/** A server the plugin will try, or one it will not start and why. */
export interface PlannedServer {
  /** The server's name. */
  name: string;
  /** Where it was configured. */
  origin: "plugins.json" | ".mcp.json" | "editor";
  /** Its configuration, when it may start. */
  cfg?: McpServerConfig;
  /** Its transport as written (`stdio`, `http`, `sse`). */
  type: string;
  /** Why it does not start (not approved, invalid, named twice). */
  blocked?: string;
  /** The state shown for a blocked server. */
  state?: "not approved" | "failed" | "skipped";
}

/** What the plan says about the file itself (not read, invalid). */
export interface ProjectNote {
  /** The `.mcp.json` file. */
  file: string;
  /** Why none of its servers start. */
  reason: string;
}

/** The `.mcp.json` servers of `cwd`, planned against trust, approvals and `taken` names. */
export function planProjectServers(
  trust: McpTrust | undefined,
  cwd: string,
  env: Record<string, string | undefined>,
  taken: Set<string>,
): { servers: PlannedServer[]; note?: ProjectNote } {
  const file = join(cwd, PROJECT_MCP_FILE);
  if (!trust) return { servers: [] };
  if (statOrUndefined(file)?.isFile !== true) return { servers: [] };
  // nothing of an untrusted workspace is read
  if (!trust.isTrusted(join(cwd, ".harness"))) {
    return {
      servers: [],
      note: { file, reason: "not read: the workspace is not trusted (run: hs trust)" },
    };
  }
  const project = readProjectMcp(cwd);
  if (!project) return { servers: [] };
  if (project.problem) return { servers: [], note: { file, reason: project.problem } };
  const safeEnv = buildChildEnv(env, { names: [], values: [] }, {}, {});
  const servers = project.servers.map((s): PlannedServer => {
    const type = typeof s.raw.type === "string" ? s.raw.type : s.raw.url ? "http" : "stdio";
    const base = { name: s.name, origin: ".mcp.json" as const, type };
    if (taken.has(s.name)) {
      return { ...base, state: "skipped", blocked: "plugins.json names a server of this name" };
    }
    let approval: "approved" | "new" | "changed";
    try {
      approval = trust.mcp.status(cwd, s);
    } catch (err) {
      const msg = err instanceof HarnessError ? err.message : "the approvals cannot be read";
      return { ...base, state: "not approved", blocked: msg.slice(0, 300) };
    }
    if (approval !== "approved") {
      const why = approval === "changed" ? "changed since approved" : "not approved";
      return { ...base, state: "not approved", blocked: `${why}: run hs trust` };
    }
    try {
      const cfg = projectServerConfig(s.name, s.raw, `${file}: ${s.name}`, safeEnv);
      if (!cfg) return { ...base, state: "skipped", blocked: "disabled" };
      return { ...base, type: cfg.type, cfg };
    } catch (err) {
      const msg = err instanceof HarnessError ? err.message : "invalid entry";
      return { ...base, state: "failed", blocked: msg.slice(0, 300) };
    }
  });
  return { servers };
}

/** An error message of a server without the values its configuration holds (tokens, keys). */
export function redactedReason(err: unknown, cfg: McpServerConfig): string {
  let msg = err instanceof Error ? err.message : String(err);
  const values = cfg.type === "stdio" ? Object.values(cfg.env) : Object.values(cfg.headers);
  for (const v of values) if (v.length >= 4) msg = msg.split(v).join("…");
  if (cfg.type !== "stdio") {
    try {
      const u = new URL(cfg.url);
      if (u.search || u.username || u.password) msg = msg.split(cfg.url).join(u.origin);
    } catch { /* checked when parsed */ }
  }
  return msg.replace(/\s+/g, " ").slice(0, 300);
}
