/**
 * The PluginHost (seed 002): one per Harness. Resolves enabled entries,
 * validates contract and config, runs setups in configured order, starts after
 * every setup, rolls back a failing plugin (everything when it is required),
 * and on close stops new work, aborts plugin signals, unregisters
 * contributions and disposes resources in reverse order, each bounded at 5 s.
 *
 * Status messages never echo plugin exception text (it may hold secrets). The registries
 * are registries.ts, a plugin record and its contract check loaded.ts, the context of
 * `setup(ctx)` plugin_context.ts.
 *
 * @module
 */
import { type ChildSandbox, HarnessError, type Owner, ownerLabel } from "../base/mod.ts";
import type { AuditBus } from "./audit.ts";
import { LifecycleBus } from "./lifecycle.ts";
import { bounded, contractProblem, type Loaded, loadedRecord } from "./loaded.ts";
import { PageService } from "./pages.ts";
import { pluginContext } from "./plugin_context.ts";
import type { Registries } from "./registries.ts";
import type { PluginContext, PluginStatus, RuntimePlugin, RuntimePluginEntry } from "./types.ts";

/** The cleanup bound of the seed: each plugin's drain and disposal, 5 s. */
export const DISPOSE_BOUND_MS = 5000;
/** The bound of a plugin's `setup`, and of its starts together: 10 s unless configured. */
export const START_BOUND_MS = 10_000;

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
  /** The bound of each plugin's setup and of its starts (default {@link START_BOUND_MS}). */
  startBoundMs?: number;
  /** Command names no plugin may register (the front end's built-in commands). */
  reservedCommands?: readonly string[];
}

