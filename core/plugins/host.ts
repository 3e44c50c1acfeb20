/**
 * The PluginHost (seed 002): one per Harness. Resolves enabled entries,
 * validates contract and config, runs setups in configured order, starts after
 * every setup, rolls back a failing plugin (everything when it is required),
 * and on close stops new work, aborts plugin signals, unregisters
 * contributions and disposes resources in reverse order, each bounded at 5 s.
 *
 * Status messages never echo plugin exception text (it may hold secrets).
 *
 * @module
 */
import { isAbsolute } from "node:path";
import {
  type AuthProvider,
  type ChildSandbox,
  HarnessError,
  LIFECYCLE_EVENTS,
  type ModelDefinition,
  type ModelProvider,
  type Owner,
  ownerLabel,
  type PromptSource,
  type ProtocolAdapter,
  type SkillInfo,
  textResult,
  type ToolDefinition,
} from "../base/mod.ts";
import { OwnedRegistry } from "./registry.ts";
import type { AuditBus } from "./audit.ts";
import type { StageHook } from "../loop/mod.ts";
import type { Guard, Hook } from "../guards/mod.ts";
import { LifecycleBus, type LifecycleSubscription } from "./lifecycle.ts";
import { PageService, validatePage } from "./pages.ts";
import {
  API_VERSION,
  type CommandDefinition,
  type PageDefinition,
  type PluginContext,
  type PluginStatus,
  type RuntimePlugin,
  type RuntimePluginEntry,
} from "./types.ts";

const ID_PATTERN = /^[a-z0-9._-]+$/;
/** The cleanup bound of the seed: each plugin's drain and disposal, 5 s. */
export const DISPOSE_BOUND_MS = 5000;

/** A registered model provider with its models. */
export interface ModelEntry {
  /** The provider that serves the models. */
  provider: ModelProvider;
  /** The models it offers (may be empty). */
  models: ModelDefinition[];
}

/** What holds for one principal (an agent, a bot). */
export interface PrincipalProfile {
  /** The only tools it may call (a bot's `tools` list); absent: no ceiling. */
  ceiling?: ReadonlySet<string>;
}

/** Every registry the host fills (and the packs: their guards, hooks, tools, prompts). */
export class Registries {
  /** Tools by name. */
  tools: OwnedRegistry<ToolDefinition> = new OwnedRegistry("tool");
  /** Model providers (with their models) by provider name. */
  models: OwnedRegistry<ModelEntry> = new OwnedRegistry("model provider");
  /** Wire protocol adapters by protocol name. */
  protocols: OwnedRegistry<ProtocolAdapter> = new OwnedRegistry("protocol");
  /** Runtime skills by name. */
  skills: OwnedRegistry<SkillInfo> = new OwnedRegistry("skill");
  /** System prompt sections by id. */
  prompts: OwnedRegistry<PromptSource> = new OwnedRegistry("prompt section");
  /** In-process stage hooks. */
  stageHooks: OwnedRegistry<StageHook> = new OwnedRegistry("hook");
  /** Lifecycle event subscriptions. */
  lifecycle: OwnedRegistry<LifecycleSubscription> = new OwnedRegistry("lifecycle hook");
  /** Auth providers by id. */
  auth: OwnedRegistry<AuthProvider> = new OwnedRegistry("auth provider");
  /** Pages by id. */
  pages: OwnedRegistry<PageDefinition> = new OwnedRegistry("page");
  /** CLI commands by name. */
  commands: OwnedRegistry<CommandDefinition> = new OwnedRegistry("command");
  /** Behavior pack directories contributed by plugins (key: the absolute directory). */
  packs: OwnedRegistry<string> = new OwnedRegistry("behavior pack");
  /** Guards of the effect seam (behavior packs' bots), by id. */
  guards: OwnedRegistry<Guard> = new OwnedRegistry("guard");
  /** Observer hooks of the effect seam (behavior packs' bots), by id. */
  effectHooks: OwnedRegistry<Hook> = new OwnedRegistry("effect hook");
  /** What holds for one principal (a bot's tool ceiling), by principal. */
  principals: OwnedRegistry<PrincipalProfile> = new OwnedRegistry("principal");

