/**
 * A behavior pack's manifest (seed 000 §1; Agent Plugins Spec 1.0): a
 * directory with a `plugin.json` whose top-level fields are closed (name,
 * version, description, author, homepage, repository, license, keywords,
 * extensions — anything else is reported and ignored), skills and `mcp.json`
 * in fixed places, and the harness's own data under
 * `extensions["tools.inhuman"]` (other namespaces are ignored unvalidated):
 * bots, skills, states (session/project/global), mcp records, commands and
 * plugins (parsed, never imported). Every path stays inside the pack root;
 * `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` expand.
 *
 * @module
 */
import { isAbsolute, join, relative, resolve } from "../early/mod.ts";
import { z } from "zod";
import { readTextOrUndefined, statOrUndefined } from "../base/mod.ts";
import { describeIssue, jsonProblem, nodePosition, type Position } from "./positions.ts";

/** The namespace of the harness's data in `extensions`. */
export const EXTENSION = "tools.inhuman";

/** State scopes a pack may declare. */
export const STATE_SCOPES = ["session", "project", "global"] as const;

const TOP_LEVEL = [
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "extensions",
];

/** An MCP record as the resolver keeps it (never a spawn). */
export interface McpRecord {
  /** The server's name. */
  name: string;
  /** Who may see it (default `private`). */
  visibility: string;
  /** The command that would start it. */
  command?: string;
  /** The command's arguments. */
  args?: string[];
  /** The scope it is declared for. */
  scope?: string;
}

/** A parsed pack. */
export interface PackManifest {
  /** Absolute pack root. */
  root: string;
  /** The pack's name. */
  name: string;
  /** The pack's version. */
  version: string;
  /** One line describing the pack. */
  description: string;
  /** Absolute bot files. */
  bots: string[];
  /** Absolute skill directories (declared, plus `skills/*` with a SKILL.md). */
  skills: string[];
  /** Absolute state modules by scope. */
  states: Partial<Record<typeof STATE_SCOPES[number], string>>;
  /** The MCP servers it declares (recorded, never started). */
  mcp: McpRecord[];
  /** Absolute command files (`.scm`). */
  commands: string[];
  /** `plugins` entries: parsed, never imported. */
  plugins: unknown[];
  /** `mcp.json` at the root, if present. */
  mcpJson?: string;
  /** Reported and ignored (unknown top-level fields, dropped keys). */
  notices: string[];
}

/** A pack that cannot load, and why. */
export class PackError extends Error {
  /** The file at fault. */
  readonly file: string;
  /** A pack load error naming its file (and its `line:col` when known). */
  constructor(file: string, message: string, at?: Position) {
    super(`${file}${at ? `:${at.line}:${at.col}` : ""}: ${message}`);
    this.name = "PackError";
    this.file = file;
  }
}

function buildInhumanSchema() {
  const strList = z.array(z.string());
  return z.object({
    bots: strList.optional(),
    skills: strList.optional(),
    states: z.record(z.string(), z.string()).optional(),
    mcp: z.array(
      z.object({
        name: z.string().min(1),
        visibility: z.string().default("private"),
        command: z.string().optional(),
        args: strList.optional(),
        scope: z.string().optional(),
      }).passthrough(),
    ).optional(),
    commands: strList.optional(),
    plugins: z.array(z.unknown()).optional(),
    interceptingHooks: z.unknown().optional(),
    notifyingHooks: z.unknown().optional(),
  }).passthrough();
}
let inhuman: ReturnType<typeof buildInhumanSchema> | undefined;
/** The manifest extension's schema, built on first use (a harness without packs never does). */
const inhumanSchema = () => inhuman ??= buildInhumanSchema();

/** Expands `${PLUGIN_ROOT}` and `${PLUGIN_DATA}`. */
export function expandPackVars(text: string, root: string, data: string): string {
  return text.replaceAll("${PLUGIN_ROOT}", root).replaceAll("${PLUGIN_DATA}", data);
}

/** True when `path` is the root or inside it. */
export function insideRoot(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}

/**
 * Reads a pack directory. Throws a {@link PackError} (with the file and the reason) for
 * a missing or malformed `plugin.json`, an unknown state scope, a path that escapes the
 * root or names a missing file.
 */
