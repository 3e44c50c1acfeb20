/**
 * Configuration of the `mcp` plugin: servers given inline in `plugins.json`
 * (`config.servers`) and servers read from `.mcp.json`-style files the user
 * already has (`config.files`: `{"mcpServers": {...}}`, as other agents write
 * them). `${VAR}` and `${VAR:-default}` in commands, arguments, environment,
 * URLs and headers are expanded from the harness's environment.
 *
 * Both come from the user's own configuration (plugins.json is user-level
 * only). A workspace's own `.mcp.json` is read by `project_servers.ts`, in a
 * trusted workspace, one approved server at a time ({@link projectServerConfig}).
 *
 * @module
 */
import { firstUse, isAbsolute, join } from "../../core/early/mod.ts";
import { z } from "zod";
import { HarnessError } from "../../core/mod.ts";

/** A stdio server: a command the harness starts. */
export interface McpStdioServer {
  /** Discriminant: a local process spoken to over stdin/stdout. */
  type: "stdio";
  /** The program to start (after `${VAR}` expansion). */
  command: string;
  /** Arguments passed to the command. */
  args: string[];
  /** Variables added to the server's environment. */
  env: Record<string, string>;
  /** Absolute working directory (`~/` expanded); default: the harness's working directory. */
  cwd?: string;
  /** Paths the server's installation needs to read inside the OS sandbox. */
  read: string[];
}

/** A remote server: streamable HTTP (default) or SSE. */
export interface McpRemoteServer {
  /** The transport: streamable HTTP or server-sent events. */
  type: "http" | "sse";
  /** The server's endpoint URL. */
  url: string;
  /** Headers sent with every request (e.g. authorization). */
  headers: Record<string, string>;
}

/** One MCP server. */
export type McpServerConfig = McpStdioServer | McpRemoteServer;

/** The parsed configuration of the `mcp` plugin. */
export interface McpPluginConfig {
  /** The enabled servers by name (inline ones and those of the listed files). */
  servers: Record<string, McpServerConfig>;
  /** One request's timeout (connect, list, call), ms. */
  timeoutMs: number;
}

const NAME = /^[A-Za-z0-9_-]{1,32}$/;

const rawServer = firstUse(() =>
  z.object({
    type: z.enum(["stdio", "http", "sse", "streamable-http", "streamableHttp"]).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    read: z.array(z.string()).optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    disabled: z.boolean().optional(),
  }).passthrough()
);

const configSchema = firstUse(() =>
  z.object({
    servers: z.record(z.string(), rawServer()).optional(),
    files: z.array(z.string()).optional(),
    timeoutSeconds: z.number().positive().optional(),
  }).strict()
);

const fileSchema = firstUse(() =>
  z.object({ mcpServers: z.record(z.string(), rawServer()) }).passthrough()
);

/** Expands `${VAR}` / `${VAR:-default}` from `env`; an unset variable without default is an error. */
export function expandVars(
  text: string,
  env: Record<string, string | undefined>,
  where: string,
): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name, def) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (def !== undefined) return def;
    throw new HarnessError(`${where}: \${${name}} is not set`, `set ${name}, or give a default`);
  });
}

function server(
  raw: z.infer<ReturnType<typeof rawServer>>,
  where: string,
  env: Record<string, string | undefined>,
  home: string,
): McpServerConfig | undefined {
  if (raw.disabled) return undefined;
  const x = (s: string) => expandVars(s, env, where);
  const map = (m: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(v)]));
  const type = raw.type ?? (raw.url ? "http" : "stdio");
  if (type === "stdio") {
    if (!raw.command) throw new HarnessError(`${where}: a stdio server needs a "command"`);
    let cwd = raw.cwd ? x(raw.cwd) : undefined;
    if (cwd?.startsWith("~/")) cwd = join(home, cwd.slice(2));
    if (cwd && !isAbsolute(cwd)) throw new HarnessError(`${where}: cwd must be absolute`);
    return {
      type: "stdio",
      command: x(raw.command),
      args: (raw.args ?? []).map(x),
      env: map(raw.env),
      cwd,
      read: (raw.read ?? []).map((p) => {
        const e = x(p);
        const full = e.startsWith("~/") ? join(home, e.slice(2)) : e;
        if (!isAbsolute(full)) throw new HarnessError(`${where}: read paths must be absolute`);
        return full;
      }),
    };
  }
  if (!raw.url) throw new HarnessError(`${where}: a remote server needs a "url"`);
  const url = x(raw.url);
  if (!/^https?:\/\//.test(url)) throw new HarnessError(`${where}: url must be http(s)`);
  return { type: type === "sse" ? "sse" : "http", url, headers: map(raw.headers) };
}

/**
 * One server of a workspace's `.mcp.json` as a server configuration; `${VAR}` is expanded
 * from `env` (the caller hands the environment without credentials). Undefined for a
 * disabled one; throws a HarnessError for an invalid one.
 */
export function projectServerConfig(
  name: string,
  raw: Record<string, unknown>,
  where: string,
  env: Record<string, string | undefined>,
): McpServerConfig | undefined {
  if (!NAME.test(name)) {
    throw new HarnessError(`${where}: server name "${name}" is not 1-32 letters, digits, _ -`);
  }
  const r = rawServer().safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new HarnessError(`${where}: ${i.path.join(".") || "(entry)"}: ${i.message}`);
  }
  return server(r.data, where, env, env.HOME ?? "/");
}

/**
 * Parses the plugin's raw config. `readFile` reads the listed `.mcp.json` files; inline
 * servers win over file servers of the same name.
 */
export function parseMcpConfig(
  raw: unknown,
  env: Record<string, string | undefined>,
  readFile: (path: string) => string | undefined,
): McpPluginConfig {
  const r = configSchema().safeParse(raw ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new HarnessError(`mcp config: ${i.path.join(".") || "(top)"}: ${i.message}`);
  }
  const home = env.HOME ?? "/";
  const servers: Record<string, McpServerConfig> = {};
  const add = (name: string, s: z.infer<ReturnType<typeof rawServer>>, where: string) => {
    if (!NAME.test(name)) {
      throw new HarnessError(`${where}: server name "${name}" is not 1-32 letters, digits, _ -`);
    }
    const cfg = server(s, where, env, home);
    if (cfg) servers[name] = cfg;
    else delete servers[name];
  };
  for (let path of r.data.files ?? []) {
    if (path.startsWith("~/")) path = join(home, path.slice(2));
    if (!isAbsolute(path)) throw new HarnessError(`mcp config: ${path}: use an absolute path`);
    const text = readFile(path);
    if (text === undefined) throw new HarnessError(`mcp config: ${path} cannot be read`);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new HarnessError(`${path} is not valid JSON`);
    }
    const f = fileSchema().safeParse(data);
    if (!f.success) throw new HarnessError(`${path}: needs {"mcpServers": {...}}`);
    for (const [name, s] of Object.entries(f.data.mcpServers)) add(name, s, `${path}: ${name}`);
  }
  for (const [name, s] of Object.entries(r.data.servers ?? {})) {
    add(name, s, `mcp config: servers.${name}`);
  }
  return { servers, timeoutMs: (r.data.timeoutSeconds ?? 60) * 1000 };
}