  /** Removes every registration of an owner. */
  removeOwner(owner: Owner): void {
    for (const r of this.#all()) r.removeOwner(owner);
  }

  /** What an owner contributed, per registry kind (kinds with nothing are left out). */
  contributions(owner: Owner): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const r of this.#all()) {
      const keys = r.keysOf(owner);
      if (keys.length) out[r.kind] = keys;
    }
    return out;
  }

  #all() {
    return [
      this.tools,
      this.models,
      this.protocols,
      this.skills,
      this.prompts,
      this.stageHooks,
      this.lifecycle,
      this.auth,
      this.pages,
      this.commands,
      this.packs,
      this.guards,
      this.effectHooks,
      this.principals,
    ];
  }
}

interface Loaded {
  id: string;
  owner: Owner;
  version: string;
  required: boolean;
  state: PluginStatus["state"];
  reason?: string;
  controller: AbortController;
  starts: (() => void | Promise<void>)[];
  disposers: (() => void | Promise<void>)[];
  auditKeys: string[];
  active: boolean;
  setupDone: boolean;
  builtin: boolean;
}

/** Options of {@link PluginHost}. */
export interface PluginHostOptions {
  /** The registries plugins register into. */
  registries: Registries;
  /** The audit bus sinks are registered on. */
  audit: AuditBus;
  /** Writes a line to the harness log. */
  log: (line: string) => void;
  /** The OS sandbox plugins put their child processes in (default: none, run directly). */
  sandbox?: ChildSandbox;
  /** The path of a file skill named `name` (a runtime skill of that name is rejected). */
  fileSkill?: (name: string) => string | undefined;
  /** The cleanup bound per plugin (default 5 s; tests shorten it). */
  boundMs?: number;
}

const unsandboxed: ChildSandbox = { prepare: (spec) => Promise.resolve(spec) };

/** Runs a promise-returning fn with a time bound; resolves to "timeout" when it is exceeded. */
async function bounded(
  fn: () => void | Promise<void>,
  ms: number,
): Promise<"ok" | "error" | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(fn).then(() => "ok" as const),
      new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), ms)),
    ]);
  } catch {
    return "error";
  } finally {
    clearTimeout(timer);
  }
}

/** The plugin host of one Harness. */
export class PluginHost {
  /** The registries the plugins filled. */
  readonly registries: Registries;
  /** Lifecycle events to `ctx.hooks.on` subscribers. */
  readonly lifecycle: LifecycleBus;
  /** Pages registered with `ctx.pages.register`, served with the host's signal. */
  readonly pages: PageService;
  #audit: AuditBus;
  #log: (line: string) => void;
  #sandbox: ChildSandbox;
  #fileSkill?: (name: string) => string | undefined;
  #boundMs: number;
  #loaded: Loaded[] = [];
  #closed = false;
  #closing?: Promise<void>;