const unsandboxed: ChildSandbox = { prepare: (spec) => Promise.resolve(spec) };

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
  #startBoundMs: number;
  #reservedCommands: ReadonlySet<string>;
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
    this.#startBoundMs = opts.startBoundMs ?? START_BOUND_MS;
    this.#reservedCommands = new Set(opts.reservedCommands ?? []);
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
    return this.#loaded.map((p) => {
      const degraded = p.state === "active" && p.degraded !== undefined;
      return {
        id: p.id,
        version: p.version,
        state: degraded ? "degraded" : p.state,
        required: p.required,
        builtin: p.builtin,
        reason: degraded ? p.degraded : p.reason,
      };
    });
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
    const pending: {
      entry: RuntimePluginEntry;
      plugin: RuntimePlugin<unknown>;
      loaded: Loaded;
      boundMs: number;
    }[] = [];
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
          loadedRecord(id, entry.plugin?.version ?? "", required, "disabled", entry.builtin),
        );
        continue;
      }
      let plugin = entry.plugin;
      if (!plugin && entry.moduleError) {
        if (
          await this.#fail(id, "", required, `module could not be imported: ${entry.moduleError}`)
        ) continue;
      }
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
        // an async parseConfig is awaited: ctx.config is never a Promise
        if (p.parseConfig) config = await p.parseConfig(entry.config);
      } catch {
        if (await this.#fail(p.id, p.version, required, "invalid configuration")) continue;
      }
      const loaded = loadedRecord(p.id, p.version, required, "active", entry.builtin === true);
      const boundMs = entry.setupTimeoutMs ?? this.#startBoundMs;
      loaded.setupWith = { plugin: p, config, boundMs };
      this.#loaded.push(loaded);
      const setup = await bounded(() => p.setup(this.#context(p, loaded, config)), boundMs);
      if (setup === "ok") loaded.setupDone = true;
      else {
        await this.#phaseFailed(loaded, "setup", setup, boundMs);
        continue;
      }
      pending.push({ entry, plugin: p, loaded, boundMs });
    }
    // Starts run once every setup has finished, all of a plugin's starts under one bound; the
    // plugins start side by side (a slow one — an MCP server, a sync — delays no other), and
    // failures are handled afterwards in the plugins' order.
    const outcomes = await Promise.all(
      pending.map(({ loaded, boundMs }) =>
        loaded.state !== "active" ? "ok" : bounded(async () => {
          for (const start of loaded.starts) await start();
        }, boundMs)
      ),
    );
    for (const [i, started] of outcomes.entries()) {
      const { loaded, boundMs } = pending[i];
      if (started !== "ok" && loaded.state === "active") {
        await this.#phaseFailed(loaded, "start", started, boundMs);
      }
    }
  }

  /**
   * A plugin whose `setup` or starts failed or did not settle within `boundMs`: rolled back
   * and marked failed, with the phase (and the wait) named; a required one fails the load.
   */
  async #phaseFailed(
    loaded: Loaded,
    phase: "setup" | "start",
    outcome: "error" | "timeout",
    boundMs: number,
  ): Promise<void> {
    await this.#rollback(loaded);
    loaded.state = "failed";
    loaded.reason = outcome === "timeout"
      ? `${phase} did not finish within ${boundMs} ms`
      : loaded.refusal
      ? `${phase} failed: ${
        // deno-lint-ignore no-control-regex -- control characters are what is replaced
        loaded.refusal.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?").slice(0, 300)}`
      : `${phase} failed`;
    this.#log(`[plugins] ${loaded.id}: ${loaded.reason}${loaded.required ? "" : " (optional)"}`);
    if (!loaded.required) return;
    await this.#abortAll();
    throw new HarnessError(
      outcome === "timeout"
        ? `required runtime plugin "${loaded.id}": ${loaded.reason}`
        : `required runtime plugin "${loaded.id}" ${
          phase === "setup" ? "failed during setup" : "failed to start"
        }${loaded.refusal ? `: ${loaded.reason.slice(`${phase} failed: `.length)}` : ""}`,
      outcome === "timeout"
        ? `raise its "setupTimeoutMs" in plugins.json, or mark it "required": false`
        : `check its configuration in plugins.json, or mark it "required": false`,
    );
  }

  /**
   * Sets the active plugin `id` up again with the same configuration, its contributions
   * removed and its disposers run first: what it reads outside its configuration (an
   * approval given at a prompt) takes effect in this process. A failure leaves it `failed`
   * (never the harness). Resolves to true when it is active again.
   */
  async reload(id: string): Promise<boolean> {
    const i = this.#loaded.findIndex((l) => l.id === id);
    const old = this.#loaded[i];
    if (this.#closed || !old?.setupWith || old.state !== "active") return false;
    await this.#rollback(old);
    old.state = "stopped";
    const { plugin, config } = old.setupWith;
    const loaded = loadedRecord(old.id, old.version, old.required, "active", old.builtin);
    loaded.setupWith = old.setupWith;
    this.#loaded[i] = loaded;
    const boundMs = old.setupWith.boundMs;
    const r = await bounded(async () => {
      await plugin.setup(this.#context(plugin, loaded, config));
      loaded.setupDone = true;
      for (const start of loaded.starts) await start();
    }, boundMs);
    if (r !== "ok") {
      await this.#rollback(loaded);
      loaded.state = "failed";
      loaded.reason = r === "timeout"
        ? `setup did not finish within ${boundMs} ms on reload`
        : "setup failed on reload";
      this.#log(`[plugins] ${plugin.id}: ${loaded.reason}`);
    }
    return loaded.state === "active";
  }

  /** Records a failure; returns true when loading may go on (optional plugin). */
  async #fail(id: string, version: string, required: boolean, reason: string): Promise<boolean> {
    this.#loaded.push({ ...loadedRecord(id, version, required, "failed"), reason });
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
    // one bound for all of the plugin's disposers (seed 002: "5 s par plugin")
    const disposers = p.disposers.reverse();
    p.disposers = [];
    let failed = 0;
    const started = performance.now();
    const r = await bounded(async () => {
      for (const d of disposers) {
        try {
          await d();
        } catch {
          failed++; // the others still run; the plugin's text is not logged
        }
      }
    }, this.#boundMs);
    const waited = Math.round(performance.now() - started);
    if (r === "timeout") {
      this.#log(
        `[plugins] ${p.id}: cleanup timed out after ${waited} ms (bound ${this.#boundMs} ms)`,
      );
    } else if (failed > 0) {
      this.#log(`[plugins] ${p.id}: cleanup failed (${failed} of ${disposers.length} disposers)`);
    }
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
    return pluginContext(plugin, loaded, config, {
      registries: this.registries,
      audit: this.#audit,
      log: (line) => this.#log(line),
      sandbox: this.#sandbox,
      fileSkill: this.#fileSkill,
      reservedCommands: this.#reservedCommands,
    });
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