export function readPack(dir: string, dataDir: string): PackManifest {
  const root = resolve(dir);
  const file = join(root, "plugin.json");
  const text = readTextOrUndefined(file);
  if (text === undefined) {
    throw new PackError(file, "missing (a pack is a directory with a plugin.json)");
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const problem = jsonProblem(text, err);
    throw new PackError(file, problem.message, problem.at);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new PackError(file, "must be a JSON object");
  }
  const obj = raw as Record<string, unknown>;
  const notices: string[] = [];
  for (const k of Object.keys(obj)) {
    if (!TOP_LEVEL.includes(k)) notices.push(`unknown field "${k}" ignored`);
  }
  const name = typeof obj.name === "string" && obj.name ? obj.name : root.split("/").pop()!;
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) {
    throw new PackError(file, `name "${name}" must use lowercase letters, digits, ., _ or -`);
  }
  const data = join(dataDir, name);
  const path = (p: string, what: string, kind: "file" | "dir") => {
    const abs = resolve(root, expandPackVars(p, root, data));
    if (!insideRoot(abs, root)) throw new PackError(file, `${what} "${p}" escapes the pack root`);
    const info = statOrUndefined(abs);
    if (!info || (kind === "file" ? !info.isFile : !info.isDirectory)) {
      throw new PackError(
        file,
        `${what} "${p}" names a missing ${kind === "file" ? "file" : "directory"}`,
      );
    }
    return abs;
  };
  const ext = (obj.extensions ?? {}) as Record<string, unknown>;
  if (typeof ext !== "object" || Array.isArray(ext)) {
    throw new PackError(file, '"extensions" must be an object');
  }
  const parsed = inhumanSchema().safeParse(ext[EXTENSION] ?? {});
  if (!parsed.success) {
    const d = describeIssue(parsed.error.issues[0], ext[EXTENSION], inhumanSchema());
    const at = nodePosition(text, ["extensions", EXTENSION, ...d.path], d.key);
    throw new PackError(file, `extensions["${EXTENSION}"].${d.message}`, at);
  }
  const x = parsed.data;
  for (const dropped of ["interceptingHooks", "notifyingHooks"] as const) {
    if (x[dropped] !== undefined) {
      notices.push(`${dropped} is not executed: the manifest schema drops it`);
    }
  }
  const states: PackManifest["states"] = {};
  for (const [scope, p] of Object.entries(x.states ?? {})) {
    if (!(STATE_SCOPES as readonly string[]).includes(scope)) {
      throw new PackError(
        file,
        `unknown state scope "${scope}" (use ${STATE_SCOPES.join(", ")})`,
      );
    }
    states[scope as typeof STATE_SCOPES[number]] = path(p, `states.${scope}`, "file");
  }
  const skills = (x.skills ?? []).map((p) => path(p, "skill", "dir"));
  const fixed = join(root, "skills");
  if (statOrUndefined(fixed)?.isDirectory) {
    for (const e of Deno.readDirSync(fixed)) {
      const d = join(fixed, e.name);
      if (e.isDirectory && statOrUndefined(join(d, "SKILL.md")) && !skills.includes(d)) {
        skills.push(d);
      }
    }
  }
  const mcpJson = statOrUndefined(join(root, "mcp.json"))?.isFile
    ? join(root, "mcp.json")
    : undefined;
  return {
    root,
    name,
    version: typeof obj.version === "string" ? obj.version : "",
    description: typeof obj.description === "string" ? obj.description : "",
    bots: (x.bots ?? []).map((p) => path(p, "bot", "file")),
    skills: skills.sort(),
    states,
    mcp: (x.mcp ?? []).map((m) => ({
      name: m.name,
      visibility: m.visibility,
      command: m.command ? expandPackVars(m.command, root, data) : undefined,
      args: m.args?.map((a) => expandPackVars(a, root, data)),
      scope: m.scope,
    })),
    commands: (x.commands ?? []).map((p) => path(p, "command", "file")),
    plugins: x.plugins ?? [],
    mcpJson,
    notices,
  };
}
