/**
 * The user's plugin file, `$HARNESS_HOME/plugins.json` (seed 002 "Charger et
 * configurer"): `runtimePlugins` entries with an `id`, an absolute `module`
 * path, `enabled`, `required` and `config`. Only the user's home is read —
 * project configuration can never add or reconfigure runtime plugins.
 *
 * Entries may also declare the `permissions` their plugin needs beyond the
 * workspace and the harness home (read/write paths, net hosts, run binaries):
 * the launcher (`deno task hs`) grants them to the process.
 *
 * @module
 */
import { fileUrlOf, firstUse, join } from "../early/mod.ts";
import { z } from "zod";
import { HarnessError, readTextOrUndefined, resolvePluginModule } from "../base/mod.ts";
import type { RuntimePluginEntry } from "./types.ts";

/** Extra process permissions a plugin entry declares (granted by the launcher). */
export interface PluginPermissions {
  /** Paths the plugin may read. */
  read?: string[];
  /** Paths the plugin may write. */
  write?: string[];
  /** Hosts the plugin may connect to. */
  net?: string[];
  /** Programs the plugin may run. */
  run?: string[];
}

const permissionsSchema = firstUse((): z.ZodType<PluginPermissions> =>
  z.object({
    read: z.array(z.string()).optional(),
    write: z.array(z.string()).optional(),
    net: z.array(z.string()).optional(),
    run: z.array(z.string()).optional(),
  }).strict()
);

const entrySchema = firstUse(() =>
  z.object({
    id: z.string({ error: 'needs an "id"' }).min(1, 'needs an "id"'),
    module: z.string().min(1, "module must not be empty").optional(),
    enabled: z.boolean().optional(),
    required: z.boolean().optional(),
    config: z.unknown().optional(),
    setupTimeoutMs: z.number().int().positive().max(600_000).optional(),
    permissions: permissionsSchema().optional(),
  }).strict()
);

const fileSchema = firstUse(() =>
  z.object({
    runtimePlugins: z.array(entrySchema(), { error: '"runtimePlugins" must be a list' }).optional(),
  }).passthrough()
);

/** The path of the user's plugin file. */
export function pluginsFile(home: string): string {
  return join(home, "plugins.json");
}

/** Entries of `$HARNESS_HOME/plugins.json` ([] when absent). Throws a HarnessError when invalid. */
export function readUserPlugins(home: string): RuntimePluginEntry[] {
  const path = pluginsFile(home);
  const text = readTextOrUndefined(path);
  if (text === undefined) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HarnessError(`${path} is not valid JSON`, "fix the file or remove it");
  }
  return parsePluginsConfig(data, path, home);
}

/**
 * Entries of a plugin configuration in the shape of `plugins.json` (the file, or
 * `HarnessOptions.config`); `where` names it in errors. Throws a HarnessError when invalid.
 */
export function parsePluginsConfig(
  data: unknown,
  where: string,
  home?: string,
): RuntimePluginEntry[] {
  const r = fileSchema().safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = issue.path.length
      ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")
        .replace(/^\./, "")
      : "(top)";
    throw new HarnessError(`${where}: ${at}: ${issue.message}`, "see docs/plugins.md");
  }
  return (r.data.runtimePlugins ?? []).map((e) => {
    const entry: RuntimePluginEntry = {
      id: e.id,
      enabled: e.enabled,
      required: e.required,
      config: e.config,
      setupTimeoutMs: e.setupTimeoutMs,
    };
    if (e.module === undefined) return entry;
    // an absolute path, or a package installed under $HARNESS_HOME; nothing is downloaded
    const mod = home !== undefined ? resolvePluginModule(e.module, home) : e.module.startsWith("/")
      // fileUrlOf escapes `#`, `%` and spaces as node:url's pathToFileURL (a raw `file://` + path would not).
      ? { url: fileUrlOf(e.module).href }
      : { error: `"${e.module}" must be an absolute path here (no HARNESS_HOME to resolve it)` };
    if ("error" in mod) entry.moduleError = mod.error;
    else entry.module = mod.url;
    return entry;
  });
}

/**
 * Packs whose foreground bot the user opted out of: `"plugins": {"<pack>": {"foreground":
 * false}}` in `plugins.json` (seed 000 §2 "plugins.<name>.foreground: false").
 */
export function readForegroundOptOuts(home: string): Set<string> {
  const text = readTextOrUndefined(pluginsFile(home));
  if (text === undefined) return new Set();
  try {
    return foregroundOptOutsOf(JSON.parse(text));
  } catch { /* reported by readUserPlugins */ }
  return new Set();
}

/** The foreground opt-outs of a configuration in the shape of `plugins.json`. */
export function foregroundOptOutsOf(data: unknown): Set<string> {
  const out = new Set<string>();
  const packs = (data as { plugins?: Record<string, { foreground?: unknown }> } | null)?.plugins;
  if (!packs || typeof packs !== "object") return out;
  for (const [name, v] of Object.entries(packs)) {
    if (v && typeof v === "object" && v.foreground === false) out.add(name);
  }
  return out;
}

/** Inline entries first; a configured entry with the same id configures or disables it. */
export function mergePluginEntries(
  inline: RuntimePluginEntry[],
  configured: RuntimePluginEntry[],
): RuntimePluginEntry[] {
  const out = inline.map((e) => ({ ...e }));
  const ids = new Set<string>();
  for (const c of configured) {
    if (ids.has(c.id!)) {
      throw new HarnessError(`plugins.json lists "${c.id}" twice`, "remove the duplicate");
    }
    ids.add(c.id!);
    const same = out.find((e) => (e.plugin?.id ?? e.id) === c.id);
    if (same) {
      if (c.module || c.moduleError) {
        throw new HarnessError(
          `plugins.json entry "${c.id}" cannot replace the implementation of an inline plugin`,
          "remove its module field to configure it, or use another id",
        );
      }
      if (c.enabled !== undefined) same.enabled = c.enabled;
      else if (same.optIn) same.enabled = true;
      if (c.required !== undefined) same.required = c.required;
      if (c.config !== undefined) same.config = c.config;
      if (c.setupTimeoutMs !== undefined) same.setupTimeoutMs = c.setupTimeoutMs;
    } else out.push(c);
  }
  return out;
}
