/**
 * The options a harness is created with ({@link HarnessOptions}): where it
 * runs, which plugins it loads, its floor and extra seam members, the pack
 * runtimes, the loop-end addenda, and how it closes; and the plugins they
 * load, in order.
 *
 * @module
 */
import type { Floor, FloorRequest, Guard, Hook } from "./guards/mod.ts";
import { type EditorFiles, HarnessError } from "./base/mod.ts";
import {
  mergePluginEntries,
  parsePluginsConfig,
  readUserPlugins,
  type RuntimePlugin,
  type RuntimePluginEntry,
} from "./plugins/mod.ts";
import { corePlugin } from "./core_plugin.ts";
import type { ProviderFactory } from "./providers/mod.ts";
import type { PackRuntime, ProgramLoader } from "./packs/mod.ts";
import type { LoopEndAddendum } from "./runs.ts";
import type { SeamTrace } from "./packtest/mod.ts";
import type { TrustStore } from "./trust/mod.ts";

/** Options of `HarnessCore.create`. */
export interface HarnessOptions {
  /** Working directory (default: Deno.cwd()). */
  cwd?: string;
  /** Environment (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Built-in plugins (providers, core tools, ...), loaded after the core plugin. */
  builtinPlugins?: RuntimePluginEntry[];
  /** Trusted plugins supplied by the embedding application. */
  runtimePlugins?: RuntimePluginEntry[];
  /** Read `plugins.json` from HARNESS_HOME (default true). */
  userPlugins?: boolean;
  /** Trust the working directory's `.harness/` sources for this process. */
  trustWorkspace?: boolean;
  /**
   * The trust store of `$HARNESS_HOME` (default: opened by the harness). Handing one in
   * lets a built-in plugin read the same answers (the `mcp` plugin: the workspace's
   * trust and its `.mcp.json` approvals).
   */
  trust?: TrustStore;
  /** Where log lines go (default: append to HARNESS_LOG). */
  log?: (line: string) => void;
  /** The effect floor (default: allow all, or built from `floorRequest`). */
  floor?: Floor;
  /**
   * Build the effect floor from the process permissions, $HARNESS_HOME/floor.json,
   * the project's .harness/floor.json and these CLI wishes (ignored when `floor` is set).
   */
  floorRequest?: FloorRequest;
  /**
   * MCP servers a front end was handed for this harness (an editor's `session/new` under
   * `hs acp`), by name in plugins.json's `servers` shape; the built-in `mcp` plugin connects
   * them like the user's own (their tools pass the seam at effect point `mcp`).
   */
  mcpServers?: Record<string, Record<string, unknown>>;
  /**
   * The editor's open files (`hs acp`): the file tools read and write through the floor, then
   * take the editor's text of a file it has open and tell it what they wrote.
   */
  editorFiles?: EditorFiles;
  /** Extra guards of the effect seam. */
  guards?: Guard[];
  /** Extra observer hooks of the effect seam. */
  effectHooks?: Hook[];
  /** Sees every guard and hook of the seam as it runs them (`hs packs test` records decisions). */
  seamTrace?: SeamTrace;
  /** Disable runtime audit events. */
  audit?: boolean;
  /** `.conf` support (from the providers plugin). */
  providerFactory?: ProviderFactory;
  /** Loads behavior programs of packs (from stdlib-harness); absent: bots do not attach. */
  programLoader?: ProgramLoader;
  /** Loads pack state modules and evaluates pack commands (from stdlib-harness). */
  packRuntime?: PackRuntime;
  /**
   * Loop-end addenda: asked when the model ends a round without tool calls; a non-empty
   * text asks for another round (ORed with the behaviors' activating notes).
   */
  loopEnd?: LoopEndAddendum[];
  /**
   * hs runs on a terminal: hooks of interactive stages (`auth-set`, `tool_exec` gates) get
   * it (`/dev/tty`, their stderr shown); every other child keeps its isolation.
   */
  terminal?: boolean;
  /**
   * Plugin configuration in the shape of `plugins.json` (`{"runtimePlugins": [...]}`),
   * used instead of `$HARNESS_HOME/plugins.json`. Supplying it is the embedding
   * application's explicit trust decision: it may add, configure or disable plugins.
   */
  config?: unknown;
  /**
   * An ephemeral instance (a script, a test, a one-off embedding): hosted connectors
   * (`connector-cloud`) are not registered; local memory stays active.
   */
  ephemeral?: boolean;
  /** False: do not register the hosted `connector-cloud` plugin. */
  cloudConnectors?: boolean;
  /** The cleanup bound of `close()` per step (default 5000 ms, the seed's). */
  cleanupBoundMs?: number;
  /**
   * The bound of each plugin's `setup` and of its `onStart` handlers together (default
   * 10000 ms); a plugins.json entry's `setupTimeoutMs` overrides it for that plugin.
   */
  startBoundMs?: number;
  /** Command names a runtime plugin may not register (the front end's own commands). */
  reservedCommands?: readonly string[];
}

/**
 * The plugins a harness loads, in order: the kernel's own, the built-ins, the embedder's,
 * merged with `plugins.json` (or `opts.config`), which may configure or disable any of
 * them but the kernel's.
 */
export function pluginEntries(
  opts: HarnessOptions,
  home: string,
  kernel: RuntimePlugin[] = [],
): RuntimePluginEntry[] {
  const configured = opts.config !== undefined
    ? parsePluginsConfig(opts.config, "HarnessOptions.config", home)
    : opts.userPlugins === false
    ? []
    : readUserPlugins(home);
  if (configured.some((c) => c.id === corePlugin.id)) {
    throw new HarnessError(
      `plugins.json: the "${corePlugin.id}" plugin is the kernel's loop and cannot be configured`,
      `remove the "${corePlugin.id}" entry`,
    );
  }
  // the kernel's own built-ins (the Claude Code layout) may be disabled like any built-in
  const own: RuntimePluginEntry[] = kernel.map((p) => ({
    plugin: p as RuntimePluginEntry["plugin"],
    required: false,
  }));
  const builtins = [...own, ...(opts.builtinPlugins ?? [])].map((e) => ({ ...e, builtin: true }));
  return [
    { plugin: corePlugin as RuntimePluginEntry["plugin"], required: true, builtin: true },
    ...mergePluginEntries(inlineOverBuiltins(builtins, opts.runtimePlugins ?? []), configured),
  ];
}

/**
 * The built-ins with the embedder's inline entries: an inline entry with a built-in's id
 * configures that built-in in its place (`{plugin: jsonlAuditPlugin, config: {path}}`, or a
 * built-in made by its factory with the embedder's options); the other entries follow.
 */
function inlineOverBuiltins(
  builtins: RuntimePluginEntry[],
  inline: RuntimePluginEntry[],
): RuntimePluginEntry[] {
  const out = builtins.map((e) => ({ ...e }));
  const rest: RuntimePluginEntry[] = [];
  for (const entry of inline) {
    const id = entry.plugin?.id ?? entry.id;
    const slot = out.findIndex((b) => (b.plugin?.id ?? b.id) === id);
    if (slot < 0 || id === undefined) {
      rest.push(entry);
      continue;
    }
    const b = out[slot];
    out[slot] = {
      ...b,
      plugin: entry.plugin ?? b.plugin,
      enabled: entry.enabled ?? (b.optIn ? true : b.enabled),
      required: entry.required ?? b.required,
      config: entry.config ?? b.config,
      setupTimeoutMs: entry.setupTimeoutMs ?? b.setupTimeoutMs,
      optIn: false,
      builtin: true,
    };
  }
  return [...out, ...rest];
}