  /** Creates a host over `opts.registries`; plugins are loaded separately. */
  constructor(opts: PluginHostOptions) {
    this.registries = opts.registries;
    this.#audit = opts.audit;
    this.#log = opts.log;
    this.#sandbox = opts.sandbox ?? unsandboxed;
    this.#fileSkill = opts.fileSkill;
    this.#boundMs = opts.boundMs ?? DISPOSE_BOUND_MS;
    this.lifecycle = new LifecycleBus(this.registries.lifecycle, this.#log);
    this.pages = new PageService(this.registries.pages, (owner) => this.#signalOf(owner));
  }

  #signalOf(owner: Owner): AbortSignal {
    const label = ownerLabel(owner);
    const p = this.#loaded.find((l) => ownerLabel(l.owner) === label);
    return p?.controller.signal ?? AbortSignal.abort();
  }

  /** Status of every plugin, in configured order. */
  status(): PluginStatus[] {
    return this.#loaded.map((p) => ({
      id: p.id,
      version: p.version,
      state: p.state,
      required: p.required,
      builtin: p.builtin,
      reason: p.reason,
    }));
  }

  /** What plugin `id` contributed (tools, skills, …), by registry kind. */
  contributions(id: string): Record<string, string[]> {
    const p = this.#loaded.find((l) => l.id === id);
    if (!p) return {};
    const out = this.registries.contributions(p.owner);
    if (p.auditKeys.length) out["audit sink"] = p.auditKeys.map((_, i) => `sink ${i + 1}`);
    return out;
  }

  /**
   * Loads entries in order. Throws a HarnessError (without plugin text) when a
   * required plugin fails; everything loaded so far is rolled back first.
   */
  async load(entries: RuntimePluginEntry[]): Promise<void> {
    const seen = new Set<string>();
    const pending: { entry: RuntimePluginEntry; plugin: RuntimePlugin<unknown>; loaded: Loaded }[] =
      [];
    for (const entry of entries) {
      const required = entry.required ?? true;
      const id = entry.plugin?.id ?? entry.id ?? "";
      if (seen.has(id)) {
        await this.#abortAll();
        throw new HarnessError(
          `runtime plugin id "${id}" is listed twice`,
          "remove the duplicate entry",
        );
      }
      seen.add(id);
      if (entry.enabled === false) {
        this.#loaded.push(
          this.#record(id, entry.plugin?.version ?? "", required, "disabled", entry.builtin),
        );
        continue;
      }
      let plugin = entry.plugin;
      if (!plugin && entry.module) {
        try {
          const mod = await import(entry.module);
          plugin = mod.default;
        } catch {
          if (await this.#fail(id, "", required, "module could not be imported")) continue;
        }
      }
      const problem = contractProblem(plugin, entry.id);
      if (problem) {
        if (await this.#fail(id, plugin?.version ?? "", required, problem)) continue;
      }
      const p = plugin!;
      let config: unknown = entry.config;
      try {
        if (p.parseConfig) config = p.parseConfig(entry.config);
      } catch {
        if (await this.#fail(p.id, p.version, required, "invalid configuration")) continue;
      }
      const loaded = this.#record(p.id, p.version, required, "active", entry.builtin === true);
      this.#loaded.push(loaded);
      try {
        await p.setup(this.#context(p, loaded, config));
        loaded.setupDone = true;
      } catch {
        await this.#rollback(loaded);
        loaded.state = "failed";
        loaded.reason = "setup failed";
        this.#log(`[plugins] ${p.id}: setup failed${required ? "" : " (optional)"}`);
        if (required) {
          await this.#abortAll();
          throw new HarnessError(
            `required runtime plugin "${p.id}" failed during setup`,
            `check its configuration in plugins.json, or mark it "required": false`,
          );
        }
        continue;
      }
      pending.push({ entry, plugin: p, loaded });
    }
    // Starts run once every setup has finished.
    for (const { plugin, loaded } of pending) {
      if (loaded.state !== "active") continue;
      try {
        for (const start of loaded.starts) await start();
      } catch {
        await this.#rollback(loaded);
        loaded.state = "failed";
        loaded.reason = "start failed";
        this.#log(`[plugins] ${plugin.id}: start failed${loaded.required ? "" : " (optional)"}`);
        if (loaded.required) {
          await this.#abortAll();
          throw new HarnessError(
            `required runtime plugin "${plugin.id}" failed to start`,
            `check its configuration in plugins.json, or mark it "required": false`,
          );
        }
      }
    }
  }

  #record(
    id: string,
    version: string,
    required: boolean,
    state: PluginStatus["state"],
    builtin = false,
  ): Loaded {
    return {
      builtin,
      id,
      owner: builtin ? { kind: "builtin", id } : { kind: "runtime-plugin", id },
      version,
      required,
      state,
      controller: new AbortController(),
      starts: [],
      disposers: [],
      auditKeys: [],
      active: state === "active",
      setupDone: false,
    };
  }

  /** Records a failure; returns true when loading may go on (optional plugin). */
  async #fail(id: string, version: string, required: boolean, reason: string): Promise<boolean> {
    this.#loaded.push({ ...this.#record(id, version, required, "failed"), reason });
    this.#log(`[plugins] ${id || "(no id)"}: ${reason}`);
    if (!required) return true;
    await this.#abortAll();
    throw new HarnessError(
      `required runtime plugin "${id || "(no id)"}" could not load: ${reason}`,
      `fix the plugin entry in plugins.json, or mark it "required": false`,
    );
  }

  async #rollback(p: Loaded, drainMs = this.#boundMs): Promise<void> {
    p.active = false;
    p.controller.abort();
    this.registries.removeOwner(p.owner);
    for (const key of p.auditKeys) await this.#audit.remove(key, drainMs);
    for (const d of p.disposers.reverse()) {
      const r = await bounded(d, this.#boundMs);
      if (r !== "ok") {
        this.#log(`[plugins] ${p.id}: cleanup ${r === "timeout" ? "timed out" : "failed"}`);
      }
    }
    p.disposers = [];
  }

  async #abortAll(): Promise<void> {
    for (const p of [...this.#loaded].reverse()) {
      if (p.state === "active") {
        await this.#rollback(p);
        p.state = "stopped";
      }
    }
  }

  #context(
    plugin: RuntimePlugin<unknown>,
    loaded: Loaded,
    config: unknown,
  ): PluginContext<unknown> {
    const owner = loaded.owner;
    const r = this.registries;
    const guard = () => {
      if (!loaded.active) {
        throw new HarnessError(`plugin "${plugin.id}" registered after it stopped`);
      }
      if (loaded.setupDone) {
        throw new HarnessError(`plugin "${plugin.id}" must register contributions during setup`);
      }
    };
    const log = (level: string) => (m: string) => this.#log(`[${plugin.id}] ${level}: ${m}`);
    let hookSeq = 0;
    const ctx: PluginContext<unknown> = {
      id: plugin.id,
      config,
      signal: loaded.controller.signal,
      logger: { info: log("info"), warn: log("warn"), error: log("error") },
      tools: {
        register: (tool) => {
          guard();
          r.tools.register(owner, tool.name, guardStale(tool, loaded));
        },
      },
      skills: {
        register: (skill) => {
          guard();
          const s = skill as Partial<SkillInfo> | undefined;
          if (typeof s?.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/.test(s.name)) {
            throw new HarnessError("a runtime skill needs a name (letters, digits, . _ : -)");
          }
          if (typeof s.description !== "string" || typeof s.body !== "string") {
            throw new HarnessError(`runtime skill "${s.name}" needs a description and a body`);
          }
          if (
            s.directory !== undefined && !(typeof s.directory === "string" &&
              isAbsolute(s.directory))
          ) {
            throw new HarnessError(
              `runtime skill "${s.name}": directory must be an absolute path`,
            );
          }
          const file = this.#fileSkill?.(s.name);
          if (file) {
            throw new HarnessError(
              `runtime skill "${s.name}" from ${ownerLabel(owner)} conflicts with ${file}`,
              "runtime skills never replace built-in, user or project skills: rename it",
            );
          }
          r.skills.register(owner, skill.name, {
            ...skill,
            path: skill.path ?? "",
            source: ownerLabel(owner),
          });
        },
      },
      models: {
        register: (provider, models = []) => {
          guard();
          const p = provider as Partial<ModelProvider> | undefined;
          if (
            typeof p?.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p.name) ||
            typeof p.send !== "function" || typeof p.ready !== "function" ||
            typeof p.defaultModel !== "function" || typeof p.protocol !== "string"
          ) {
            throw new HarnessError(
              "a model provider needs a name, a protocol, ready(), defaultModel() and send()",
            );
          }
          if (!Array.isArray(models)) {
            throw new HarnessError(`model list of provider "${p.name}" is invalid`);
          }
          const ids = new Set<string>();
          for (const m of models) {
            if (typeof m?.id !== "string" || !m.id || ids.has(m.id)) {
              throw new HarnessError(`model list of provider "${provider.name}" is invalid`);
            }
            ids.add(m.id);
          }
          for (const e of r.models.entries()) {
            const taken = e.value.models.find((m) => ids.has(m.id));
            if (taken) {
              throw new HarnessError(
                `model "${taken.id}" of provider "${p.name}" (${ownerLabel(owner)}) is ` +
                  `already offered by provider "${e.key}" (${ownerLabel(e.owner)})`,
                "model ids are unique across providers: give yours another id",
              );
            }
          }
          r.models.register(owner, provider.name, { provider, models });
        },
        registerProtocol: (adapter) => {
          guard();
          r.protocols.register(owner, adapter.protocol, adapter);
        },
      },
      auth: {
        register: (p) => {
          guard();
          r.auth.register(owner, p.id, p);
        },
      },
      hooks: {
        register: (hook) => {
          guard();
          r.stageHooks.register(owner, `${hook.stage}/${hook.name}`, hook);
        },
        on: (event, handler) => {
          guard();
          if (!LIFECYCLE_EVENTS.includes(event)) {
            throw new HarnessError(
              `unknown lifecycle event "${String(event)}"`,
              `use one of ${LIFECYCLE_EVENTS.join(", ")}`,
            );
          }
          if (typeof handler !== "function") {
            throw new HarnessError(`the handler of "${event}" must be a function`);
          }
          r.lifecycle.register(owner, `${ownerLabel(owner)}#${hookSeq++}`, { event, handler });
        },
      },
      audit: {
        registerSink: (sink, options) => {
          guard();
          if (typeof sink !== "function") throw new HarnessError("an audit sink is a function");
          const key = `${ownerLabel(owner)}#sink${loaded.auditKeys.length}`;
          loaded.auditKeys.push(key);
          this.#audit.add(key, sink, { failClosed: options?.failClosed === true });
        },
      },
      prompts: {
        register: (source) => {
          guard();
          r.prompts.register(owner, source.id, source);
        },
      },
      pages: {
        register: (page) => {
          guard();
          const p = validatePage(page);
          r.pages.register(owner, p.id, p);
        },
      },
      commands: {
        register: (command) => {
          guard();
          r.commands.register(owner, command.name, command);
        },
      },
      packs: {
        register: (dir) => {
          guard();
          if (typeof dir !== "string" || !dir.startsWith("/")) {
            throw new HarnessError("ctx.packs.register needs the pack's absolute directory");
          }
          r.packs.register(owner, dir, dir);
        },
      },
      onStart: (fn) => {
        guard();
        loaded.starts.push(fn);
      },
      onDispose: (fn) => {
        if (!loaded.active) throw new HarnessError(`plugin "${plugin.id}" is not active`);
        loaded.disposers.push(fn);
      },
      sandbox: this.#sandbox,
    };
    return ctx;
  }

  /** Closes every plugin: idempotent, bounded, continues after failures. */
  close(): Promise<void> {
    if (!this.#closing) this.#closing = this.#close();
    return this.#closing;
  }

  /**
   * Stops new work: every plugin's signal is aborted (its calls see it), lifecycle
   * handlers and audit queues drain (each bounded), then, in reverse order, each plugin's
   * contributions are unregistered and its disposers run (each bounded).
   */
  async #close(): Promise<void> {
    this.#closed = true;
    const active = [...this.#loaded].reverse().filter((p) => p.state === "active");
    for (const p of active) p.controller.abort();
    await this.lifecycle.settle(this.#boundMs);
    await this.#audit.flush(this.#boundMs);
    for (const p of active) {
      // queues had their bound in flush: a sink still behind is dropped now
      await this.#rollback(p, 0);
      p.state = "stopped";
    }
  }

  /** True once close() was called. */
  get closed(): boolean {
    return this.#closed;
  }
}

function contractProblem(
  plugin: RuntimePlugin<unknown> | undefined,
  expectedId?: string,
): string | undefined {
  if (!plugin || typeof plugin !== "object") {
    return "module has no default export plugin definition";
  }
  if (typeof plugin.id !== "string" || !ID_PATTERN.test(plugin.id)) {
    return "invalid id (use lowercase letters, digits, dots, underscores or hyphens)";
  }
  if (expectedId && expectedId !== plugin.id) {
    return `module defines id "${plugin.id}", expected "${expectedId}"`;
  }
  if (plugin.apiVersion !== API_VERSION) {
    return `unsupported apiVersion (this host implements ${API_VERSION})`;
  }
  if (typeof plugin.version !== "string" || !plugin.version) return "missing version";
  if (typeof plugin.setup !== "function") return "missing setup(ctx)";
  return undefined;
}

/** Wraps a tool so that it refuses calls once its plugin stopped. */
function guardStale(tool: ToolDefinition, loaded: Loaded): ToolDefinition {
  return {
    ...tool,
    execute: (input, ctx) => {
      if (!loaded.active) {
        return Promise.resolve(
          textResult(
            `error: tool '${tool.name}' is unavailable: its plugin "${loaded.id}" stopped`,
            true,
          ),
        );
      }
      const signal = AbortSignal.any([ctx.signal, loaded.controller.signal]);
      return tool.execute(input, { ...ctx, signal });
    },
  };
}
